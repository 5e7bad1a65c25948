import type { Deps } from "../../deps";
import { describeError, log } from "../../platform/log";
import { kickWebhooks } from "../webhooks";
import { handleExpand, handleRequeue, handleStart } from "./expand";
import { ACK, DEAD_LETTER_QUEUE, readMessage, type CampaignMessage, type Outcome } from "./messages";
import { handleDeadLetter, handleSend } from "./send";

/**
 * The consumer of the campaign queue and its dead-letter queue (docs/launch-day.md): the one
 * place that reads a message, hands it to its step (expand.ts, send.ts), acks or retries it by
 * the step's outcome, and decides when a campaign is finished. A step never enqueues work for
 * this module to come back to: it returns its outcome, and the campaigns a batch touched are
 * checked for their end afterwards.
 */

/** One message, by its queue and type (the dead-letter queue's are dead letters). */
function handle(deps: Deps, queue: string, message: CampaignMessage): Promise<Outcome> {
  if (queue === DEAD_LETTER_QUEUE) return handleDeadLetter(deps, message);
  switch (message.type) {
    case "send":
      return handleSend(deps, message);
    case "expand":
      return handleExpand(deps, message);
    case "start":
      return handleStart(deps, message);
    case "requeue":
      return handleRequeue(deps, message);
    default:
      return Promise.resolve(ACK);
  }
}

/**
 * Ends every campaign among `ids` that is finished: "sent" once its expansion is done (every
 * recipient row exists) and no row is queued or sending (repo finishIfDone, one conditional
 * update). A campaign whose expansion still runs is never finished, however settled its rows.
 */
export async function finishDone(deps: Deps, ids: number[]): Promise<void> {
  for (const id of ids) {
    const finished = await deps.repo.campaignDelivery.finishIfDone(id, deps.now());
    if (finished) log("info", "campaign.sent", { campaign_id: id, recipients: finished.audienceSize });
    // Its batch stored campaign.finished when some endpoint wants it.
    if (finished) await kickWebhooks(deps);
  }
}

/**
 * The worker's queue handler (worker/index.ts builds the deps). Every message is handled on its
 * own (at once, within the batch) and acked or retried on its own, so one failure never
 * redelivers the others; an error that escapes a step retries that message with the send
 * backoff's first step.
 */
export async function consumeCampaignBatch(deps: Deps, batch: MessageBatch): Promise<void> {
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
        const outcome = await handle(deps, batch.queue, body);
        if ("ack" in outcome) message.ack();
        else message.retry({ delaySeconds: outcome.retryAfterSeconds });
      } catch (error) {
        log("error", "campaign.message_failed", { type: body.type, campaign_id: body.campaign_id, error: describeError(error) });
        message.retry({ delaySeconds: 30 });
      }
    }),
  );
  try {
    await finishDone(deps, [...touched]);
  } catch (error) {
    // The cron checks again: a campaign left "sending" with nothing to send is ended there.
    log("error", "campaign.finish_check_failed", { error: describeError(error) });
  }
}
