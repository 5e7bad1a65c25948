import { fileURLToPath } from "node:url";
import { cloudflare } from "@cloudflare/vite-plugin";
import { defineConfig, mergeConfig, type Plugin } from "vite";
import siteConfig from "./vite.config.ts";

/**
 * `npm run dev`: the site's Vite config (web/vite.config.ts) plus @cloudflare/vite-plugin, which
 * runs the worker in workerd inside the Vite dev server. Only the dev server uses this file;
 * `npm run build` (web/build.ts) keeps building with web/vite.config.ts alone.
 *
 * - The worker: wrangler.toml's, with its bindings, [vars] and .dev.vars (the plugin reads the file
 *   next to wrangler.toml). Its local state is the one `npm start` uses (.wrangler/state at the
 *   repository root, migrated by `npm run dev:prepare`), so both see the same database.
 * - The pages: wrangler.toml's run_worker_first paths reach the worker first, as in production;
 *   its page route fetches "/" from the ASSETS binding, which here is Vite, which answers with
 *   web/index.html as Vite transforms it (the HMR client, React's refresh preamble, /src/main.tsx).
 *   /admin/ is web/admin/index.html the same way. Other files come from Vite (web/src, web/public).
 * - Edits: a change under web/src is hot-updated in the open page (React fast refresh keeps the
 *   components' state); a change under worker/ is picked up by the next request.
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DEFAULT_PORT = 8787;

export default defineConfig(
  mergeConfig(siteConfig, {
    plugins: [
      devPagePolicy(),
      watchWorkerSettings(),
      cloudflare({ configPath: `${ROOT}wrangler.toml`, persistState: { path: `${ROOT}.wrangler/state` } }),
    ],
    server: {
      host: "127.0.0.1",
      // The port is a setting (PORT); a busy one is refused, never swapped for another (the
      // port check in `npm run dev` has said so already).
      port: Number(process.env.PORT || DEFAULT_PORT),
      strictPort: true,
    },
    // Nothing of the worker's local state is a source file to watch.
    clearScreen: false,
  }),
);

/**
 * The worker answers its pages with the site's Content-Security-Policy, which admits no inline
 * script or style: right for the built site, whose inline elements are allowed by their hashes,
 * but it would block what the dev server needs (React's refresh preamble, an inline module
 * script, and the stylesheets Vite injects as <style> elements). In the dev server only, those
 * two directives also get 'unsafe-inline'; everything else of the policy stays as the worker sent
 * it (the HMR WebSocket is same-origin, which connect-src 'self' admits).
 */
function devPagePolicy(): Plugin {
  const relax = (policy: string) =>
    policy
      .split(/;\s*/)
      .map((directive) =>
        /^(script|style)-src\s/.test(directive) && !directive.includes("'unsafe-inline'") ? `${directive} 'unsafe-inline'` : directive,
      )
      .join("; ");
  return {
    name: "homework-helper:dev-page-policy",
    apply: "serve",
    configureServer(server) {
      server.middlewares.use((_req, res, next) => {
        const writeHead = res.writeHead;
        res.writeHead = function (this: typeof res, ...args: Parameters<typeof res.writeHead>) {
          const headers = args.find((arg, index) => index > 0 && typeof arg === "object" && arg !== null && !Array.isArray(arg)) as
            | Record<string, string | string[] | number>
            | undefined;
          for (const name of Object.keys(headers ?? {})) {
            const value = headers![name];
            if (name.toLowerCase() === "content-security-policy" && typeof value === "string") headers![name] = relax(value);
          }
          const current = res.getHeader("content-security-policy");
          if (typeof current === "string") res.setHeader("content-security-policy", relax(current));
          return writeHead.apply(this, args);
        } as typeof res.writeHead;
        next();
      });
    },
  };
}

/**
 * The plugin restarts the dev server when wrangler.toml or .dev.vars changes, but only for files
 * Vite watches, and Vite watches web/ (its root); these two are in the repository's root.
 */
function watchWorkerSettings(): Plugin {
  return {
    name: "homework-helper:watch-worker-settings",
    apply: "serve",
    configureServer(server) {
      server.watcher.add([`${ROOT}wrangler.toml`, `${ROOT}.dev.vars`]);
    },
  };
}
