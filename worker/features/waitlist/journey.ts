import type { ConfirmWrite, MailCap, QueueMail } from "./queries/journey";
import { isConfirmConflict } from "./queries/journey";
import type { FirstClaim, JoinJourney, JoinResult } from "../../repository";
import type { WaitlistEntry } from "../../platform/db/schema";
import type { Deps } from "../../deps";
import { windowOf } from "../../platform/limits";
import { referralLink } from "./emails";
import { deliverJoinerMail } from "./joiner-mail";
import { deliverNew, firstClaim } from "../notifications/outbox";
import type { MeAnswer } from "../../shared/me";
import { mailboxKey, networkKey } from "./keys";
import { flagNetwork, newReferralCode } from "../referrals";
import { ConfirmTokenError, readConfirmationToken } from "./tokens";

export { ConfirmTokenError, type ConfirmTokenProblem, confirmationToken, readConfirmationToken } from "./tokens";

/**
 * The joiner's journey, the one home of its rules (the routes call these):
 * - a join stores, in its own batch, either a confirmation e-mail (double opt-in, within the
 *   mailbox's daily cap, re-sent on every re-join of an unconfirmed address) or, with
 *   WAITLIST_DOUBLE_OPT_IN=false, the confirmation itself and a welcome;
 * - a confirmation is one batch and idempotent: the first wins (a random claim), its referral
 *   counts once, never for the referrer's own mailbox;
 * - a place is two indexed counts (journey-repository.ts placeOf).
 */

/** Work to finish after the response (c.executionCtx.waitUntil); awaited when not given. */
export type Defer = (work: Promise<unknown>) => void;
const run = async (work: Promise<unknown>, defer?: Defer) => (defer ? defer(work) : await work);

/** A unique conflict (two confirmations taking one seq, a code drawn twice) is retried with new values. */
const CONFIRM_TRIES = 5;
async function withConfirmRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= CONFIRM_TRIES || !isConfirmConflict(error)) throw error;
    }
  }
}

function confirmWrite(deps: Deps, key: string, network: string | null): ConfirmWrite {
  const boost = deps.config.waitlist.referralBoost;
  return { claim: crypto.randomUUID(), at: deps.now(), referralCode: newReferralCode(), boost, mailboxKey: key, network };
}

/** The UTC day's counter of confirmation e-mails to one mailbox (keyed by its keyed hash, never the address). */
function confirmCap(deps: Deps, key: string): MailCap {
  return { key: `waitlist-confirm-day:${key}`, window: windowOf(deps.now(), 86_400), max: deps.config.waitlist.confirmDailyLimit };
}

/** A joiner mail claimed for this request; its links use SITE_URL, or the request's origin when unset (locally). */
function queueMail(deps: Deps, origin: string): QueueMail {
  return { claim: crypto.randomUUID(), now: deps.now(), lockMs: deps.config.notify.lockMs, origin: deps.config.siteUrl || origin };
}

/**
 * Joins with the journey: the spec's join (the repository's upsert, its notification claimed)
 * plus the joiner's mail, in one batch. `confirmAtOnce`: the address is known to be the
 * joiner's (sign-in) or double opt-in is off. Returns the join's result; the mail it queued is
 * sent by `afterJoin`.
 */
export async function joinWithJourney(
  deps: Deps,
  input: Parameters<Deps["repo"]["waitlist"]["join"]>[0] & { ref?: string | null },
  claim: FirstClaim,
  options: { origin: string; confirmAtOnce?: boolean; network?: string | null },
): Promise<JoinResult> {
  const key = await mailboxKey(deps.config.auth.jwtSecret, input.email);
  // A join confirmed at once keeps its request's network like a confirmation does (the operator's flag).
  const network = options.network ? await networkKey(deps.config.auth.jwtSecret, options.network) : null;
  const atOnce = options.confirmAtOnce ?? !deps.config.waitlist.doubleOptIn;
  const base = { mailboxKey: key, ref: input.ref ?? null, mail: queueMail(deps, options.origin) };
  const { result, confirm } = await withConfirmRetries(async () => {
    const confirm = atOnce ? confirmWrite(deps, key, network) : null;
    const journey: JoinJourney = confirm ? { ...base, kind: "welcome", confirm } : { ...base, kind: "confirm", cap: confirmCap(deps, key) };
    return { result: await deps.repo.waitlist.join(input, claim, journey), confirm };
  });
  // Joining again is consent again only when this join confirmed the entry itself (signing in
  // proved the address, or the operator turned double opt-in off): anyone can type a stranger's
  // address into the form, so a 409 duplicate or a join still waiting for its confirmation
  // leaves the suppression list alone (the confirmation, confirmEntry, renews it).
  if (confirm && result.current?.confirmClaim === confirm.claim)
    await deps.repo.consent.resubscribe({ mailboxKey: key, event: "rejoined", source: "join", now: deps.now() });
  return result;
}

/** After the response: the joiner mail the join queued (claimed by it), if any. */
export async function afterJoin(deps: Deps, result: JoinResult, defer?: Defer): Promise<void> {
  if (result.joinerMail) await run(deliverJoinerMail(deps, result.joinerMail, result.current), defer);
}

/**
 * Confirms the entry of a confirmation token. Opening the link never gets here (the page's
 * button posts). Throws ConfirmTokenError for an invalid, expired or unknown token, which change
 * nothing. `clientNetwork` is the confirming request's clientKey (IPv4, IPv6 /64), kept hashed
 * with a referred entry for the operator's flag.
 */
export async function confirmEntry(
  deps: Deps,
  token: string,
  clientNetwork: string | null,
): Promise<{ outcome: "confirmed" | "already"; entryId: number }> {
  const { entryId } = await readConfirmationToken(deps, token);
  const entry = await deps.repo.waitlist.entryById(entryId);
  if (!entry) throw new ConfirmTokenError("unknown");
  if (entry.confirmedAt !== null) return { outcome: "already", entryId };
  const secret = deps.config.auth.jwtSecret;
  const key = await mailboxKey(secret, entry.email);
  const network = clientNetwork ? await networkKey(secret, clientNetwork) : null;
  let write = confirmWrite(deps, key, network);
  const after = await withConfirmRetries(() => {
    write = confirmWrite(deps, key, network);
    return deps.repo.waitlist.confirm(entry, write);
  });
  if (!after) throw new ConfirmTokenError("unknown");
  const won = after.confirmClaim === write.claim;
  // Pressing the link's button proves the mailbox is the joiner's: consent renewed, off the suppression list.
  if (won) await deps.repo.consent.resubscribe({ mailboxKey: key, event: "rejoined", source: "confirm", now: deps.now() });
  if (won && after.referredBy && after.referralNetwork) await flagNetwork(deps, after.referredBy, after.referralNetwork);
  return { outcome: won ? "confirmed" : "already", entryId };
}

/** The journey part of GET /api/me's answer. */
export type Journey = Pick<
  MeAnswer,
  "status" | "position" | "referral_code" | "referral_link" | "referrals_pending" | "referrals_confirmed" | "joined_at" | "confirmed_at"
>;

/** Where an address stands: status, place, referral code and link, friends pending and confirmed, times, and its invitation. */
export async function journeyOf(deps: Deps, email: string, origin = ""): Promise<Journey & Pick<MeAnswer, "invited_at" | "invited_by">> {
  const entry = await deps.repo.waitlist.entryByEmail(email);
  const [journey, sent] = await Promise.all([
    journeyOfRecord(deps, entry, origin),
    entry?.invitedAt ? deps.repo.recipients.invitationOf(entry) : null,
  ]);
  const invited_by = sent ? { subject: sent.subject, sent_at: sent.sentAt } : null;
  return { ...journey, invited_at: entry?.invitedAt ?? null, invited_by };
}

async function journeyOfRecord(deps: Deps, entry: WaitlistEntry | null, origin: string): Promise<Journey> {
  if (!entry) {
    const none = { referral_code: null, referral_link: null, referrals_pending: 0, referrals_confirmed: 0 };
    return { status: "none", position: null, ...none, joined_at: null, confirmed_at: null };
  }
  const [position, pending] = await Promise.all([deps.repo.waitlist.placeOf(entry), deps.repo.referrals.pending(entry)]);
  const code = entry.confirmedAt ? entry.referralCode : null;
  return {
    status: entry.confirmedAt ? "confirmed" : "pending",
    position,
    referral_code: code,
    referral_link: code ? referralLink(deps.config.siteUrl || origin, code) : null,
    referrals_pending: pending,
    referrals_confirmed: entry.referralsConfirmed,
    joined_at: entry.createdAt,
    confirmed_at: entry.confirmedAt,
  };
}

/**
 * Joins a signed-in address with one click, confirmed at once (signing in proved the address),
 * or confirms its pending entry: the company is notified as for any join, the joiner gets the
 * welcome. "already": it was confirmed before.
 */
export async function joinConfirmed(
  deps: Deps,
  email: string,
  options: { origin?: string; defer?: Defer; network?: string | null } = {},
): Promise<"joined" | "already"> {
  const result = await joinWithJourney(deps, { email, source: "me" }, firstClaim(deps), {
    origin: options.origin ?? "",
    confirmAtOnce: true,
    network: options.network ?? null,
  });
  if (result.outcome === "joined" && result.claimed)
    await run(deliverNew(deps, { kind: "waitlist", record: result.entry }, result.budgetUsed), options.defer);
  await afterJoin(deps, result, options.defer);
  return result.joinerMail ? "joined" : "already";
}

/** Leaves the waitlist: the entry and its joiner mails are deleted. False when it was not on it. */
export function leaveWaitlist(deps: Deps, email: string): Promise<boolean> {
  return deps.repo.waitlist.leave(email);
}

/**
 * Sends the confirmation again (pending entries only), within the mailbox's daily cap:
 * {sent: false, retryAfterSeconds} over it (until the UTC day ends); {sent: false} when the
 * address is not pending.
 */
export async function resendConfirmation(
  deps: Deps,
  email: string,
  options: { origin?: string; defer?: Defer } = {},
): Promise<{ sent: boolean; retryAfterSeconds?: number }> {
  const entry = await deps.repo.waitlist.entryByEmail(email);
  if (!entry || entry.confirmedAt !== null) return { sent: false };
  const cap = confirmCap(deps, await mailboxKey(deps.config.auth.jwtSecret, email));
  const mail = await deps.repo.waitlist.queueConfirmation(email, cap, queueMail(deps, options.origin ?? ""));
  if (!mail) return { sent: false, retryAfterSeconds: Math.max(1, cap.window.end - Math.floor(deps.now().getTime() / 1000)) };
  await run(deliverJoinerMail(deps, mail, entry), options.defer);
  return { sent: true };
}
