import { Hono, type Context } from "hono";
import { API_VERSION, API_VERSION_HEADER, AuthError, authErrorResponse } from "../auth/errors";
import type { AppEnv } from "../deps";
import { TURNSTILE_META } from "../shared/public-forms";
import { withTurnstile } from "../shared/security-headers";

/**
 * The site's pages, passed on from the static assets (web/dist, with the headers of its
 * `_headers` file). The worker sees them first only to admit Turnstile when it is configured:
 * the page then carries the site key (a <meta> the forms read) and a policy that allows
 * Turnstile's origin. Without Turnstile the page goes out exactly as built.
 */
async function page(c: Context<AppEnv>): Promise<Response> {
  const response = await c.env.ASSETS.fetch(c.req.raw);
  const { turnstile } = c.get("deps").config;
  if (!turnstile.enabled || response.status !== 200 || !(response.headers.get("content-type") ?? "").includes("text/html")) {
    return response;
  }
  const policy = response.headers.get("Content-Security-Policy");
  const rewritten = new HTMLRewriter()
    .on("head", {
      element(head) {
        head.append(`<meta name="${TURNSTILE_META}" content="${turnstile.siteKey.replace(/[^\w-]/g, "")}">`, { html: true });
      },
    })
    .transform(response);
  const headers = new Headers(rewritten.headers);
  if (policy) headers.set("Content-Security-Policy", withTurnstile(policy));
  // The body changed: its validator no longer names it.
  headers.delete("ETag");
  return new Response(rewritten.body, { status: rewritten.status, headers });
}

export const pageRoutes = new Hono<AppEnv>().get("/", page).get("/index.html", page);

/**
 * A path with no file: a missing /assets/* file is a plain 404 that nobody caches (never the
 * page under the assets' year-long cache); an unknown /auth/* path a GoTrue-shaped 404; any
 * other path goes to the home page, where hash routing takes over.
 */
export function noSuchFile(c: Context<AppEnv>): Response {
  // Sign-in clients read GoTrue's error shape, under any version prefix.
  if (c.req.path.startsWith("/auth/")) {
    c.header(API_VERSION_HEADER, API_VERSION);
    c.header("Cache-Control", "no-store");
    return authErrorResponse(c, new AuthError(404, "not_found", `No route for ${c.req.method} ${c.req.path.slice(0, 200)}.`));
  }
  if (c.req.path.startsWith("/assets/")) {
    return c.text("Not found", 404, { "Cache-Control": "no-store" });
  }
  if (c.req.method !== "GET" && c.req.method !== "HEAD") return c.text("Not found", 404, { "Cache-Control": "no-store" });
  return c.redirect("/", 302);
}
