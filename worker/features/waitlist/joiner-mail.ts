import type { Deps } from "../../deps";
import type { JoinerMail, WaitlistEntry } from "../../platform/db/schema";
import { describeError, log } from "../../platform/log";
import { confirmationToken } from "./tokens";
import { confirmationEmail, confirmLink, referralLink, welcomeEmail } from "./emails";
import { nextAttemptAt, sendRecorded } from "../../platform/mail/outbox";
import type { MailMessage } from "../../platform/mail/transport";

/**
 * The joiner-mail outbox (hwh_joiner_mail): each mail is stored in its join's batch, claimed
 * for the request that stored it, sent after the response, and, when that fails or never
 * happens, retried by the cron with the notifications' backoff (NOTIFY_RETRY_*). It goes to the
 * joiner only, never to the company. Its words are rendered when sent, from the entry as it is
 * then: the confirmation's token is fresh, the welcome's place current.
 */

/** The message of a claimed mail for its entry; null when there is nothing left to say (a confirmation of a confirmed entry). */
async function messageFor(deps: Deps, mail: JoinerMail, entry: WaitlistEntry): Promise<MailMessage | null> {
  const origin = deps.config.siteUrl || mail.origin;
  if (mail.kind === "confirm") {
    if (entry.confirmedAt !== null) return null;
    const link = confirmLink(origin, await confirmationToken(deps, entry.id, mail.referralJoin));
    const validDays = Math.max(1, Math.round(deps.config.waitlist.confirmTtlSeconds / 86_400));
    return { receivers: [entry.email], ...confirmationEmail({ link, validDays }) };
  }
  const place = await deps.repo.waitlist.placeOf(entry);
  if (place === null || !entry.referralCode) return null;
  const link = referralLink(origin, entry.referralCode);
  return { receivers: [entry.email], ...welcomeEmail({ place, link, boost: deps.config.waitlist.referralBoost }) };
}

/**
 * Sends one claimed mail and records the outcome (sent, or failed with its next attempt:
 * platform/mail/outbox.ts). Never throws: an outcome that could not be written is retried once
 * the lease lapses.
 */
export function deliverJoinerMail(deps: Deps, mail: JoinerMail, known?: WaitlistEntry | null): Promise<boolean> {
  const context = { kind: mail.kind, id: mail.id, transport: deps.visitorTransport.name };
  return sendRecorded(
    async () => {
      const entry = known ?? (await deps.repo.waitlist.entryById(mail.entryId));
      // Nothing to send (the entry left, or confirmed meanwhile): done, so the cron stops on it.
      return entry ? messageFor(deps, mail, entry) : null;
    },
    // To the joiner (a visitor), whatever the suppression list says: confirmations are not campaigns.
    (message) => deps.visitorTransport.send(message),
    {
      sent: (receipt) => deps.repo.waitlist.markMailSent(mail, deps.now(), receipt.devMail),
      async failed(error) {
        const next = nextAttemptAt(mail.attempts, deps.now(), deps.config.notify);
        log("error", "joiner_mail.failed", {
          ...context,
          attempt: mail.attempts,
          next_attempt_at: next.toISOString(),
          error: describeError(error),
        });
        await deps.repo.waitlist.markMailFailed(mail, describeError(error), next);
      },
      notRecorded: (error) => log("error", "joiner_mail.not_recorded", { ...context, error: describeError(error) }),
    },
  );
}

export type JoinerOutboxReport = { attempted: number; sent: number; failed: number };

/** The cron's share: claims due joiner mails (oldest first, NOTIFY batch size) and sends each. */
export async function runJoinerOutbox(deps: Deps): Promise<JoinerOutboxReport> {
  const { notify } = deps.config;
  const mails = await deps.repo.waitlist.claimDueMail({
    claim: crypto.randomUUID(),
    now: deps.now(),
    lockMs: notify.lockMs,
    limit: notify.batchSize,
  });
  const entries = new Map(
    (await deps.repo.waitlist.entriesByIds([...new Set(mails.map((mail) => mail.entryId))])).map((entry) => [entry.id, entry]),
  );
  const report: JoinerOutboxReport = { attempted: mails.length, sent: 0, failed: 0 };
  for (const mail of mails) {
    if (await deliverJoinerMail(deps, mail, entries.get(mail.entryId) ?? null)) report.sent += 1;
    else report.failed += 1;
  }
  if (mails.length > 0)
    log(report.failed > 0 ? "warn" : "info", "joiner_mail.outbox_run", { ...report, transport: deps.visitorTransport.name });
  return report;
}
