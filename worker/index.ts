import { Hono, type Context } from "hono";
import { AuthError, authErrorResponse } from "./auth/errors";
import { pruneAuthRecords } from "./auth/housekeeping";
import { ApiError, errorResponse } from "./http/errors";
import { securityHeaders } from "./http/security-headers";
import { describeError, log } from "./log";
import { retryDueNotifications } from "./mail/delivery";
import { authRoutes } from "./routes/auth";
import { devMailboxRoutes } from "./routes/dev-mailbox";
import { formRoutes } from "./routes/forms";
import { healthRoutes } from "./routes/health";
import { waitlistRoutes } from "./routes/waitlist";
import { createServices, withServices, type AppEnv } from "./services";

/**
 * The one worker: the API under /api, sign-in (GoTrue-compatible) under /auth/v1, the dev
 * mailbox under /dev, and the built site (Workers static assets) for everything else.
 */
const app = new Hono<AppEnv>();

app.use("*", securityHeaders);
app.use("/api/*", async (c, next) => {
  await next();
  c.header("Cache-Control", "no-store");
  c.header("X-Content-Type-Options", "nosniff");
});
app.use("/api/*", withServices);
app.use("/dev/*", withServices);
app.use("/auth/*", withServices);

app.route("/api/health", healthRoutes);
app.route("/api/waitlist", waitlistRoutes);
app.route("/api/forms", formRoutes);
app.route("/dev/mailbox", devMailboxRoutes);
app.route("/auth/v1", authRoutes);

/** Sign-in speaks GoTrue's error format, which @supabase/auth-js reads; the rest of the API its own. */
const isAuthPath = (c: Context) => c.req.path.startsWith("/auth/");

app.notFound((c) => {
  const path = new URL(c.req.url).pathname;
  if (path.startsWith("/auth/")) {
    return authErrorResponse(c, new AuthError(404, "not_found", `No route for ${c.req.method} ${path}.`));
  }
  if (path.startsWith("/api/") || path.startsWith("/dev/")) {
    return errorResponse(c, new ApiError(404, "not_found", `No route for ${c.req.method} ${path}.`));
  }
  return c.env.ASSETS.fetch(c.req.raw);
});

app.onError((error, c) => {
  if (isAuthPath(c)) {
    if (error instanceof AuthError) {
      if (error.status >= 500) {
        log("error", "auth.request_failed", { method: c.req.method, path: c.req.path, code: error.code, error: describeError(error.cause ?? error) });
      }
      return authErrorResponse(c, error);
    }
    log("error", "auth.request_unhandled", { method: c.req.method, path: c.req.path, error: describeError(error) });
    return authErrorResponse(c, new AuthError(500, "unexpected_failure", "Something went wrong. Please try again."));
  }
  if (error instanceof ApiError) {
    const { cause, ...details } = error.details;
    if (error.status >= 500) {
      log("error", "request.failed", { method: c.req.method, path: c.req.path, code: error.code, error: describeError(cause ?? error) });
    }
    return errorResponse(c, new ApiError(error.status, error.code, error.message, details));
  }
  log("error", "request.unhandled", { method: c.req.method, path: c.req.path, error: describeError(error) });
  return errorResponse(c, new ApiError(500, "internal_error", "Something went wrong. Please try again."));
});

export default {
  fetch: app.fetch,
  /** Cron Trigger: retries notifications that were not delivered; clears old sign-in records. */
  async scheduled(_controller, env, ctx) {
    const services = createServices(env);
    ctx.waitUntil(
      retryDueNotifications(services.delivery).catch((error: unknown) => {
        log("error", "notification.retry_run_failed", { error: describeError(error) });
      }),
    );
    ctx.waitUntil(
      pruneAuthRecords(services).catch((error: unknown) => {
        log("error", "auth.prune_failed", { error: describeError(error) });
      }),
    );
  },
} satisfies ExportedHandler<Env>;
