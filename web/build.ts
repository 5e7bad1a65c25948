/**
 * Builds the site: `npm run build` (into web/dist), and the e2e tests and benchmarks (into a
 * directory of their own with --out-dir). Runs on Node 22 (type stripping) from any directory.
 *
 * 1. Vite builds the browser bundle (hashed files under assets/, index.html).
 * 2. Vite builds web/src/entry-server.tsx for Node, into a temporary directory.
 * 3. Every route is rendered with it. The home page goes into index.html's #root, marked
 *    data-prerendered, so it shows before any script runs (and is what a browser without
 *    JavaScript shows at every address); each other route goes into a file of its own under
 *    assets/ (writeRoutePages), which the start script fetches at once when the address names
 *    that route and puts into #root. main.tsx then hydrates the route instead of rendering from
 *    scratch. A <noscript> note (sign-in needs JavaScript) goes before #root.
 * 4. The stylesheet is inlined into index.html (about 4 KB gzipped: cheaper than a second request
 *    before the first paint), and the app's script tag is replaced by a small inline script
 *    (web/src/start.ts, built here) that shows the address's route as soon as the HTML is parsed
 *    and imports the app only after the first paint. The page then
 *    needs one request, the HTML, before it is painted complete, and that request fits the first
 *    round trip of a new connection (see writeRoutePages); both inline elements are
 *    allowed by their SHA-256 in the Content-Security-Policy (no 'unsafe-inline'), which is why
 *    the prerendered markup may hold no inline style or script of its own (checked here).
 * 5. `_headers` (security and caching headers for the static files) is written from
 *    worker/shared/security-headers.ts, with those hashes.
 * 6. The operator console (/admin/) is built on its own (buildConsole below).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "vite";
import { cspHash } from "../worker/shared/hash.ts";
import { staticHeadersFile } from "../worker/shared/security-headers.ts";

const WEB = path.dirname(fileURLToPath(import.meta.url));
const configFile = path.join(WEB, "vite.config.ts");
const ROOT_ELEMENT = '<div id="root"></div>';

function outDirFromArgs(argv: string[]): string {
  const index = argv.indexOf("--out-dir");
  if (index === -1) return path.join(WEB, "dist");
  const value = argv[index + 1];
  if (!value) throw new Error("--out-dir needs a directory.");
  return path.resolve(value);
}

export async function buildSite(outDir: string): Promise<void> {
  let routePages: RoutePages;
  await build({ configFile, logLevel: "warn", build: { outDir, emptyOutDir: true } });

  // Inside the project, so the server bundle's imports (react, wouter...) resolve to node_modules.
  const ssrDir = mkdtempSync(path.join(WEB, ".ssr-"));
  try {
    await build({
      configFile,
      logLevel: "warn",
      build: { ssr: path.join(WEB, "src/entry-server.tsx"), outDir: ssrDir, emptyOutDir: true, copyPublicDir: false },
    });
    const server = (await import(pathToFileURL(path.join(ssrDir, "entry-server.js")).href)) as ServerEntry;
    const indexFile = path.join(outDir, "index.html");
    const template = readFileSync(indexFile, "utf8");
    if (!template.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT} to prerender into.`);
    writeFileSync(indexFile, template.replace(ROOT_ELEMENT, prerenderedBody(server)));
    routePages = writeRoutePages(outDir, server);
  } finally {
    rmSync(ssrDir, { recursive: true, force: true });
  }

  const styleHashes = await inlineStylesheets(outDir);
  const scriptHashes = await deferAppScript(outDir, routePages);
  writeFileSync(path.join(outDir, "_headers"), staticHeadersFile({ styles: styleHashes, scripts: scriptHashes }));

  await buildConsole(outDir);
}

/** The operator console's page: web/admin/index.html, built to admin/index.html (served at /admin/). */
const CONSOLE_PAGE = path.join(WEB, "admin/index.html");

/**
 * 6. The operator console, by a Vite build of its own into the same directory, after the site's:
 *    its own entry (web/src/admin/main.tsx), chunks and stylesheet, so no chunk is shared with
 *    the site and the site's files are not changed by a byte (a chunk both import, such as
 *    auth-js, is built twice; with the same content it gets the same name). It writes
 *    admin/index.html and new files under assets/, and nothing else: index.html is checked to
 *    be untouched. The page is served as it was built (no inline script or style, which the
 *    site's CSP would refuse: Vite's module script and stylesheet link only).
 */
async function buildConsole(outDir: string): Promise<void> {
  const siteFiles = snapshot(outDir);
  await build({
    configFile,
    logLevel: "warn",
    build: {
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      rollupOptions: { input: { admin: CONSOLE_PAGE } },
    },
  });
  for (const [file, content] of siteFiles) {
    if (!readFileSync(path.join(outDir, file)).equals(content)) throw new Error(`The console's build changed the site's ${file}.`);
  }
  const html = readFileSync(path.join(outDir, "admin/index.html"), "utf8");
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
  if (scripts.length !== 1 || !/^<script type="module" crossorigin src="\/assets\/[^"]+\.js">$/.test(scripts[0]!)) {
    throw new Error(`admin/index.html should have one module script from /assets, found: ${scripts.join(" ") || "none"}.`);
  }
  if (/<style|\sstyle=|\son[a-z]+=/i.test(html))
    throw new Error("admin/index.html holds inline style or script, which the CSP would block.");
  if (!/<meta name="robots" content="noindex, nofollow"/.test(html)) throw new Error("admin/index.html must say noindex, nofollow.");
}

/** Every file under `dir` (relative path -> content). */
function snapshot(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, full), readFileSync(full));
  }
  return files;
}

/** What web/src/entry-server.tsx exports. */
type ServerEntry = {
  PRERENDERED_ROUTES: readonly string[];
  renderRoute: (path: string) => string;
  renderNoScriptNote: () => string;
};

const HOME = "/";

/** Each route but the home page, and the address of the file holding its prerendered page. */
type RoutePages = Record<string, string>;

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
  const home = checkedForCsp(HOME, renderRoute(checkedRoute(HOME)));
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

/** The start script's entry (web/src/start.ts says what the script does). */
const START_ENTRY = path.join(WEB, "src/start-inline.ts");

/**
 * The start script for the app built at `appUrl`: web/src/start-inline.ts (and the route table
 * it imports from web/src/routes.ts) bundled and minified by Vite into one classic script, an
 * IIFE, so its names stay out of the page's global scope. The app's address is put in for
 * __APP_URL__, the other routes' page files for __ROUTE_PAGES__; the app is not bundled into it
 * (the import is left to the browser).
 */
async function startScript(appUrl: string, routePages: RoutePages): Promise<string> {
  const output = await build({
    configFile: false,
    root: WEB,
    logLevel: "warn",
    publicDir: false,
    define: { __APP_URL__: JSON.stringify(appUrl), __ROUTE_PAGES__: JSON.stringify(routePages) },
    build: {
      write: false,
      minify: true,
      rollupOptions: { input: START_ENTRY, external: [appUrl], output: { format: "iife" } },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) =>
    "output" in result ? result.output.filter((file) => file.type === "chunk") : [],
  );
  if (chunks.length !== 1) throw new Error(`The start script should build into one file, got ${chunks.length}.`);
  const code = chunks[0]!.code.trim();
  if (!code.includes(appUrl)) throw new Error("The start script does not import the app's file.");
  for (const [route, url] of Object.entries(routePages)) {
    if (!code.includes(url)) throw new Error(`The start script does not name the page of ${route}.`);
  }
  if (code.includes("</script")) throw new Error('The start script cannot be inlined: it contains "</script".');
  return code;
}

/**
 * Replaces index.html's one module script tag with the inline start script, and returns the
 * CSP source for it. The app's file stays where it is: the start script imports it.
 */
async function deferAppScript(outDir: string, routePages: RoutePages): Promise<string[]> {
  const indexFile = path.join(outDir, "index.html");
  const html = readFileSync(indexFile, "utf8");
  const tags = [...html.matchAll(/<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/g)];
  if (tags.length !== 1) throw new Error(`index.html should have one module script tag, found ${tags.length}.`);
  const [tag, appUrl] = tags[0]! as unknown as [string, string];
  if (/<link rel="modulepreload"/.test(html)) throw new Error("index.html preloads modules; they would load before the first paint.");
  const script = await startScript(appUrl, routePages);
  // At the end of <head>: before the body is parsed, after the stylesheet it relies on.
  const withoutTag = html.replace(tag, "");
  if (!withoutTag.includes("</head>")) throw new Error("index.html has no </head> to put the start script before.");
  writeFileSync(indexFile, withoutTag.replace("</head>", `<script>${script}</script>\n  </head>`));
  return [await cspHash(script)];
}

/**
 * Replaces index.html's stylesheet links with <style> elements holding the same CSS, and
 * returns the CSP source of each ("sha256-<base64>" of the exact text between the tags).
 */
function inlineStylesheets(outDir: string): Promise<string[]> {
  const indexFile = path.join(outDir, "index.html");
  const hashes: Promise<string>[] = [];
  const html = readFileSync(indexFile, "utf8").replace(
    /<link rel="stylesheet"(?: crossorigin)? href="(\/assets\/[^"]+\.css)">/g,
    (_link, href: string) => {
      const css = readFileSync(path.join(outDir, href), "utf8").trim();
      if (css.includes("</style")) throw new Error(`${href} cannot be inlined: it contains "</style".`);
      hashes.push(cspHash(css));
      return `<style>${css}</style>`;
    },
  );
  if (hashes.length === 0) throw new Error("index.html links no stylesheet to inline.");
  writeFileSync(indexFile, html);
  return Promise.all(hashes);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = outDirFromArgs(process.argv.slice(2));
  await buildSite(outDir);
  console.log(`Built the site into ${path.relative(process.cwd(), outDir) || "."} (every route prerendered).`);
}
