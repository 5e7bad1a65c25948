/**
 * Step 3 of the build (../build.ts): every route rendered with the server bundle. The home page
 * goes into index.html's #root; every other route into a file of its own, which the start
 * script fetches (writeRoutePages says why).
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * Prerenders the built site in `outDir` with `server`: the home page into index.html, the other
 * routes into their files, whose addresses it returns.
 */
export function prerender(outDir: string, server: ServerEntry): RoutePages {
  const indexFile = path.join(outDir, "index.html");
  const template = readFileSync(indexFile, "utf8");
  if (!template.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT} to prerender into.`);
  writeFileSync(indexFile, template.replace(ROOT_ELEMENT, prerenderedBody(server)));
  return writeRoutePages(outDir, server);
}

/** What web/src/entry-server.tsx exports. */
export type ServerEntry = {
  PRERENDERED_ROUTES: readonly string[];
  renderRoute: (path: string, options?: { claimMarks?: boolean }) => string;
  renderNoScriptNote: () => string;
};

const HOME = "/";

/** Each route but the home page, and the address of the file holding its prerendered page. */
export type RoutePages = Record<string, string>;

/** A route as it is written into the page's markup and a file name. */
function checkedRoute(route: string): string {
  // A route is written into an attribute and compared with the address by the start script.
  if (!/^\/[a-z0-9-]*$/.test(route)) throw new Error(`Cannot prerender the route ${JSON.stringify(route)}.`);
  return route;
}

/**
 * What replaces the empty #root: the <noscript> note, then #root holding the home page, and
 * nothing else. The other routes are not in index.html (writeRoutePages): every visitor loads
 * this page, and it must stay small enough to arrive in one round trip.
 */
function prerenderedBody({ PRERENDERED_ROUTES, renderRoute, renderNoScriptNote }: ServerEntry): string {
  if (!PRERENDERED_ROUTES.includes(HOME)) throw new Error("The home page must be prerendered: it is what #root holds.");
  const home = checkedForCsp(HOME, renderRoute(checkedRoute(HOME), { claimMarks: true }));
  return `${checkedForCsp("the <noscript> note", renderNoScriptNote())}<div id="root" data-prerendered="${HOME}">${home}</div>`;
}

/**
 * Every other route's prerendered page (what goes into #root, as for the home page) in a file
 * of its own, assets/page-<route>-<hash>.htm, and the addresses for the start script, which
 * fetches the address's page at once (from <head>, while the HTML still arrives) and puts it
 * into #root. The content's hash in the name lets it be cached for a year like the other assets
 * and keeps the page and the app of one build together. ".htm", not ".html": the static assets
 * server answers a .html address with a redirect to the address without it (a round trip more).
 *
 * Why not in index.html (as inert <template>s until issue 16): a new connection's first round
 * trip carries about 14.6 KB (TCP's initial window of 10 segments), response headers included.
 * With the legal pages' text in it the gzipped page grew past that, and the home page, which
 * every visitor loads, took a round trip more before its first paint (Lighthouse's simulated
 * slow 4G: 150 ms, LCP 1.19x the bare floor page's instead of 1.06x). A deep link pays one small
 * request instead, made in parallel with the HTML's download.
 */
function writeRoutePages(outDir: string, { PRERENDERED_ROUTES, renderRoute }: ServerEntry): RoutePages {
  const pages: RoutePages = {};
  for (const route of PRERENDERED_ROUTES.filter((route) => route !== HOME)) {
    const html = checkedForCsp(route, renderRoute(checkedRoute(route)));
    const hash = createHash("sha256").update(html).digest("hex").slice(0, 10);
    const file = `assets/page-${route.slice(1)}-${hash}.htm`;
    writeFileSync(path.join(outDir, file), html);
    pages[route] = `/${file}`;
  }
  return pages;
}

/** The page's policy allows only the two inline elements this build adds, by their hashes. */
function checkedForCsp(what: string, html: string): string {
  if (/<script|<style|\sstyle=|\son[a-z]+=/i.test(html))
    throw new Error(`The prerendered ${what} holds inline script or style, which the CSP would block.`);
  return html;
}
