import type { Deps } from "../../deps";
import type { MailJob } from "./jobs";
import type { MailRowKind, MailRowRef } from "./queries";

/**
 * The mail queue's dead letters in the console (GET /api/admin/mail/dead-letters; POST
 * …/dead-letters/retry): jobs whose batch could not be recorded through the queue's retries. A
 * retry claims each still-unsent row afresh and hands its job to the mail queue again.
 */

export const MAIL_ROW_KINDS = ["joiner", "waitlist", "form", "parent"] as const satisfies readonly MailRowKind[];

export type MailDeadLetterView = { kind: MailRowKind; row_id: number; error: string; dead_lettered_at: string };

/** The list (newest first, at most `limit`) and the total. */
export async function mailDeadLetters(deps: Deps, limit = 200): Promise<{ total: number; items: MailDeadLetterView[] }> {
  const { total, items } = await deps.repo.mailQueue.deadLetters(limit);
  return {
    total,
    items: items.map((item) => ({ kind: item.kind, row_id: item.rowId, error: item.error, dead_lettered_at: item.deadLetteredAt })),
  };
}

const jobOf = (ref: MailRowRef): MailJob =>
  ref.kind === "waitlist" || ref.kind === "form"
    ? // Counted against no hour's cap: an operator's retry is sent as a single e-mail.
      { type: "notification", kind: ref.kind, id: ref.id, claim: ref.claim, budgetUsed: null }
    : { type: ref.kind, id: ref.id, claim: ref.claim };

/** Retries dead letters (all, or those named): re-queued; how many rows went back to the queue. */
export async function retryMailDeadLetters(deps: Deps, which: readonly { kind: MailRowKind; id: number }[] | "all"): Promise<number> {
  const refs = await deps.repo.mailQueue.retryDeadLetters(which, { now: deps.now(), lockMs: deps.config.notify.lockMs });
  if (refs.length > 0) await deps.queues.mail.enqueue(refs.map(jobOf));
  return refs.length;
}
