import type { AppConfig } from "../../platform/config/config";
import type { Deps } from "../../deps";
import type { FirstClaim, Notified } from "./queries";
import { judge, windowOf } from "../../platform/limits";
import { describeError, log } from "../../platform/log";
import { digestNotification, formNotification, waitlistNotification } from "./content";
import { nextAttemptAt, sendRecorded } from "../../platform/mail/outbox";
import type { MailMessage } from "../../platform/mail/transport";

/**
 * The notification outbox: every waitlist entry and form submission is stored with its
 * notification claimed (a random claim token and a lease, worker/repository.ts), and only
 * then notified, so a failed send loses nothing.
 *
 * - A new record is sent right after the response (deliverNew), as a single e-mail, while the
 *   hour's budget of single e-mails (NOTIFY_HOURLY_CAP) lasts. Past it, the record is released
 *   unsent and the next cron run sends it in a digest: a burst of 5,000 sign-ups gives the
 *   company about 60 e-mails plus a digest per cron run, not 5,000.
 * - A failed send records the error and the next attempt (platform/mail/outbox.ts): base x
 *   2^(attempt-1), at most NOTIFY_RETRY_MAX_SECONDS apart, and after NOTIFY_MAX_ATTEMPTS always
 *   that longest wait. A notification is never given up.
 * - The cron (runOutbox) claims what is due, sends singles while the budget lasts, and lists the
 *   rest in one digest e-mail, which marks every record it carries as sent when it is delivered.
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
const withinCap = (used: number, now: Date, config: AppConfig) =>
  judge(used, config.notify.hourlyCap, singleBudget(now).window.end, now).allowed;

/** Takes one single e-mail from this hour's budget; false once it is used up. */
async function takeSingle(deps: Deps): Promise<boolean> {
  if (deps.config.notify.hourlyCap === 0) return false;
  const budget = singleBudget(deps.now());
  return withinCap(await deps.repo.counters.count(budget.key, budget.window), deps.now(), deps.config);
}

function singleMessage(item: Notified, config: AppConfig): MailMessage {
  const content = item.kind === "waitlist" ? waitlistNotification(item.record) : formNotification(item.record);
  const templateId = item.kind === "waitlist" ? config.mail.templates.waitlist : config.mail.templates.form;
  return { receivers: config.companyEmails, ...content, templateId };
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

/**
 * The notification of a record just stored (claimed, and counted as the `budgetUsed`-th single
 * e-mail of the hour, by that write; null when the write counted nothing), sent after the
 * response: a single e-mail within the hour's cap, otherwise released for the next cron run's
 * digest. Never throws.
 */
export async function deliverNew(deps: Deps, item: Notified, budgetUsed: number | null): Promise<boolean> {
  if (budgetUsed !== null && !withinCap(budgetUsed, deps.now(), deps.config)) {
    try {
      await deps.repo.notifications.release(item);
    } catch (error) {
      // The record keeps its claim; the cron takes it up when the lease lapses.
      log("error", "notification.not_recorded", { transport: deps.transport.name, error: describeError(error) });
    }
    return false;
  }
  return send(deps, [item], singleMessage(item, deps.config));
}

export type OutboxReport = { attempted: number; sent: number; failed: number; digested: number };

/**
 * The cron trigger's work: claims due notifications oldest first, sends them one by one while
 * the hour's budget lasts, and once it is used up sends every other due one (up to
 * digestSize) in one digest e-mail.
 */
export async function runOutbox(deps: Deps): Promise<OutboxReport> {
  const { notify } = deps.config;
  const report: OutboxReport = { attempted: 0, sent: 0, failed: 0, digested: 0 };
  const claim = async (limit: number): Promise<Notified[]> => {
    const options = { now: deps.now(), lockMs: notify.lockMs };
    const entries = await deps.repo.notifications.claimDue("waitlist", { ...options, limit });
    const submissions = await deps.repo.notifications.claimDue("form", { ...options, limit: limit - entries.length });
    return [
      ...entries.map((record): Notified => ({ kind: "waitlist", record })),
      ...submissions.map((record): Notified => ({ kind: "form", record })),
    ];
  };

  const overBudget: Notified[] = [];
  for (const item of await claim(notify.batchSize)) {
    if (overBudget.length > 0 || !(await takeSingle(deps))) {
      overBudget.push(item);
      continue;
    }
    report.attempted += 1;
    if (await send(deps, [item], singleMessage(item, deps.config))) report.sent += 1;
    else report.failed += 1;
  }

  if (overBudget.length > 0) {
    const digest = [...overBudget, ...(await claim(notify.digestSize - overBudget.length))];
    const content = digestNotification(digest, notify.hourlyCap);
    report.attempted += 1;
    if (await send(deps, digest, { receivers: deps.config.companyEmails, ...content })) report.digested = digest.length;
    else report.failed += 1;
  }
  log(report.failed > 0 ? "warn" : "info", "notification.outbox_run", { ...report, transport: deps.transport.name });
  return report;
}
