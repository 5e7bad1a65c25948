/**
 * Launch day's campaigns (docs/launch-day.md), as the rest of the worker uses them: the
 * operator's routes (mounted by the operator API under /api/admin/campaigns), the queue's
 * consumer and the cron's share. worker/index.ts mounts the preview page (preview-routes.ts) and
 * the unsubscribe link (unsubscribe/routes.ts) from their routes files. Consent to campaign
 * e-mail is the repository's `repo.consent` (queries/consent.ts), which a join, a confirmation
 * and My place write through Deps: importing this file from the waitlist would close a circle
 * (campaigns use the waitlist's mailbox key). Inside: actions.ts (the operator's),
 * consumer.ts (the queue's dispatch and "is it finished"), expand.ts and send.ts (its steps),
 * cron.ts, progress.ts, and unsubscribe/.
 */

export { campaignRoutes } from "./routes";
export { consumeCampaignBatch } from "./consumer";
export { runCampaignCron } from "./cron";
