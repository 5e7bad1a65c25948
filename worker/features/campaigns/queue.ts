import { createDeps, type Deps } from "../../deps";
import { describeError, log } from "../../platform/log";

/**
 * The campaign queue's messages (docs/launch-day.md): JSON with one `type`. The producer is
 * the CAMPAIGN_QUEUE binding (wrangler.toml); the consumer is handleCampaignQueue in this worker.
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

/** Hands messages to the campaign queue, SEND_BATCH at a time. */
export async function enqueue(env: Env, messages: CampaignMessage[], delaySeconds?: number): Promise<void> {
  for (let i = 0; i < messages.length; i += SEND_BATCH) {
    const batch = messages.slice(i, i + SEND_BATCH).map((body) => ({ body, contentType: "json" as const, delaySeconds }));
    await env.CAMPAIGN_QUEUE.sendBatch(batch);
  }
}

/** One send message per recipient row (with the origin of the step that wrote or found it). */
export function sendsFor(campaignId: number, recipientIds: readonly number[], origin?: string): CampaignMessage[] {
  return recipientIds.map((id) => ({ type: "send", campaign_id: campaignId, recipient_id: id, ...withOrigin(origin) }));
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

/** What the consumer does with one message once handled. */
export type Outcome = { ack: true } | { retryAfterSeconds: number };
export const ACK: Outcome = { ack: true };

type Handler = (deps: Deps, env: Env, message: CampaignMessage, attempts: number) => Promise<Outcome>;

/**
 * The consumer of both queues. Every message is handled on its own (at once, within the
 * batch) and acked or retried on its own, so one failure never redelivers the others; an
 * error that escapes a handler retries that message with the send backoff's first step. The
 * campaigns a batch touched are checked for their end ("sent") afterwards.
 */
export async function consumeCampaignBatch(
  batch: MessageBatch,
  env: Env,
  handle: Handler,
  finish: (deps: Deps, ids: number[]) => Promise<void>,
  deps: Deps = createDeps(env),
): Promise<void> {
  const touched = new Set<number>();
  await Promise.all(
    batch.messages.map(async (message) => {
      const body = readMessage(message.body);
      if (!body) {
        log("error", "campaign.bad_message", { queue: batch.queue, id: message.id });
        message.ack();
        return;
      }
      touched.add(body.campaign_id);
      try {
        const outcome = await handle(deps, env, body, message.attempts);
        if ("ack" in outcome) message.ack();
        else message.retry({ delaySeconds: outcome.retryAfterSeconds });
      } catch (error) {
        log("error", "campaign.message_failed", { type: body.type, campaign_id: body.campaign_id, error: describeError(error) });
        message.retry({ delaySeconds: 30 });
      }
    }),
  );
  try {
    await finish(deps, [...touched]);
  } catch (error) {
    // The cron checks again: a campaign left "sending" with nothing to send is ended there.
    log("error", "campaign.finish_check_failed", { error: describeError(error) });
  }
}
