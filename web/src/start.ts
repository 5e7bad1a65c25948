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
 * - index.html holds only the home page (web/build.ts keeps it small enough for one round trip);
 *   each other route's prerendered page is a file of its own (`pages`: route -> address). The
 *   address's page is fetched at once, from <head>, while the rest of the HTML still arrives.
 *   When the document is parsed (DOMContentLoaded) and that page is in, it is put into #root and
 *   named in data-prerendered, so a deep link (/#/login) shows its page before the app's script.
 *   An address with no page (or one that could not be fetched) leaves #root empty for the app
 *   to render.
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
export function startSite(loadApp: () => Promise<unknown>, pages: Readonly<Record<string, string>> = {}): void {
  const route = routeOfHash(location.hash);
  const html = document.documentElement;
  const start = () => loadApp().catch((error: unknown) => console.error("Could not start the site's script.", error));
  if (route !== ROUTES.home) html.dataset.routePending = "";
  const pageUrl = route === ROUTES.home ? undefined : pages[route];
  const page = pageUrl === undefined ? undefined : fetchPage(pageUrl);

  document.addEventListener("DOMContentLoaded", () => {
    const root = document.getElementById("root");
    if (!root) return;

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

    const show = (pageHtml: string | null) => {
      if (root.dataset.prerendered !== route) {
        if (pageHtml === null) {
          root.replaceChildren();
          delete root.dataset.prerendered;
        } else {
          // Parsed inert (a template's content): nothing in it runs or loads until it is in #root.
          const template = document.createElement("template");
          template.innerHTML = pageHtml;
          root.replaceChildren(template.content);
          root.dataset.prerendered = route;
        }
      }
      delete html.dataset.routePending;
      if (root.dataset.prerendered && document.visibilityState === "visible") {
        afterContentfulPaint(start);
      } else {
        void start();
      }
    };
    // The home page (and an address with no page of its own) at once, in this task.
    if (page) void page.then(show);
    else show(null);
  });
}

/** A prerendered page's HTML, or null when it cannot be had (offline, a deploy replaced it): the app then renders the route. */
function fetchPage(url: string): Promise<string | null> {
  // A failure of the request or of its body (the connection cut mid-way) alike.
  return fetch(url)
    .then((response) => (response.ok ? response.text() : null))
    .catch(() => null);
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
