import type { Deps } from "../../deps";
import { describeError, log } from "../../platform/log";

/**
 * What a write that may have stored an event does after its batch: asks the webhooks queue to send
 * what is due, with no database call of its own. Never throws: if the queue refuses, the event's
 * deliveries are stored and due, and the cron's kick (cron.ts) sends them within minutes.
 */
export async function kickWebhooks(deps: Pick<Deps, "queues">): Promise<void> {
  try {
    await deps.queues.webhooks.kick();
  } catch (error) {
    log("error", "webhooks.enqueue_failed", { error: describeError(error) });
  }
}
