import { StrictMode, useEffect, type ReactNode } from "react";
import { App } from "./App";

/**
 * The whole site, as the build prerenders it (entry-server.tsx) and the browser starts it
 * (main.tsx): one tree for both, so hydration finds exactly the prerendered markup.
 *
 * `ssrPath` is the route to render without asking the browser: the build's route, and while
 * hydrating, the route whose prerendered HTML is being hydrated (the hash hook's server
 * snapshot), so the first render matches it whatever the address says by then.
 * `onStarted` runs once the site is running in the browser.
 */
export function Site({ ssrPath, onStarted }: { ssrPath?: string; onStarted?: () => void }) {
  return (
    <StrictMode>
      <Started onStarted={onStarted}>
        <App ssrPath={ssrPath} />
      </Started>
    </StrictMode>
  );
}

/**
 * Calls `onStarted` after the first commit. It wraps the whole app, and a parent's effects run
 * after all of its children's: by then every handler is attached and every first effect (the
 * demo's timer, the header's scroll listener) has run. It renders no element of its own, so the
 * markup (and useId's ids) are those of the app alone.
 */
function Started({ onStarted, children }: { onStarted?: () => void; children: ReactNode }) {
  useEffect(() => {
    onStarted?.();
  }, [onStarted]);
  return children;
}
