import type { AppConfig } from "../config";
import type { NotificationKind, NotifiedRecord, Repository } from "../db/repository";
import type { FormSubmission, WaitlistEntry } from "../db/schema";
import { describeError, log } from "../log";
import { formNotification, waitlistNotification } from "./content";
import type { MailMessage, MailTransport } from "./transport";

/**
 * Sending the notification of a stored record. The record is always stored before this runs,
 * so a failed send loses nothing: the record stays undelivered with its error and a time for
 * the next attempt, and the cron trigger retries it with exponential backoff up to a cap.
 */
export type DeliveryDeps = {
  repo: Repository;
  transport: MailTransport;
  config: AppConfig;
  now: () => Date;
};

export function notificationMessage(
  kind: NotificationKind,
  record: WaitlistEntry | FormSubmission,
  config: AppConfig,
): MailMessage {
  const content =
    kind === "waitlist"
      ? waitlistNotification(record as WaitlistEntry)
      : formNotification(record as FormSubmission);
  return {
    receivers: config.companyEmails,
    ...content,
    templateId: kind === "waitlist" ? config.mail.templates.waitlist : config.mail.templates.form,
  };
}

/**
 * When to try again after `attempts` failed tries: base, 2x base, 4x base... capped at
 * retryMaxSeconds; null once the attempt cap is reached (the record is then left for a person,
 * or for a re-join of the same e-mail, which starts the attempts over).
 */
export function nextAttemptAt(attempts: number, now: Date, notify: AppConfig["notify"]): Date | null {
  if (attempts >= notify.maxAttempts) return null;
  const seconds = Math.min(notify.retryBaseSeconds * 2 ** Math.max(0, attempts - 1), notify.retryMaxSeconds);
  return new Date(now.getTime() + seconds * 1000);
}

/**
 * Sends the notification of a record the caller has claimed, and records the outcome.
 * Never throws: nobody waits on it (it runs after the response), and a record whose outcome
 * could not be written is retried by the cron once its claim lapses. Resolves true when sent.
 */
export async function deliverClaimed<K extends NotificationKind>(
  deps: DeliveryDeps,
  kind: K,
  record: NotifiedRecord<K>,
): Promise<boolean> {
  const context = { kind, id: record.id, transport: deps.transport.name, attempt: record.notifyAttempts };
  try {
    let receipt;
    try {
      if (deps.config.companyEmails.length === 0) throw new Error("COMPANY_EMAIL is not set");
      receipt = await deps.transport.send(notificationMessage(kind, record, deps.config));
    } catch (error) {
      const retryAt = nextAttemptAt(record.notifyAttempts, deps.now(), deps.config.notify);
      log("error", "notification.failed", {
        ...context,
        next_attempt_at: retryAt?.toISOString() ?? null,
        error: describeError(error),
      });
      await deps.repo.markNotificationFailed(kind, record, { error: describeError(error), nextAttemptAt: retryAt });
      return false;
    }
    // No log line on success: email_sent_at records it, and a line per delivery is a real share
    // of a request's cost. Failures are always logged.
    await deps.repo.markNotificationSent(kind, record.id, deps.now(), receipt.devMail);
    return true;
  } catch (error) {
    log("error", "notification.not_recorded", { ...context, error: describeError(error) });
    return false;
  }
}

export type RetryReport = { attempted: number; sent: number; failed: number };

/** The cron trigger's work: retries every due, undelivered notification, oldest first. */
export async function retryDueNotifications(deps: DeliveryDeps): Promise<RetryReport> {
  const report: RetryReport = { attempted: 0, sent: 0, failed: 0 };
  for (const kind of ["waitlist", "form"] as const) {
    const records = await deps.repo.claimDueNotifications(kind, {
      now: deps.now(),
      lockMs: deps.config.notify.lockMs,
      maxAttempts: deps.config.notify.maxAttempts,
      limit: deps.config.notify.batchSize,
    });
    for (const record of records) {
      report.attempted += 1;
      if (await deliverClaimed(deps, kind, record)) report.sent += 1;
      else report.failed += 1;
    }
  }
  log(report.failed > 0 ? "warn" : "info", "notification.retry_run", { ...report, transport: deps.transport.name });
  return report;
}
