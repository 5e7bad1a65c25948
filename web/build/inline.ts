/**
 * Step 4 of the build (../build.ts): the stylesheet inlined into index.html, and the app's script
 * tag replaced by the inline start script; each returns the CSP sources of what it inlined, for
 * the `_headers` file.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { cspHash } from "../../worker/shared/hash.ts";
import type { RoutePages } from "./prerender.ts";

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

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
export async function deferAppScript(outDir: string, routePages: RoutePages): Promise<string[]> {
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
export function inlineStylesheets(outDir: string): Promise<string[]> {
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
