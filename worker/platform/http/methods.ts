import type { Context } from "hono";

/** What a Hono app says about its routes (`app.routes`): each route's method and path pattern. */
type RouteTable = { routes: readonly { method: string; path: string }[] };

/**
 * The methods `app` has routes for at `path` (relative to where the app is mounted), read from
 * Hono's own route table, so a 405's Allow header can never disagree with the routes. Middleware
 * (method ALL) and catch-alls are not routes of a path. Empty: the path is unknown (a 404).
 */
export function allowedMethods(app: RouteTable, path: string): string[] {
  const methods = new Set<string>();
  for (const route of app.routes) {
    if (route.method === "ALL" || route.path.includes("*")) continue;
    if (patternOf(route.path).test(path)) methods.add(route.method);
  }
  return [...methods];
}

const patterns = new Map<string, RegExp>();

/** A parameter with its own pattern, as Hono writes it: ":id{[0-9]+}". */
const PARAM_WITH_PATTERN = /^:\w+\{(.+)\}$/;

/** A route path ("/people/:email", "/campaigns/:id{[0-9]+}") as a regular expression over request paths. */
function patternOf(routePath: string): RegExp {
  let pattern = patterns.get(routePath);
  if (!pattern) {
    const param = (part: string) => `(?:${PARAM_WITH_PATTERN.exec(part)?.[1] ?? "[^/]+"})`;
    const source = routePath
      .split("/")
      .map((part) => (part.startsWith(":") ? param(part) : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    pattern = new RegExp(`^${source}/?$`);
    patterns.set(routePath, pattern);
  }
  return pattern;
}

/**
 * The request's path relative to the app whose catch-all ("*") is answering it: a sub-app mounted
 * at /api sees "/api/waitlist" as "/waitlist".
 */
export function pathInApp(c: Context): string {
  const base = c.req.routePath.replace(/\/?\*$/, "");
  return c.req.path.slice(base.length) || "/";
}
