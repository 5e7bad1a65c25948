/**
 * The mail queue's messages (issue 24 §2; wrangler.toml MAIL_QUEUE): each names one stored
 * outbox row and the claim its writer holds on it, never an address or any other personal data.
 * A write stores the row claimed (its claim token and a lease) in the request's one database call;
 * after the answer the job is handed to the queue, and the consumer (consumer.ts) sends the row only
 * while that claim is still the row's, so a redelivered or duplicated job never sends twice.
 * - joiner: a confirmation or welcome (hwh_joiner_mail);
 * - notification: the team's notification of a waitlist entry or a form submission, with the
 *   hour's single e-mails counted so far by the write that stored it (null: not counted);
 * - parent: the e-mail asking a parent for consent (hwh_parental_requests).
 */
export type MailJob =
  | { type: "joiner"; id: number; claim: string }
  | { type: "notification"; kind: "waitlist" | "form"; id: number; claim: string; budgetUsed: number | null }
  | { type: "parent"; id: number; claim: string };

/** Messages per sendBatch call (Queues' limit per call). */
export const MAIL_SEND_BATCH = 100;

/** The mail queue as the features use it: jobs handed over, SEND_BATCH at a time. */
export type MailQueue = { enqueue(jobs: readonly MailJob[]): Promise<void> };

/** The producer binding as a MailQueue. */
export function mailQueue(binding: Queue): MailQueue {
  return {
    async enqueue(jobs) {
      for (let i = 0; i < jobs.length; i += MAIL_SEND_BATCH) {
        await binding.sendBatch(jobs.slice(i, i + MAIL_SEND_BATCH).map((body) => ({ body, contentType: "json" as const })));
      }
    },
  };
}
