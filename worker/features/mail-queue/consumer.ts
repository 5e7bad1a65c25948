import type { Deps } from "../../deps";
import { describeError, log } from "../../platform/log";
import { nextAttemptAt } from "../../platform/mail/outbox";
import type { MailMessage, MailTransport, SendReceipt } from "../../platform/mail/transport";
import { notificationMessage, type Notified, withinCap } from "../notifications";
import { parentMessage } from "../parents";
import { budgetDay, joinerMessage, VISITOR_MAIL_KEY } from "../waitlist";
import type { MailJob } from "./jobs";
import type { BatchClaim, MailRowKind, MailRowRef, RowOutcome } from "./queries";

/**
 * The mail queue's consumer (wrangler.toml `homework-helper-mail`; issue 24 §2; docs/api.md "How
 * e-mail leaves"). A batch of up to 100 jobs costs two database calls whatever its size:
 *
 * 1. ONE call claims every job's row (only while the row still holds the job's claim, or is free
 *    and due: its lease lapsed; unsent) with the batch's own claim and a fresh lease, reads what
 *    the messages need (the joiner mails' entries with a welcome's place), and takes the day's
 *    visitor e-mail budget (VISITOR_EMAIL_DAILY_BUDGET) for all its joiner mails at once;
 * 2. the sends, concurrently (at most SEND_CONCURRENCY at a time), each with its row's
 *    idempotency key;
 * 3. ONE call records every outcome: sent (with the dev mailbox's copies), failed with its next
 *    attempt (platform/mail/outbox.ts nextAttemptAt), held past the visitor budget, or released
 *    past the hour's cap of single notifications (NOTIFY_HOURLY_CAP) for the cron's digest.
 *
 * A job whose row is sent, or claimed by the cron or another batch since, sends nothing: a
 * redelivered or duplicated job never sends twice. A batch whose database call fails is retried
 * by the queue (with a delay); a send whose outcome could not be recorded is taken up again once
 * its lease lapses, with the same idempotency key (at most once with a provider that honours it).
 */

/** How many sends of a batch are in flight at once. */
export const SEND_CONCURRENCY = 10;

/** What a batch did: rows it claimed, sent, failed, held (budget or cap), and its database calls. */
export type MailBatchReport = { claimed: number; sent: number; failed: number; held: number; calls: number };

const kindOf = (job: MailJob): MailRowKind => (job.type === "notification" ? job.kind : job.type);

/** A message of a claimed row, ready to send, or what to record without sending. */
type Planned =
  | { kind: MailRowKind; id: number; attempts: number; send: MailMessage; transport: MailTransport; budgeted: boolean }
  | { kind: MailRowKind; id: number; outcome: "sent" | "held" | "failed"; error?: string; attempts: number };

/** Runs `work` over `items`, at most `limit` at a time; resolves every result in order. */
async function bounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

/**
 * Sends a batch of jobs: claims and reads in one call, sends, records in one call. Throws only
 * when a database call fails (the queue then retries the batch).
 */
export async function deliverMailJobs(deps: Deps, jobs: readonly MailJob[]): Promise<MailBatchReport> {
  const report: MailBatchReport = { claimed: 0, sent: 0, failed: 0, held: 0, calls: 0 };
  if (jobs.length === 0) return report;
  const now = deps.now();
  const batch: BatchClaim = {
    claim: crypto.randomUUID(),
    now,
    lockMs: deps.config.notify.lockMs,
    budget: { key: VISITOR_MAIL_KEY, window: budgetDay(deps), max: deps.config.waitlist.visitorMailDailyBudget },
  };
  const refs: MailRowRef[] = jobs.map((job) => ({ kind: kindOf(job), id: job.id, claim: job.claim }));
  const claimed = await deps.repo.mailQueue.claimBatch(refs, batch);
  report.calls += 1;
  const budgetUsed = new Map<number, number | null>();
  for (const job of jobs) if (job.type === "notification") budgetUsed.set(job.kind === "waitlist" ? job.id : -job.id, job.budgetUsed);

  const planned: Planned[] = [];
  // The joiner mails, oldest first: the visitor budget this batch took goes to those with something to say.
  const entries = new Map(claimed.entries.map((entry) => [entry.id, entry]));
  let budget = claimed.budgetTaken;
  for (const mail of [...claimed.joiner].sort((a, b) => a.id - b.id)) {
    const entry = entries.get(mail.entryId);
    const base = { kind: "joiner" as const, id: mail.id, attempts: mail.attempts };
    try {
      const message = entry ? await joinerMessage(deps, mail, entry, entry.place) : null;
      if (!message) planned.push({ ...base, outcome: "sent" });
      else if (budget > 0) {
        budget -= 1;
        planned.push({ ...base, send: message, transport: deps.visitorTransport, budgeted: true });
      } else {
        log("warn", "joiner_mail.held", { kind: mail.kind, id: mail.id, budget: deps.config.waitlist.visitorMailDailyBudget });
        planned.push({ ...base, outcome: "held" });
      }
    } catch (error) {
      planned.push({ ...base, outcome: "failed", error: describeError(error) });
    }
  }
  const notified: Notified[] = [
    ...claimed.waitlist.map((record): Notified => ({ kind: "waitlist", record })),
    ...claimed.form.map((record): Notified => ({ kind: "form", record })),
  ];
  for (const item of notified) {
    const base = { kind: item.kind, id: item.record.id, attempts: item.record.notifyAttempts };
    const used = budgetUsed.get(item.kind === "waitlist" ? item.record.id : -item.record.id) ?? null;
    // Past the hour's cap: released unsent, for the cron's digest.
    if (used !== null && !withinCap(used, now, deps.config)) planned.push({ ...base, outcome: "held" });
    else if (deps.config.companyEmails.length === 0)
      planned.push({ ...base, outcome: "failed", error: describeError(new Error("COMPANY_EMAIL is not set")) });
    else planned.push({ ...base, send: notificationMessage(item, deps.config), transport: deps.transport, budgeted: false });
  }
  for (const request of claimed.parent) {
    const base = { kind: "parent" as const, id: request.id, attempts: request.attempts };
    try {
      const message = await parentMessage(deps, request);
      planned.push(message ? { ...base, send: message, transport: deps.visitorTransport, budgeted: false } : { ...base, outcome: "sent" });
    } catch (error) {
      planned.push({ ...base, outcome: "failed", error: describeError(error) });
    }
  }
  report.claimed = planned.length;

  const outcomes = await bounded(
    planned,
    SEND_CONCURRENCY,
    async (plan): Promise<RowOutcome & { sentNow?: boolean; budgeted?: boolean }> => {
      const failed = (error: string): RowOutcome => {
        const next = nextAttemptAt(plan.attempts, deps.now(), deps.config.notify);
        log("error", `${plan.kind === "joiner" ? "joiner_mail" : plan.kind === "parent" ? "parent_mail" : "notification"}.failed`, {
          kind: plan.kind,
          id: plan.id,
          attempt: plan.attempts,
          next_attempt_at: next.toISOString(),
          transport: transport.name,
          error,
        });
        return { kind: plan.kind, id: plan.id, outcome: "failed", error, nextAttemptAt: next };
      };
      const transport = plan.kind === "waitlist" || plan.kind === "form" ? deps.transport : deps.visitorTransport;
      if (!("send" in plan)) {
        if (plan.outcome === "failed") return failed(plan.error ?? "not composed");
        return { kind: plan.kind, id: plan.id, outcome: plan.outcome };
      }
      let receipt: SendReceipt;
      try {
        receipt = await plan.transport.send(plan.send);
      } catch (error) {
        return failed(describeError(error));
      }
      const devMail = receipt.devMail ? { devMail: receipt.devMail } : {};
      return { kind: plan.kind, id: plan.id, outcome: "sent", ...devMail, sentNow: true, budgeted: plan.budgeted };
    },
  );

  const budgetSpent = outcomes.filter((o) => o.outcome === "sent" && o.budgeted).length;
  await deps.repo.mailQueue.recordBatch(
    outcomes.map(({ sentNow: _sentNow, budgeted: _budgeted, ...outcome }) => outcome),
    { claim: batch.claim, now: deps.now(), giveBack: claimed.budgetTaken - budgetSpent, budget: batch.budget },
  );
  report.calls += 1;
  for (const o of outcomes) {
    if (o.outcome === "sent") report.sent += o.sentNow ? 1 : 0;
    else if (o.outcome === "failed") report.failed += 1;
    else report.held += 1;
  }
  return report;
}

/** The mail queue's and its dead-letter queue's names (wrangler.toml). */
export const MAIL_QUEUE_NAME = "homework-helper-mail";
export const MAIL_DEAD_LETTER_QUEUE = "homework-helper-mail-dlq";

/** Whether a queue batch is the mail queue's or its dead-letter queue's (worker/index.ts routes it here). */
export const isMailQueue = (queue: string) => queue === MAIL_QUEUE_NAME || queue === MAIL_DEAD_LETTER_QUEUE;

/** A message body as a MailJob, or null when it is none (acked and logged: it can never succeed). */
export function readJob(body: unknown): MailJob | null {
  if (typeof body !== "object" || body === null) return null;
  const job = body as Record<string, unknown>;
  if (!Number.isSafeInteger(job.id) || (job.id as number) <= 0 || typeof job.claim !== "string") return null;
  const { id, claim } = job as { id: number; claim: string };
  if (job.type === "joiner" || job.type === "parent") return { type: job.type, id, claim };
  if (job.type === "notification" && (job.kind === "waitlist" || job.kind === "form")) {
    const used = job.budgetUsed;
    if (used !== null && !Number.isSafeInteger(used)) return null;
    return { type: "notification", kind: job.kind, id, claim, budgetUsed: used as number | null };
  }
  return null;
}

/** The queue's delay before a batch whose database call failed is tried again: 10 s, doubling, at most 5 minutes. */
export const retryDelaySeconds = (attempts: number) => Math.min(10 * 2 ** Math.max(0, attempts - 1), 300);

/**
 * The worker's queue handler for the mail queue and its dead-letter queue. The mail queue's batch
 * is delivered whole (deliverMailJobs) and acked once its outcomes are recorded; when a database
 * call fails, every message is retried with a delay (after max_retries the queue moves it to the
 * dead-letter queue). The dead-letter queue's batch is recorded as dead letters in one call, for
 * the console's list and its "retry"; the rows stay unsent, so the cron re-queues them anyway.
 */
export async function consumeMailBatch(deps: Deps, batch: MessageBatch): Promise<MailBatchReport | null> {
  const jobs: MailJob[] = [];
  const messages: Message[] = [];
  for (const message of batch.messages) {
    const job = readJob(message.body);
    if (!job) {
      log("error", "mail_queue.bad_message", { queue: batch.queue, id: message.id });
      message.ack();
      continue;
    }
    jobs.push(job);
    messages.push(message);
  }
  const attempts = Math.max(1, ...messages.map((message) => message.attempts));
  try {
    if (batch.queue === MAIL_DEAD_LETTER_QUEUE) {
      const error = `Not recorded after the mail queue's retries (${attempts} deliveries): the database could not take the batch.`;
      await deps.repo.mailQueue.recordDeadLetters(
        jobs.map((job) => ({ kind: kindOf(job), id: job.id, error })),
        deps.now(),
      );
      log("error", "mail_queue.dead_lettered", { jobs: jobs.length });
      for (const message of messages) message.ack();
      return null;
    }
    const report = await deliverMailJobs(deps, jobs);
    for (const message of messages) message.ack();
    if (report.failed > 0 || report.held > 0) log("warn", "mail_queue.batch", { jobs: jobs.length, ...report });
    return report;
  } catch (error) {
    const delaySeconds = retryDelaySeconds(attempts);
    log("error", "mail_queue.batch_failed", {
      queue: batch.queue,
      jobs: jobs.length,
      attempts,
      delay_seconds: delaySeconds,
      error: describeError(error),
    });
    for (const message of messages) message.retry({ delaySeconds });
    return null;
  }
}
