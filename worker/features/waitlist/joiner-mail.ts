import type { Deps } from "../../deps";
import type { JoinerMail, WaitlistEntry } from "../../platform/db/schema";
import { describeError, log } from "../../platform/log";
import { confirmationToken } from "./tokens";
import { confirmationEmail, confirmLink, onBehalfWelcomeEmail, referralLink, welcomeEmail } from "./emails";
import { referralBoostOf } from "./boost";
import { nextAttemptAt, sendRecorded } from "../../platform/mail/outbox";
import type { MailMessage } from "../../platform/mail/transport";
import { windowOf } from "../../platform/limits";
import { VISITOR_MAIL_KEY } from "./queries/budget";

/**
 * The joiner-mail outbox (hwh_joiner_mail): each mail is stored in its join's batch, claimed
 * for the request that stored it, and its job handed to the mail queue after the response
 * (worker/features/mail-queue, which sends it: joinerMessage); when that fails or never
 * happens, the cron re-queues it with the notifications' backoff (NOTIFY_RETRY_*), within the
 * day's budget of visitor e-mail (VISITOR_EMAIL_DAILY_BUDGET: past it a mail waits, oldest
 * first, for a day with budget left). It goes to the joiner only, never to the company. Its
 * words are rendered when sent, from the entry as it is then: the confirmation's token is fresh
 * (carrying the join the mail was queued for), the welcome's place current.
 */

/**
 * The message of a claimed mail for its entry, with the welcome's place (`place`: the entry's
 * place as read with the mail, or undefined to read it now); null when there is nothing left to
 * say (a confirmation of a confirmed entry, a welcome of an entry no longer confirmed). Carries
 * the row's idempotency key, the same however often the row is sent.
 */
export async function joinerMessage(
  deps: Deps,
  mail: JoinerMail,
  entry: WaitlistEntry,
  place?: number | null,
): Promise<MailMessage | null> {
  const origin = deps.config.siteUrl || mail.origin;
  const idempotencyKey = `joiner-mail-${mail.id}`;
  if (mail.kind === "confirm") {
    if (entry.confirmedAt !== null) return null;
    const link = confirmLink(origin, await confirmationToken(deps, entry.id, mail.referralJoin));
    const validDays = Math.max(1, Math.round(deps.config.waitlist.confirmTtlSeconds / 86_400));
    return { receivers: [entry.email], ...confirmationEmail({ link, validDays }), idempotencyKey };
  }
  const at = place === undefined ? await deps.repo.waitlist.placeOf(entry) : place;
  if (at === null) return null;
  // A parent's entry on behalf of a child has no referral code: its welcome has no link.
  if (entry.onBehalfOfChild) return { receivers: [entry.email], ...onBehalfWelcomeEmail({ place: at }), idempotencyKey };
  if (!entry.referralCode) return null;
  const link = referralLink(origin, entry.referralCode);
  return { receivers: [entry.email], ...welcomeEmail({ place: at, link, boost: referralBoostOf(deps, entry) }), idempotencyKey };
}

/** The UTC day the visitor e-mail budget counts in. */
export const budgetDay = (deps: Deps) => windowOf(deps.now(), 86_400);

/**
 * Sends one claimed mail at once (a confirmation sent again from My place: leave-resend.ts),
 * within the day's visitor e-mail budget, and records the outcome (sent,
 * or failed with its next attempt: platform/mail/outbox.ts): past the budget the mail is held,
 * unsent, for the cron; a send the transport refused gives its share of the budget back.
 * Resolves what became of it; never throws: an outcome that could not be written is retried
 * once the lease lapses.
 */
export async function deliverJoinerMail(deps: Deps, mail: JoinerMail, known?: WaitlistEntry | null): Promise<"sent" | "held" | "not sent"> {
  const context = { kind: mail.kind, id: mail.id, transport: deps.visitorTransport.name };
  const day = budgetDay(deps);
  let held = false;
  const sent = await sendRecorded(
    async () => {
      const entry = known ?? (await deps.repo.waitlist.entryById(mail.entryId));
      // Nothing to send (the entry left, or confirmed meanwhile): done, so the cron stops on it.
      return entry ? joinerMessage(deps, mail, entry) : null;
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
        await deps.repo.counters.uncountAll([{ key: VISITOR_MAIL_KEY, window: day }]);
      },
      notRecorded: (error) => log("error", "joiner_mail.not_recorded", { ...context, error: describeError(error) }),
    },
    {
      admit: () => deps.repo.waitlist.takeVisitorMail(day, deps.config.waitlist.visitorMailDailyBudget),
      async held() {
        held = true;
        log("warn", "joiner_mail.held", { ...context, budget: deps.config.waitlist.visitorMailDailyBudget });
        await deps.repo.waitlist.holdMail(mail);
      },
    },
  );
  return sent ? "sent" : held ? "held" : "not sent";
}

/** The console's line on visitor e-mail (GET /api/admin/stats): the day's budget, what it has sent, what waits. */
export async function visitorMailOf(deps: Deps): Promise<{ budget: number; sentToday: number; waiting: number }> {
  return { budget: deps.config.waitlist.visitorMailDailyBudget, ...(await deps.repo.waitlist.visitorMailOf(budgetDay(deps))) };
}

/**
 * The cron's share (worker/features/mail-queue requeueDue): claims due joiner mails whose lease
 * lapsed, oldest first, as many as the batch size and the rest of the day's budget allow, and
 * hands their jobs to the mail queue (whose consumer sends them). How many it re-queued.
 */
export async function runJoinerOutbox(deps: Deps): Promise<{ queued: number }> {
  const { notify } = deps.config;
  const { sentToday } = await deps.repo.waitlist.visitorMailOf(budgetDay(deps));
  // Never negative: a budget lowered below what the day has sent claims nothing (not "no limit").
  const limit = Math.max(0, Math.min(notify.batchSize, deps.config.waitlist.visitorMailDailyBudget - sentToday));
  if (limit === 0) return { queued: 0 };
  const rows = await deps.repo.mailQueue.claimDue(
    { joiner: limit, parent: 0, waitlist: 0, form: 0 },
    { now: deps.now(), lockMs: notify.lockMs },
  );
  if (rows.length > 0) await deps.queues.mail.enqueue(rows.map((row) => ({ type: "joiner", id: row.id, claim: row.claim })));
  return { queued: rows.length };
}
