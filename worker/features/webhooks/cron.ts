import type { Deps } from "../../deps";
import { describeError, log } from "../../platform/log";
import { kickWebhooks } from "./hand-over";

/**
 * The webhooks' part of the cron (every 5 minutes; worker/index.ts): kicks the queue when a
 * delivery is due with no live lease (a lost or refused kick, a run that crashed: one read), forgets
 * rotated secrets whose overlap ended, and takes the address out of person.erased events once none
 * of their deliveries is pending (one call). Never throws: a failing part is logged, the rest runs.
 */
export async function runWebhookCron(deps: Deps): Promise<void> {
  const now = deps.now();
  try {
    if (await deps.repo.webhooks.anythingDue(now)) await kickWebhooks(deps);
  } catch (error) {
    log("error", "webhooks.cron_due_failed", { error: describeError(error) });
  }
  try {
    const tidied = await deps.repo.webhooks.tidy(now);
    if (tidied.secretsCleared > 0 || tidied.erasuresRedacted > 0) log("info", "webhooks.cron_tidied", { ...tidied });
  } catch (error) {
    log("error", "webhooks.cron_tidy_failed", { error: describeError(error) });
  }
}
