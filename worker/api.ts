import { Hono, type Context } from "hono";
import { errorResponse, type FormPostEnv } from "./platform/http/answer";
import { ApiError } from "./platform/http/errors";
import { allowedMethods, pathInApp } from "./platform/http/methods";
import { describeError, log } from "./platform/log";
import { adminRoutes } from "./features/operator/routes";
import { devMailboxRoutes } from "./features/dev-mailbox/routes";
import { formRoutes } from "./features/contact/routes";
import { healthRoutes } from "./features/health/routes";
import { meRoutes } from "./features/me/routes";
import { waitlistRoutes } from "./features/waitlist/routes";

/**
 * The site's own JSON API under /api, and the development tools under /dev. Both answer in
 * the API's error shape {"error":{"code","message",...}}, through this sub-app's error handler;
 * a public form posted without JavaScript gets its errors as the form's page instead
 * (errorResponse decides). Nothing here may be cached, pages included.
 */
function jsonApp() {
  const app = new Hono<FormPostEnv>();
  app.use("*", async (c, next) => {
    await next();
    c.header("Cache-Control", "no-store");
  });
  app.onError((error, c) => {
    if (error instanceof ApiError) {
      if (error.status >= 500) {
        log("error", "request.failed", {
          method: c.req.method,
          route: c.req.routePath,
          code: error.code,
          error: describeError(error.cause ?? error),
        });
      }
      return errorResponse(c, error);
    }
    log("error", "request.unhandled", { method: c.req.method, route: c.req.routePath, error: describeError(error) });
    return errorResponse(c, new ApiError(500, "internal_error", "Something went wrong. Please try again."));
  });
  return app;
}

/**
 * The catch-all of a sub-app: a path it has routes for, asked with another method, is a 405 whose
 * Allow lists the methods of those routes (Hono's route table, methods.ts); any other path a 404.
 */
const noRoute = (app: () => Parameters<typeof allowedMethods>[0]) => (c: Context) => {
  const allowed = allowedMethods(app(), pathInApp(c));
  if (allowed.length > 0) {
    throw new ApiError(405, "method_not_allowed", `Use ${allowed.join(" or ")} for ${c.req.path}.`, {}, { Allow: allowed.join(", ") });
  }
  throw new ApiError(404, "not_found", `No route for ${c.req.method} ${c.req.path.slice(0, 200)}.`);
};

export const apiRoutes = jsonApp()
  .route("/health", healthRoutes)
  .route("/waitlist", waitlistRoutes)
  .route("/forms", formRoutes)
  .route("/admin", adminRoutes)
  .route("/me", meRoutes);
apiRoutes.all(
  "*",
  noRoute(() => apiRoutes),
);

/** /dev/*: only when ENVIRONMENT is exactly "development"; anywhere else nothing is here. */
export const devRoutes = jsonApp()
  .use("*", async (c, next) => {
    if (!c.get("deps").config.isDevelopment)
      throw new ApiError(404, "not_found", `No route for ${c.req.method} ${c.req.path.slice(0, 200)}.`);
    await next();
  })
  .route("/mailbox", devMailboxRoutes);
devRoutes.all(
  "*",
  noRoute(() => devRoutes),
);
