import { ROUTES, routeOfHash } from "./routes";

/**
 * The start script: web/build.ts builds web/src/start-inline.ts (which calls this) into a
 * classic inline script at the end of index.html's <head>, in place of the app's script tag, so
 * it runs before the body is parsed (it is inline: nothing to download, nothing to wait for).
 *
 * - The route is read from the address as the app reads it (routeOfHash in ./routes.ts: a home
 *   page anchor such as "#contact" is the home page). For any route but the home page, <html> is
 *   marked data-route-pending at once, and styles.css hides everything of the prerendered home
 *   page but its header until the route's page is in: the header shows with the first paint, the
 *   wrong page never does (and costs no layout while the HTML streams in).
 * - When the document is parsed (DOMContentLoaded), #root and the templates are all there. When
 *   #root does not hold the route, the route's template is moved in and named in
 *   data-prerendered, so a deep link (/#/login) shows its page with the HTML, not after the app's
 *   script; an address with no template leaves #root empty for the app to render. The templates
 *   are dropped then.
 * - Until the app runs, a form without an action (sign-in, which only the app can do) must not
 *   be submitted: the browser would load this page with the fields in its address, an e-mail in
 *   the history and the logs. Such a submit is held instead (the form is marked
 *   data-pending-submit) and main.tsx sends it again once the app runs, so the visitor's press is
 *   not lost. Forms with an action (waitlist, contact) post to the API as they should.
 * - A button that only navigates (data-go="/": the sign-in page's back-to-home) goes there when
 *   pressed before the app runs: the address changes, and main.tsx renders that route from
 *   scratch when it starts, instead of the press doing nothing.
 * - With prerendered HTML in #root it lets the browser paint the page first (afterContentfulPaint):
 *   a background tab paints nothing and gets no frames, so it starts at once. With nothing to
 *   show, it starts at once.
 *
 * `loadApp` imports the app (web/src/main.tsx, built): main.tsx marks #root data-started when it runs.
 */
export function startSite(loadApp: () => Promise<unknown>): void {
  const route = routeOfHash(location.hash);
  const html = document.documentElement;
  const start = () => loadApp().catch((error: unknown) => console.error("Could not start the site's script.", error));
  if (route !== ROUTES.home) html.dataset.routePending = "";

  document.addEventListener("DOMContentLoaded", () => {
    const root = document.getElementById("root");
    if (!root) return;
    const templates = [...document.querySelectorAll<HTMLTemplateElement>("template[data-route]")];
    if (root.dataset.prerendered !== route) {
      const page = templates.find((template) => template.dataset.route === route);
      root.replaceChildren(...(page ? [page.content] : []));
      if (page) root.dataset.prerendered = route;
      else delete root.dataset.prerendered;
    }
    for (const template of templates) template.remove();
    delete html.dataset.routePending;

    const appStarted = () => root.dataset.started !== undefined;
    document.addEventListener("click", (event) => {
      if (appStarted() || !(event.target instanceof Element)) return;
      const go = event.target.closest<HTMLElement>("button[data-go]")?.dataset.go;
      if (go !== undefined) location.hash = go;
    });
    document.addEventListener(
      "submit",
      (event) => {
        const form = event.target;
        if (!(form instanceof HTMLFormElement) || form.hasAttribute("action") || appStarted()) return;
        event.preventDefault();
        form.dataset.pendingSubmit = "";
      },
      true,
    );

    if (root.dataset.prerendered && document.visibilityState === "visible") {
      afterContentfulPaint(start);
    } else {
      void start();
    }
  });
}

/** How long to wait for a paint of the main content the browser does not report before starting anyway. */
const PAINT_WAIT_MS = 1000;

/**
 * Runs `then` once the page's main content has been painted: when the browser reports a largest
 * contentful paint inside <main> (the hero's headline on the home page), one more frame later
 * (the requestAnimationFrame callback runs just before that frame's paint, the timeout right
 * after it). The header often paints a frame or two before the hero, whose text is still being
 * laid out; starting the app's download after the first frame alone let it compete with the
 * hero's paint, the page's largest. Where the browser does not report it, after the next frame;
 * and never later than PAINT_WAIT_MS.
 */
function afterContentfulPaint(then: () => void): void {
  let done = false;
  const go = () => {
    if (done) return;
    done = true;
    requestAnimationFrame(() => setTimeout(then, 0));
  };
  const reports =
    typeof PerformanceObserver !== "undefined" && PerformanceObserver.supportedEntryTypes?.includes("largest-contentful-paint");
  if (!reports) {
    go();
    return;
  }
  const inMain = (entry: PerformanceEntry) => (entry as PerformanceEntry & { element?: Element | null }).element?.closest("main") != null;
  const observer = new PerformanceObserver((entries) => {
    if (!entries.getEntries().some(inMain)) return;
    observer.disconnect();
    go();
  });
  observer.observe({ type: "largest-contentful-paint", buffered: true });
  setTimeout(() => {
    observer.disconnect();
    go();
  }, PAINT_WAIT_MS);
}
