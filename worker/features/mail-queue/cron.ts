import type { Deps } from "../../deps";
import { log } from "../../platform/log";
import { runOutbox } from "../notifications";
import { runParentOutbox } from "../parents";
import { runJoinerOutbox } from "../waitlist";

/**
 * The cron's backstop for the mail queue (worker/index.ts scheduled; issue 24 §2): nothing unsent
 * is lost. It sends nothing itself but the digest: it claims due unsent rows whose lease lapsed
 * (joiner mail, within what is left of the day's visitor budget; parental requests; the team's
 * notifications) and hands their jobs to the mail queue; notifications past the hour's cap of
 * single e-mails go in the one digest e-mail the cron sends (notifications' runOutbox).
 * Each share runs on its own: one failing (the queue refusing: the rows' leases lapse and the
 * next run tries again) never stops the others.
 */

export type RequeueReport = { joiner: number; parent: number; notifications: number; digested: number };

export async function requeueDue(deps: Deps): Promise<RequeueReport> {
  const [joiner, parent, notified] = await Promise.allSettled([runJoinerOutbox(deps), runParentOutbox(deps), runOutbox(deps)]);
  const report: RequeueReport = {
    joiner: joiner.status === "fulfilled" ? joiner.value.queued : 0,
    parent: parent.status === "fulfilled" ? parent.value.queued : 0,
    notifications: notified.status === "fulfilled" ? notified.value.queued : 0,
    digested: notified.status === "fulfilled" ? notified.value.digested : 0,
  };
  const failed = [joiner, parent, notified].flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
  if (report.joiner + report.parent + report.notifications + report.digested > 0) log("info", "mail_queue.requeued", report);
  if (failed.length > 0) throw new AggregateError(failed, "The cron could not re-queue every due e-mail.");
  return report;
}
