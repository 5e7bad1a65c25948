import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { NoScriptNote } from "./components/NoScriptNote";
import { preloadAllRoutes } from "./pages/route-chunks";
import { ROUTES } from "./routes";
import { Site } from "./Site";
import { ClaimMarks } from "./claims";

// The pages that are chunks of their own are loaded before anything is rendered, so every route
// renders in full (pages/route-chunks.tsx).
await preloadAllRoutes();

/**
 * What the build (web/build.ts) writes: every route rendered to HTML, so a page shows before any
 * script runs. The home page goes into index.html's #root (every visitor without JavaScript sees
 * it, whatever the address), the others into files of their own that the start script fetches
 * and puts into #root when the address asks for them; main.tsx then hydrates that route.
 */

/** The routes prerendered at build time: every route of the site. */
export const PRERENDERED_ROUTES: readonly string[] = Object.values(ROUTES);

/**
 * One route as HTML, rendered exactly as main.tsx hydrates it. `claimMarks`: with the claim-bearing
 * elements marked for the worker (the home page the build writes: web/src/claims.ts ClaimMarks),
 * which takes the marks out of the page it serves.
 */
export function renderRoute(path: string, { claimMarks = false }: { claimMarks?: boolean } = {}): string {
  return renderToString(
    <ClaimMarks value={claimMarks}>
      <Site ssrPath={path} />
    </ClaimMarks>,
  );
}

/** The note for browsers without JavaScript, as static HTML (React never hydrates it). */
export function renderNoScriptNote(): string {
  return renderToStaticMarkup(<NoScriptNote />);
}
