import type { Campaign } from "../../platform/db/schema";

/**
 * The campaign queue's messages (docs/launch-day.md): JSON with one `type`. The producer is
 * the CAMPAIGN_QUEUE binding (wrangler.toml), which Deps hands the engine as `deps.queues.campaigns`
 * (campaignQueue below); the consumer is worker/features/campaigns/consumer.ts in this worker.
 * - expand: write the campaign's next chunk of recipient rows and enqueue a send for each.
 * - send: one recipient (claimed before the provider call, so a redelivery never sends twice).
 * - start: a scheduled campaign's start (delayed; re-enqueued with the rest when early).
 * - requeue: walk the rows not yet settled after `after` (by id) in chunks, enqueueing a send
 *   for each: how resume, the cron's backstop and the dead letters' retry reach everyone.
 */
export type CampaignMessage = (
  | { type: "expand"; campaign_id: number }
  | { type: "send"; campaign_id: number; recipient_id: number }
  | { type: "start"; campaign_id: number }
  | { type: "requeue"; campaign_id: number; after: number }
) & {
  /**
   * The origin of the operator's request that set the campaign going, for the e-mails' links
   * when SITE_URL is unset (development only: production requires SITE_URL); passed on by
   * every step it leads to. Steps the cron starts have none (then worker/features/campaigns/send.ts LOCAL_ORIGIN).
   */
  origin?: string;
};

/** The dead-letter queue's name (wrangler.toml): its batches are handled as dead letters. */
export const DEAD_LETTER_QUEUE = "homework-helper-campaigns-dlq";

/** Rows per expansion step: one statement batch, well inside one invocation's time and subrequests. */
export const EXPAND_CHUNK = 5_000;

/** Rows per requeue step. */
export const REQUEUE_CHUNK = 1_000;

/** Messages per sendBatch call (Queues' limit per call). */
export const SEND_BATCH = 100;

/** The longest delay Queues allow (12 hours, in seconds). */
export const MAX_DELAY_SECONDS = 43_200;

/** The campaign queue as the engine uses it: messages handed over, each with the same delay. */
export type CampaignQueue = { enqueue(messages: CampaignMessage[], delaySeconds?: number): Promise<void> };

/** The producer binding as a CampaignQueue: messages go SEND_BATCH at a time. */
export function campaignQueue(binding: Queue<CampaignMessage>): CampaignQueue {
  return {
    async enqueue(messages, delaySeconds) {
      for (let i = 0; i < messages.length; i += SEND_BATCH) {
        await binding.sendBatch(messages.slice(i, i + SEND_BATCH).map((body) => ({ body, contentType: "json" as const, delaySeconds })));
      }
    },
  };
}

/** One send message per recipient row (with the origin of the step that wrote or found it). */
export function sendsFor(campaignId: number, recipientIds: readonly number[], origin?: string): CampaignMessage[] {
  return recipientIds.map((id) => ({ type: "send", campaign_id: campaignId, recipient_id: id, ...withOrigin(origin) }));
}

/** What a campaign going on needs enqueued: the walk over its unsettled rows, and its expansion when unfinished. */
export function continuation(campaign: Campaign, origin?: string): CampaignMessage[] {
  const messages: CampaignMessage[] = [{ type: "requeue", campaign_id: campaign.id, after: 0, ...withOrigin(origin) }];
  if (campaign.expandedAt === null) messages.push({ type: "expand", campaign_id: campaign.id, ...withOrigin(origin) });
  return messages;
}

/** The origin field, only when there is one (a message never says `"origin": null`). */
export const withOrigin = (origin: string | undefined) => (origin ? { origin } : {});

/** A message body as the consumer trusts it: anything else is acked and logged (a retry cannot mend it). */
export function readMessage(body: unknown): CampaignMessage | null {
  if (!body || typeof body !== "object") return null;
  const b = body as Record<string, unknown>;
  const id = (value: unknown) => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
  if (!id(b.campaign_id)) return null;
  if (b.origin !== undefined && (typeof b.origin !== "string" || !/^https?:\/\/[^\s/?#]+$/.test(b.origin))) return null;
  if (b.type === "send") return id(b.recipient_id) ? (b as CampaignMessage) : null;
  if (b.type === "requeue") return id(b.after) ? (b as CampaignMessage) : null;
  return b.type === "expand" || b.type === "start" ? (b as CampaignMessage) : null;
}

/** What the consumer does with one message once a step handled it. */
export type Outcome = { ack: true } | { retryAfterSeconds: number };
export const ACK: Outcome = { ack: true };
