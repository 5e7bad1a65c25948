import type { Deps } from "../../deps";
import { describeError, log } from "../../platform/log";
import type { MailJob } from "./jobs";

/**
 * What a request does after its answer: hands the jobs its one database call stored (rows claimed
 * for it) to the mail queue, with no database call of its own. Never throws: a job the queue
 * refused is logged, and its row, stored and claimed, is re-queued by the cron once the claim's
 * lease lapses (requeueDue), so nothing is lost.
 */
export async function handOver(deps: Pick<Deps, "queues">, jobs: readonly MailJob[]): Promise<void> {
  if (jobs.length === 0) return;
  try {
    await deps.queues.mail.enqueue(jobs);
  } catch (error) {
    log("error", "mail_queue.enqueue_failed", { jobs: jobs.length, error: describeError(error) });
  }
}
