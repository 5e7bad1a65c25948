import type { Campaign, CampaignRecipient, WaitlistEntry } from "../../platform/db/schema";
import type { Deps } from "../../deps";
import { windowOf, judge } from "../../platform/limits";
import { describeError, log } from "../../platform/log";
import { type MailMessage, MailDeliveryError } from "../../platform/mail/transport";
import { renderCampaignEmail } from "./content";
import { ACK, type CampaignMessage, type Outcome } from "./messages";
import { unsubscribeHeaders, unsubscribeUrl } from "./unsubscribe/token";

/**
 * One recipient's send (docs/launch-day.md): the send rate first (over it, the message waits
 * without touching the row), then the claim (the only way to a send: a row already sent,
 * skipped, failed or held by a live claim, or a campaign not sending, sends nothing), the
 * entry and its suppression (read in the claim's batch), the provider call, and the mark by the
 * claim's holder. Every message carries the row's idempotency key for the one window left (the
 * provider accepted, the worker died before writing "sent", the lease lapsed).
 */

/** The send rate's counter (hwh_rate_limits), shared by every consumer invocation. */
const RATE_KEY = "campaign-send";

/** Retry backoff of a failed send: 30 s, doubling with each attempt, at most 15 minutes. */
export function sendBackoffSeconds(attempts: number): number {
  return Math.min(900, 30 * 2 ** Math.max(0, attempts - 1));
}

/** The idempotency key of one recipient's message: the same however often it is handed over. */
export const idempotencyKey = (campaignId: number, recipientId: number) => `campaign-${campaignId}-recipient-${recipientId}`;

/**
 * Counts this send against CAMPAIGN_SEND_RATE in the current second. Over it: how many seconds
 * to wait, spread by how far over (the n-th message over a rate of r per second waits n / r),
 * so a queue far ahead of the rate does not come back all in the next second.
 */
export async function rateWait(deps: Deps): Promise<number | null> {
  const now = deps.now();
  const window = windowOf(now, 1);
  const count = await deps.repo.counters.count(RATE_KEY, window);
  const rate = deps.config.campaigns.sendRatePerSecond;
  if (judge(count, rate, window.end, now).allowed) return null;
  return Math.min(300, Math.max(1, Math.ceil((count - rate) / rate)));
}

/**
 * Where the e-mail's links point without SITE_URL (only development runs without it: health
 * refuses production) when the message carries no origin either (a step the cron started):
 * where `npm start` listens.
 */
export const LOCAL_ORIGIN = "http://localhost:8787";

/** The campaign's e-mail to one entry: content, footer and unsubscribe link and headers, and the row's idempotency key. */
async function messageFor(
  deps: Deps,
  campaign: Campaign,
  entry: WaitlistEntry,
  recipient: CampaignRecipient,
  origin?: string,
): Promise<MailMessage> {
  const url = await unsubscribeUrl(deps, { campaignId: campaign.id, mailboxKey: entry.mailboxKey, origin: origin ?? LOCAL_ORIGIN });
  const { senderName, senderPostalAddress } = deps.config.campaigns;
  const email = renderCampaignEmail({
    subject: campaign.subject,
    body: campaign.body,
    senderName,
    senderPostalAddress,
    joinedAt: entry.createdAt,
    unsubscribeUrl: url,
  });
  return {
    receivers: [entry.email],
    ...email,
    headers: unsubscribeHeaders(url),
    idempotencyKey: idempotencyKey(campaign.id, recipient.id),
  };
}

/** A send message: at most one provider call, and only by the holder of the row's claim. */
export async function handleSend(deps: Deps, message: Extract<CampaignMessage, { type: "send" }>): Promise<Outcome> {
  const repo = deps.repo.campaignDelivery;
  const wait = await rateWait(deps);
  if (wait !== null) {
    // A fresh copy rather than a retry: waiting for the rate is no failure, and retries count
    // towards max_retries (a long campaign's messages would reach the dead-letter queue unsent).
    await deps.queues.campaigns.enqueue([message], wait);
    return ACK;
  }
  const claimed = await repo.claim(
    message.recipient_id,
    message.campaign_id,
    crypto.randomUUID(),
    deps.now(),
    deps.config.campaigns.lockMs,
  );
  if (!claimed) return ACK;
  const { recipient, campaign, entry, suppressed } = claimed;
  if (!entry) {
    await repo.markSkipped(recipient, "erased", deps.now());
    return ACK;
  }
  if (suppressed) {
    await repo.markSkipped(recipient, suppressed, deps.now());
    return ACK;
  }
  const context = { campaign_id: recipient.campaignId, recipient_id: recipient.id, attempt: recipient.attempts };
  try {
    const receipt = await deps.visitorTransport.send(await messageFor(deps, campaign, entry, recipient, message.origin));
    if (!(await repo.markSent(recipient, deps.now(), receipt.devMail))) log("warn", "campaign.claim_lost", context);
    return ACK;
  } catch (error) {
    const rejection = error instanceof MailDeliveryError ? error.rejection : null;
    if (rejection) {
      log("warn", "campaign.rejected", { ...context, rejection });
      await repo.markRejected(recipient, entry.mailboxKey, rejection, describeError(error), deps.now());
      return ACK;
    }
    const delay = sendBackoffSeconds(recipient.attempts);
    log("error", "campaign.send_failed", { ...context, retry_in_seconds: delay, error: describeError(error) });
    await repo.markRetry(recipient, describeError(error), deps.now());
    return { retryAfterSeconds: delay };
  }
}

/** A send message the queue gave up on (max_retries): its row failed for good, until the console's retry. */
export async function handleDeadLetter(deps: Deps, message: CampaignMessage): Promise<Outcome> {
  if (message.type !== "send") {
    // An expand, start or requeue step that kept failing: the cron's backstop finds the campaign stalled.
    log("error", "campaign.step_dead_lettered", { type: message.type, campaign_id: message.campaign_id });
    return ACK;
  }
  await deps.repo.campaignDelivery.markDeadLettered(message.campaign_id, message.recipient_id, deps.now());
  log("error", "campaign.dead_lettered", { campaign_id: message.campaign_id, recipient_id: message.recipient_id });
  return ACK;
}
