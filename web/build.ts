/**
 * Builds the site: `npm run build` (into web/dist), and the e2e tests and benchmarks (into a
 * directory of their own with --out-dir). Runs on Node 22 (type stripping) from any directory.
 *
 * 1. Vite builds the browser bundle (hashed files under assets/, index.html).
 * 2. Vite builds web/src/entry-server.tsx for Node, into a temporary directory.
 * 3. The home page is rendered with it and put into index.html's #root, marked
 *    data-prerendered, so main.tsx hydrates it instead of rendering from scratch.
 * 4. The stylesheet is inlined into index.html (3.5 KB gzipped: cheaper than a second request
 *    before the first paint), and the app's script tag is replaced by a small inline script that
 *    imports the app only after the first paint. The page then needs one request, the HTML,
 *    before it is painted complete; both inline elements are allowed by their SHA-256 in the
 *    Content-Security-Policy (no 'unsafe-inline').
 * 5. `_headers` (security and caching headers for the static files) is written from
 *    worker/shared/security-headers.ts, with those hashes.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "vite";
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
  await build({ configFile, logLevel: "warn", build: { outDir, emptyOutDir: true } });

  // Inside the project, so the server bundle's imports (react, wouter...) resolve to node_modules.
  const ssrDir = mkdtempSync(path.join(WEB, ".ssr-"));
  try {
    await build({
      configFile,
      logLevel: "warn",
      build: { ssr: path.join(WEB, "src/entry-server.tsx"), outDir: ssrDir, emptyOutDir: true, copyPublicDir: false },
    });
    const { renderHomePage } = (await import(pathToFileURL(path.join(ssrDir, "entry-server.js")).href)) as {
      renderHomePage: () => string;
    };
    const indexFile = path.join(outDir, "index.html");
    const template = readFileSync(indexFile, "utf8");
    if (!template.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT} to prerender into.`);
    const html = renderHomePage();
    writeFileSync(indexFile, template.replace(ROOT_ELEMENT, `<div id="root" data-prerendered="/">${html}</div>`));
  } finally {
    rmSync(ssrDir, { recursive: true, force: true });
  }

  const styleHashes = inlineStylesheets(outDir);
  const scriptHashes = deferAppScript(outDir);
  writeFileSync(path.join(outDir, "_headers"), staticHeadersFile({ styles: styleHashes, scripts: scriptHashes }));
}

/** The CSP source that allows exactly this inline text. */
const cspHash = (text: string) => `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;

/**
 * What replaces the app's script tag. It runs when the document is parsed (an inline module
 * script is deferred). On the prerendered home page it lets the browser paint first: the
 * requestAnimationFrame callback runs just before the next paint, the timeout right after it
 * (a background tab paints nothing and gets no frames, so it starts at once). Any other route
 * has nothing prerendered to show: the prerendered home is cleared so it never flashes.
 */
function startScript(appUrl: string): string {
  return `const root = document.getElementById("root");
const route = location.hash.replace(/^#/, "") || "/";
const start = () => import(${JSON.stringify(appUrl)}).catch((error) => console.error("Could not start the site's script.", error));
if (root?.dataset.prerendered !== route) {
  root?.replaceChildren();
  start();
} else if (document.visibilityState === "visible") {
  requestAnimationFrame(() => setTimeout(start, 0));
} else {
  start();
}`;
}

/**
 * Replaces index.html's one module script tag with the inline start script, and returns the
 * CSP source for it. The app's file stays where it is: the start script imports it.
 */
function deferAppScript(outDir: string): string[] {
  const indexFile = path.join(outDir, "index.html");
  const html = readFileSync(indexFile, "utf8");
  const tags = [...html.matchAll(/<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/g)];
  if (tags.length !== 1) throw new Error(`index.html should have one module script tag, found ${tags.length}.`);
  const [tag, appUrl] = tags[0]! as unknown as [string, string];
  if (/<link rel="modulepreload"/.test(html)) throw new Error("index.html preloads modules; they would load before the first paint.");
  const script = startScript(appUrl);
  // Before the closing </body>, after the prerendered page, as the app expects to find it.
  const withoutTag = html.replace(tag, "");
  writeFileSync(indexFile, withoutTag.replace("</body>", `<script type="module">${script}</script>\n  </body>`));
  return [cspHash(script)];
}

/**
 * Replaces index.html's stylesheet links with <style> elements holding the same CSS, and
 * returns the CSP source of each ("sha256-<base64>" of the exact text between the tags).
 */
function inlineStylesheets(outDir: string): string[] {
  const indexFile = path.join(outDir, "index.html");
  const hashes: string[] = [];
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
  return hashes;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = outDirFromArgs(process.argv.slice(2));
  await buildSite(outDir);
  console.log(`Built the site into ${path.relative(process.cwd(), outDir) || "."} (home page prerendered).`);
}
