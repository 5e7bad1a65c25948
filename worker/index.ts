import { Hono } from "hono";
import { pruneRecords } from "./auth/housekeeping";
import { handleCampaignQueue, runCampaignCron } from "./campaigns/lifecycle";
import { createDeps, withDeps, type AppEnv } from "./deps";
import { securityHeaders } from "./http/security-headers";
import { describeError, log } from "./log";
import { runJoinerOutbox } from "./mail/joiner";
import { runOutbox } from "./mail/outbox";
import { apiRoutes, devRoutes } from "./routes/api";
import { authElsewhere, authRoutes } from "./routes/auth";
import { campaignPreviewRoutes } from "./routes/campaign-preview";
import { confirmRoutes } from "./routes/confirm";
import { noSuchFile, pageRoutes } from "./routes/pages";
import { unsubscribeRoutes } from "./routes/unsubscribe";

/**
 * The one worker: the API under /api, sign-in (GoTrue-compatible) under /auth/v1, the dev
 * mailbox under /dev, the confirmation and unsubscribe links' pages (/confirm, /unsubscribe), and
 * the built site (Workers static assets) for everything else. Each part answers errors in its own
 * format (its sub-app's error handler; /confirm and /unsubscribe answer pages).
 */
const app = new Hono<AppEnv>();

app.use("*", securityHeaders);
app.use("*", withDeps);

app.route("/api", apiRoutes);
app.route("/auth/v1", authRoutes);
app.route("/auth", authElsewhere);
app.route("/dev", devRoutes);
app.route("/confirm", confirmRoutes);
// The console's framed preview of a campaign's e-mail (a signed address; its own CSP).
app.route("/campaign-preview", campaignPreviewRoutes);
app.route("/unsubscribe", unsubscribeRoutes);
app.route("/", pageRoutes);
app.notFound(noSuchFile);

export default {
  fetch: app.fetch,
  /** The campaign queue and its dead-letter queue (worker/campaigns/lifecycle.ts; README "Launch day"). */
  queue: handleCampaignQueue,
  /**
   * Cron Trigger: sends due notifications (singles, then a digest) and joiner e-mails; clears old
   * records; starts due scheduled campaigns and re-enqueues stalled ones (the queue's backstop).
   */
  async scheduled(_controller, env, ctx) {
    const deps = createDeps(env);
    ctx.waitUntil(
      runOutbox(deps).catch((error: unknown) => {
        log("error", "notification.outbox_run_failed", { error: describeError(error) });
      }),
    );
    ctx.waitUntil(
      runJoinerOutbox(deps).catch((error: unknown) => {
        log("error", "joiner_mail.outbox_run_failed", { error: describeError(error) });
      }),
    );
    ctx.waitUntil(
      runCampaignCron(deps, env).catch((error: unknown) => {
        log("error", "campaign.cron_failed", { error: describeError(error) });
      }),
    );
    ctx.waitUntil(
      pruneRecords(deps).catch((error: unknown) => {
        log("error", "housekeeping.failed", { error: describeError(error) });
      }),
    );
  },
} satisfies ExportedHandler<Env>;
