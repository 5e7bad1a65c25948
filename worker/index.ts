import { Hono } from "hono";
import { ApiError, errorResponse } from "./http/errors";
import { describeError, log } from "./log";
import { retryDueNotifications } from "./mail/delivery";
import { devMailboxRoutes } from "./routes/dev-mailbox";
import { formRoutes } from "./routes/forms";
import { healthRoutes } from "./routes/health";
import { waitlistRoutes } from "./routes/waitlist";
import { createServices, withServices, type AppEnv } from "./services";

/**
 * The one worker: the API under /api, the dev mailbox under /dev, and the built site
 * (Workers static assets) for everything else.
 */
const app = new Hono<AppEnv>();

app.use("/api/*", async (c, next) => {
  await next();
  c.header("Cache-Control", "no-store");
  c.header("X-Content-Type-Options", "nosniff");
});
app.use("/api/*", withServices);
app.use("/dev/*", withServices);

app.route("/api/health", healthRoutes);
app.route("/api/waitlist", waitlistRoutes);
app.route("/api/forms", formRoutes);
app.route("/dev/mailbox", devMailboxRoutes);

app.notFound((c) => {
  const path = new URL(c.req.url).pathname;
  if (path.startsWith("/api/") || path.startsWith("/dev/")) {
    return errorResponse(c, new ApiError(404, "not_found", `No route for ${c.req.method} ${path}.`));
  }
  return c.env.ASSETS.fetch(c.req.raw);
});

app.onError((error, c) => {
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
  /** Cron Trigger: retries notifications that were not delivered. */
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      retryDueNotifications(createServices(env).delivery).catch((error: unknown) => {
        log("error", "notification.retry_run_failed", { error: describeError(error) });
      }),
    );
  },
} satisfies ExportedHandler<Env>;
