import { type Context, Hono, type MiddlewareHandler } from "hono";
import { errorResponse, type FormPostEnv } from "./answer";
import type { PlatformEnv } from "./env";
import { ApiError } from "./errors";
import { answerErrors, noRoute } from "./sub-app";

/**
 * The site's own JSON API (mounted under /api) and the development tools (/dev): both answer in
 * the API's error shape {"error":{"code","message",...}}, through this sub-app's error handler;
 * a public form posted without JavaScript gets its errors as the form's page instead
 * (errorResponse decides). Nothing here may be cached, pages included.
 */
export function jsonApp() {
  const app = new Hono<FormPostEnv>();
  app.use("*", async (c, next) => {
    await next();
    c.header("Cache-Control", "no-store");
  });
  app.onError(
    answerErrors({
      kind: ApiError,
      respond: errorResponse,
      internal: () => new ApiError(500, "internal_error", "Something went wrong. Please try again."),
      events: { failed: "request.failed", unhandled: "request.unhandled" },
    }),
  );
  return app;
}

/** The API's 404 for a path it has no route for. */
const noSuchRoute = (c: Context) => new ApiError(404, "not_found", `No route for ${c.req.method} ${c.req.path.slice(0, 200)}.`);

/** The catch-all of a JSON sub-app (sub-app.ts's noRoute, in the API's shape). */
export const jsonNoRoute = (app: Parameters<typeof noRoute>[0]) =>
  noRoute(app, {
    methodNotAllowed: (c, allowed) =>
      new ApiError(405, "method_not_allowed", `Use ${allowed.join(" or ")} for ${c.req.path}.`, {}, { Allow: allowed.join(", ") }),
    notFound: noSuchRoute,
  });

/** Only when ENVIRONMENT is exactly "development" (the dev tools); anywhere else nothing is here. */
export const developmentOnly: MiddlewareHandler<PlatformEnv> = async (c, next) => {
  if (!c.get("deps").config.isDevelopment) throw noSuchRoute(c);
  await next();
};
