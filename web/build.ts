/**
 * Builds the site: `npm run build` (into web/dist), and the e2e tests and benchmarks (into a
 * directory of their own with --out-dir). Runs on Node 22 (type stripping) from any directory.
 *
 * 1. Vite builds the browser bundle (hashed files under assets/, index.html).
 * 2. Vite builds web/src/entry-server.tsx for Node, into a temporary directory.
 * 3. Every route is rendered with it (build/prerender.ts). The home page goes into index.html's #root, marked
 *    data-prerendered, so it shows before any script runs (and is what a browser without
 *    JavaScript shows at every address); each other route goes into a file of its own under
 *    assets/ (writeRoutePages), which the start script fetches at once when the address names
 *    that route and puts into #root. main.tsx then hydrates the route instead of rendering from
 *    scratch. A <noscript> note (sign-in needs JavaScript) goes before #root.
 * 4. The stylesheet is inlined into index.html (build/inline.ts; about 4 KB gzipped: cheaper than a second request
 *    before the first paint), and the app's script tag is replaced by a small inline script
 *    (web/src/start.ts, built here) that shows the address's route as soon as the HTML is parsed
 *    and imports the app only after the first paint. The page then
 *    needs one request, the HTML, before it is painted complete, and that request fits the first
 *    round trip of a new connection (see writeRoutePages); both inline elements are
 *    allowed by their SHA-256 in the Content-Security-Policy (no 'unsafe-inline'), which is why
 *    the prerendered markup may hold no inline style or script of its own (checked in step 3).
 * 5. `_headers` (security and caching headers for the static files) is written from
 *    worker/shared/security-headers.ts, with those hashes.
 * 6. The operator console (/admin/) is built on its own (buildConsole below).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "vite";
import { staticHeadersFile } from "../worker/shared/security-headers.ts";
import { deferAppScript, inlineStylesheets } from "./build/inline.ts";
import { prerender, type RoutePages, type ServerEntry } from "./build/prerender.ts";

const WEB = path.dirname(fileURLToPath(import.meta.url));
const configFile = path.join(WEB, "vite.config.ts");

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
    routePages = prerender(outDir, server);
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

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = outDirFromArgs(process.argv.slice(2));
  await buildSite(outDir);
  console.log(`Built the site into ${path.relative(process.cwd(), outDir) || "."} (every route prerendered).`);
}
