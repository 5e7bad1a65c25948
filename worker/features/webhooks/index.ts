/**
 * Signed webhooks and Slack (issue 25; README "Webhooks and Slack"): the team's other tools hear of
 * sign-ups, confirmations, referrals, messages, finished campaigns and erasures.
 * - record.ts: the statements a change adds to its own batch to store its event and one delivery
 *   per endpoint that wants it (person.erased: per endpoint ever sent the person's data);
 *   hand-over.ts kicks the queue after the batch.
 * - consumer.ts: the queue's consumer claims due deliveries and sends them (deliver.ts: signed
 *   Standard Webhooks requests, slack.ts: Slack's short texts), recording each outcome and the
 *   retry schedule; cron.ts re-queues what is stuck.
 * - routes.ts: the operator API under /api/admin/webhooks (endpoints, secrets, tests, deliveries,
 *   dead letters); url-guard.ts refuses addresses the product must not call; secrets.ts encrypts.
 */
export { kickWebhooks } from "./hand-over";
export { isWebhookQueue } from "./queue";
export { consumeWebhookBatch } from "./consumer";
export { runWebhookCron } from "./cron";
export { webhookRoutes } from "./routes";
