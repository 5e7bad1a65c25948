import type { Deps } from "../../deps";
import { windowOf } from "../../platform/limits";
import { newReferralCode } from "../referrals";
import { toBase64Url } from "../../platform/crypto";
import type { ConfirmWrite, MailCap, QueueMail, ReferralProof } from "./queries/journey";

/**
 * What the journey's rules (join.ts, confirm.ts, leave-resend.ts) hand its queries, made in one
 * place: a confirmation's write, the mailbox's daily cap on confirmation e-mails, a joiner mail
 * claimed for this request; and the retry of a confirmation that lost a unique value to another.
 */

/** Work to finish after the response (c.executionCtx.waitUntil); awaited when not given. */
export type Defer = (work: Promise<unknown>) => void;
export const run = async (work: Promise<unknown>, defer?: Defer) => (defer ? defer(work) : await work);

/**
 * A confirmation's write: a random claim (the winner's), a new code, the boost in force (and
 * whether minors get it: MINOR_REFERRAL_REWARDS), the
 * mailbox key with its referral pair key (keys.ts mailboxKeys), the network key, and which
 * referral it may count (ReferralProof).
 */
export function confirmWrite(
  deps: Deps,
  keys: [mailbox: string, pair: string],
  network: string | null,
  referral: ReferralProof,
): ConfirmWrite {
  const [mailboxKey, pairKey] = keys;
  const boost = deps.config.waitlist.referralBoost;
  const minorRewards = deps.config.waitlist.minorReferralRewards;
  return {
    claim: crypto.randomUUID(),
    at: deps.now(),
    referralCode: newReferralCode(),
    boost,
    minorRewards,
    mailboxKey,
    pairKey,
    network,
    referral,
  };
}

/** A join's own random value (16 bytes, base64url: 22 characters), kept with the referral it carries and carried by its link. */
export function newReferralJoin(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
}

/** The UTC day's counter of joiner e-mails (confirmations and welcomes) to one mailbox (keyed by its keyed hash, never the address). */
export function confirmCap(deps: Deps, key: string): MailCap {
  return { key: `waitlist-confirm-day:${key}`, window: windowOf(deps.now(), 86_400), max: deps.config.waitlist.confirmDailyLimit };
}

/** A joiner mail claimed for this request; its links use SITE_URL, or the request's origin when unset (locally). */
export function queueMail(deps: Deps, origin: string): QueueMail {
  return { claim: crypto.randomUUID(), now: deps.now(), lockMs: deps.config.notify.lockMs, origin: deps.config.siteUrl || origin };
}

/** Whether a database error is a unique index of a confirmation (seq or code): retried with new values. */
export function isConfirmConflict(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (/UNIQUE constraint failed: \w*waitlist\.(confirm_seq|referral_code)/.test(cause.message)) return true;
  }
  return false;
}

/** A unique conflict (two confirmations taking one seq, a code drawn twice) is retried with new values. */
const CONFIRM_TRIES = 5;
export async function withConfirmRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= CONFIRM_TRIES || !isConfirmConflict(error)) throw error;
    }
  }
}
