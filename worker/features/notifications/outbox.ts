import type { AppConfig } from "../../platform/config/config";
import type { Deps } from "../../deps";
import type { FirstClaim, Notified } from "./queries";
import { judge, windowOf } from "../../platform/limits";
import { describeError, log } from "../../platform/log";
import { digestNotification, formNotification, waitlistNotification } from "./content";
import { nextAttemptAt, sendRecorded } from "../../platform/mail/outbox";
import type { MailMessage } from "../../platform/mail/transport";
import type { MailJob } from "../mail-queue/jobs";

/**
 * The notification outbox: every waitlist entry and form submission is stored with its
 * notification claimed (a random claim token and a lease, worker/repository.ts), and only
 * then notified, so a failed send loses nothing.
 *
 * - A new record's job goes to the mail queue after the response (worker/features/mail-queue),
 *   whose consumer sends it as a single e-mail while the hour's budget of single e-mails
 *   (NOTIFY_HOURLY_CAP, counted by the storing write) lasts. Past it, the record is released
 *   unsent and the next cron run sends it in a digest: a burst of 5,000 sign-ups gives the
 *   company about 60 e-mails plus a digest per cron run, not 5,000.
 * - A failed send records the error and the next attempt (platform/mail/outbox.ts): base x
 *   2^(attempt-1), at most NOTIFY_RETRY_MAX_SECONDS apart, and after NOTIFY_MAX_ATTEMPTS always
 *   that longest wait. A notification is never given up.
 * - The cron (runOutbox) claims what is due, re-queues singles while the budget lasts, and lists
 *   the rest in one digest e-mail, which marks every record it carries as sent when it is delivered.
 */

/** The counter of the hour's single notification e-mails (in the rate-limit table). */
const SINGLE_BUDGET_KEY = "notify:single";

/** The counter of this hour's single e-mails, for a write that stores a record to count against. */
function singleBudget(now: Date) {
  return { key: SINGLE_BUDGET_KEY, window: windowOf(now, 60 * 60) };
}

/**
 * How a route stores a new record: claimed for the sender, and counted against the hour's
 * single e-mails, in the same database call (FirstClaim).
 */
export function firstClaim(deps: Deps): FirstClaim {
  const now = deps.now();
  return { now, lockMs: deps.config.notify.lockMs, budget: singleBudget(now) };
}

/** Whether the `used`-th single e-mail of the hour is within the cap (a cap of 0 allows none). */
export const withinCap = (used: number, now: Date, config: AppConfig) =>
  judge(used, config.notify.hourlyCap, singleBudget(now).window.end, now).allowed;

/**
 * The single notification e-mail of a record, with the row's idempotency key (the same however
 * often the row is sent: a provider that honours it delivers it once).
 */
export function notificationMessage(item: Notified, config: AppConfig): MailMessage {
  const content = item.kind === "waitlist" ? waitlistNotification(item.record) : formNotification(item.record);
  const templateId = item.kind === "waitlist" ? config.mail.templates.waitlist : config.mail.templates.form;
  return { receivers: config.companyEmails, ...content, templateId, idempotencyKey: `notification-${item.kind}-${item.record.id}` };
}

/**
 * Sends one message for `items` (claimed by the caller) and records the outcome for each:
 * sent, or failed with its next attempt (platform/mail/outbox.ts). Resolves true when sent.
 */
function send(deps: Deps, items: Notified[], message: MailMessage): Promise<boolean> {
  const context = { records: items.length, transport: deps.transport.name };
  return sendRecorded(
    async () => message,
    async (ready) => {
      if (deps.config.companyEmails.length === 0) throw new Error("COMPANY_EMAIL is not set");
      return deps.transport.send(ready);
    },
    {
      // No log line on success: email_sent_at records it, and a line per delivery is a real share
      // of a request's cost. Failures are always logged.
      sent: (receipt) => deps.repo.notifications.markSent(items, deps.now(), receipt.devMail),
      async failed(error) {
        const now = deps.now();
        const failures = items.map((item) => ({
          item,
          error: describeError(error),
          nextAttemptAt: nextAttemptAt(item.record.notifyAttempts, now, deps.config.notify),
        }));
        log("error", "notification.failed", {
          ...context,
          kind: items[0]?.kind,
          id: items.length === 1 ? items[0]!.record.id : undefined,
          attempt: items[0]?.record.notifyAttempts,
          next_attempt_at: failures[0]?.nextAttemptAt.toISOString(),
          error: describeError(error),
        });
        await deps.repo.notifications.markFailed(failures);
      },
      notRecorded: (error) => log("error", "notification.not_recorded", { ...context, error: describeError(error) }),
    },
  );
}

export type OutboxReport = { queued: number; digested: number; failed: number };

/**
 * The cron trigger's share of the notifications (the mail queue re-queues the other outboxes:
 * worker/features/mail-queue/cron.ts): claims due notifications oldest first (up to
 * NOTIFY_DIGEST_SIZE), counts them against the hour's single e-mails in one upsert, hands those
 * within NOTIFY_HOURLY_CAP to the mail queue as single e-mails, and sends every other in one
 * digest e-mail (which marks each record it carries as sent when it is delivered).
 */
export async function runOutbox(deps: Deps): Promise<OutboxReport> {
  const { notify } = deps.config;
  const report: OutboxReport = { queued: 0, digested: 0, failed: 0 };
  const options = { now: deps.now(), lockMs: notify.lockMs };
  const entries = await deps.repo.notifications.claimDue("waitlist", { ...options, limit: notify.digestSize });
  const submissions = await deps.repo.notifications.claimDue("form", { ...options, limit: notify.digestSize - entries.length });
  const items = [
    ...entries.map((record): Notified => ({ kind: "waitlist", record })),
    ...submissions.map((record): Notified => ({ kind: "form", record })),
  ];
  if (items.length === 0) return report;

  // The hour's single e-mails: the whole run counted in one upsert, the i-th item the (first + i)-th.
  const budget = singleBudget(deps.now());
  const used = notify.hourlyCap === 0 ? null : await deps.repo.mailQueue.countMany(budget.key, budget.window, items.length);
  const singles: MailJob[] = [];
  const digest: Notified[] = [];
  items.forEach((item, i) => {
    const nth = used === null ? null : used - items.length + 1 + i;
    if (nth !== null && digest.length === 0 && withinCap(nth, deps.now(), deps.config))
      singles.push({ type: "notification", kind: item.kind, id: item.record.id, claim: item.record.notifyClaim ?? "", budgetUsed: nth });
    else digest.push(item);
  });
  if (singles.length > 0) {
    await deps.queues.mail.enqueue(singles);
    report.queued = singles.length;
  }
  if (digest.length > 0) {
    const content = digestNotification(digest, notify.hourlyCap);
    const ids = digest.map((item) => `${item.kind[0]}${item.record.id}`).join(".");
    const key = `notification-digest-${await digestKey(ids)}`;
    if (await send(deps, digest, { receivers: deps.config.companyEmails, ...content, idempotencyKey: key }))
      report.digested = digest.length;
    else report.failed += 1;
  }
  log(report.failed > 0 ? "warn" : "info", "notification.outbox_run", { ...report, transport: deps.transport.name });
  return report;
}

/** A digest's idempotency key: the hash of the records it carries (the same records, the same key). */
async function digestKey(ids: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(ids));
  return [...new Uint8Array(hash).slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
