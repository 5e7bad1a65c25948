import { type ComponentType, lazy, Suspense, useId, useState } from "react";
import { myPlaceShell } from "../content";
import { useHydrated } from "../hooks/hydrated";
import { LoadFailed } from "./LoadFailed";

type BodyProps = { onRetry: () => void };

/**
 * The page's own code: a chunk of its own, fetched the first time /#/me is shown. A failed load
 * (offline, a deploy replaced the files) is not an error that takes the site down: it becomes
 * LoadFailed, which says so and offers to try again.
 */
const loadPage = (): Promise<{ default: ComponentType<BodyProps> }> =>
  import("./me/MePage").catch((error: unknown) => {
    console.error("Could not load the My place page.", error);
    return { default: LoadFailed };
  });

/**
 * "My place" (/#/me, issue 16): the signed-in joiner's status, place, referral link and actions.
 * Everything of it but this shell (its heading and a loading line) is loaded with React.lazy, so
 * the home page's first-load script carries none of it. The heading stays the same element while
 * the page's code arrives, so the focus a route change puts on it is not lost.
 *
 * The prerender and the hydration of a prerendered /#/me show the loading line, not the lazy
 * page (a server render cannot wait for it): the lazy part starts right after hydration.
 */
export function MyPlacePage() {
  const headingId = useId();
  const hydrated = useHydrated();
  // Trying again needs a new lazy component: React.lazy keeps what its first load came to.
  const [Body, setBody] = useState(() => lazy(loadPage));
  const loading = (
    <p className="me__loading" role="status">
      {myPlaceShell.loading}
    </p>
  );
  return (
    <section className="me" aria-labelledby={headingId}>
      <div className="card me__card">
        <h1 id={headingId} tabIndex={-1}>
          {myPlaceShell.title}
        </h1>
        {hydrated ? (
          <Suspense fallback={loading}>
            <Body onRetry={() => setBody(() => lazy(loadPage))} />
          </Suspense>
        ) : (
          loading
        )}
      </div>
    </section>
  );
}
