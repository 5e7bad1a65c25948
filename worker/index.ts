import { Hono } from "hono";
import { pruneRecords } from "./features/sign-in";
import { canonicalizeAddresses } from "./features/addresses";
import { runRetention } from "./features/retention";
import { consumeCampaignBatch, runCampaignCron } from "./features/campaigns";
import { consumeDeadJoins, consumeJoinBatch, JOINS_DLQ, JOINS_QUEUE } from "./features/joins";
import { createDeps, withDeps, type AppEnv } from "./deps";
import { securityHeaders } from "./platform/http/security-headers";
import { describeError, log } from "./platform/log";
import { confirmRoutes } from "./features/waitlist";
import { consumeMailBatch, isMailQueue, requeueDue } from "./features/mail-queue";
import { consumeWebhookBatch, isWebhookQueue, runWebhookCron } from "./features/webhooks";
import { parentRoutes } from "./features/parents";
import { apiRoutes, devRoutes } from "./api";
import { authElsewhere, authRoutes } from "./features/sign-in/routes";
import { campaignPreviewRoutes } from "./features/campaigns/preview-routes";
import { noSuchFile, pageRoutes } from "./features/pages/routes";
import { unsubscribeRoutes } from "./features/campaigns/unsubscribe/routes";

/**
 * The one worker: the API under /api, sign-in (GoTrue-compatible) under /auth/v1, the dev
 * mailbox under /dev, the confirmation, parent's and unsubscribe links' pages (/confirm, /parent,
 * /unsubscribe), and
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
// The parent's page: a child's request to join, answered (worker/features/parents).
app.route("/parent", parentRoutes);
// The console's framed preview of a campaign's e-mail (a signed address; its own CSP).
app.route("/campaign-preview", campaignPreviewRoutes);
app.route("/unsubscribe", unsubscribeRoutes);
app.route("/", pageRoutes);
app.notFound(noSuchFile);

/** Runs one of the cron's jobs after the invocation returns; its failure is logged as `event`, never thrown at the others. */
function job(ctx: ExecutionContext, work: Promise<unknown>, event: string): void {
  ctx.waitUntil(
    work.catch((error: unknown) => {
      log("error", event, { error: describeError(error) });
    }),
  );
}

// The joins' backlog (wrangler.toml JOIN_BACKLOG): a Durable Object class is exported by the main module.
export { JoinBacklog } from "./features/joins";

export default {
  fetch: app.fetch,
  /**
   * The mail queue and its dead-letter queue (worker/features/mail-queue/consumer.ts), the joins
   * queue and its dead-letter queue (worker/features/joins/consumer.ts), and the campaign queue and
   * its dead-letter queue (worker/features/campaigns/consumer.ts; docs/launch-day.md).
   */
  async queue(batch, env) {
    if (isMailQueue(batch.queue)) {
      await consumeMailBatch(createDeps(env), batch);
      return;
    }
    // Signed webhooks and Slack (worker/features/webhooks/consumer.ts).
    if (isWebhookQueue(batch.queue)) return consumeWebhookBatch(createDeps(env), batch);
    if (batch.queue === JOINS_QUEUE) return consumeJoinBatch(createDeps(env), batch);
    if (batch.queue === JOINS_DLQ) return consumeDeadJoins(createDeps(env), batch);
    await consumeCampaignBatch(createDeps(env), batch);
  },
  /**
   * Cron Trigger: re-queues due unsent e-mails (joiner e-mails, the e-mails asking parents for
   * their consent, the team's notifications within the hour's cap) on the mail queue and sends
   * the digest of the notifications past it; clears old
   * records; starts due scheduled campaigns and re-enqueues stalled ones (the queue's backstop);
   * moves a few hundred addresses stored before they were canonical to their canonical form;
   * deletes what the retention schedule says is kept no longer (worker/features/retention/);
   * re-queues the webhooks that are due or stuck (worker/features/webhooks/cron.ts).
   */
  async scheduled(_controller, env, ctx) {
    const deps = createDeps(env);
    job(ctx, requeueDue(deps), "mail_queue.requeue_failed");
    job(ctx, runCampaignCron(deps), "campaign.cron_failed");
    job(ctx, pruneRecords(deps), "housekeeping.failed");
    job(ctx, canonicalizeAddresses(deps), "addresses.canonicalize_failed");
    job(ctx, runRetention(deps), "retention.failed");
    job(ctx, runWebhookCron(deps), "webhooks.cron_failed");
  },
} satisfies ExportedHandler<Env>;
