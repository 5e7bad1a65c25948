import type { AuthConfig } from "../../platform/config/config";
import type { CounterCap } from "../../platform/db/counters";
import { windowOf } from "../../platform/limits";
import { addressHash, mailboxHash } from "./secrets";
import { canonicalEmail } from "../../shared/text";

/**
 * The caps on code e-mails (AUTH_CODE_HOURLY_LIMIT, AUTH_CODE_DAILY_LIMIT) count per exact
 * address, and the spellings of a mailbox that are not its own share one more pair of them, the
 * mailbox's ceiling: `victim+1@ex.org`, `victim+2@ex.org` and `v.i.c.t.i.m@gmail.com`'s variants
 * all land in one inbox, so together they get what one address gets. The mailbox's own spellings
 * (its plain address, an account's address, an operator's) are judged by their own caps only, so
 * requests for other spellings can never lock them out (worker/features/sign-in/codes.ts). The
 * 60-second cooldown is per exact address (worker/features/sign-in/queries/codes.ts, storeCode).
 */

const GMAIL_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * The inbox an address reaches, as far as the address itself tells: its canonical form
 * (worker/shared/text.ts: Unicode spellings of the domain and the local part are one), then
 * folded (foldMailbox). Only ever used as the input of a keyed hash. An address stored before
 * addresses were canonical is read as its canonical form, so its key is the one its spelling has
 * today.
 */
export function canonicalMailbox(email: string): string {
  return foldMailbox(canonicalEmail(email) ?? email.toLowerCase());
}

/**
 * The fold of a lower-cased address: the local part cut at the first "+" (sub-addressing), and for
 * Gmail (gmail.com, googlemail.com) without the dots Gmail ignores, under gmail.com. On its own
 * (without the canonical form first) it is the mailbox as it was read before issue 22, which the
 * backfill of stored addresses needs to find the keys it kept (worker/features/addresses/).
 */
export function foldMailbox(address: string): string {
  const at = address.lastIndexOf("@");
  if (at < 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus >= 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll(".", "");
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
}

type CapLimits = Pick<AuthConfig, "codeHourlyLimit" | "codeDailyLimit">;

export function hourAndDay(prefix: string, hash: string, now: Date, limits: CapLimits): CounterCap[] {
  return [
    { key: `${prefix}-hour:${hash}`, window: windowOf(now, 60 * 60), max: limits.codeHourlyLimit },
    { key: `${prefix}-day:${hash}`, window: windowOf(now, 24 * 60 * 60), max: limits.codeDailyLimit },
  ];
}

/**
 * The caps of the exact address `email` at `now`: the clock hour's and the UTC day's count of codes
 * e-mailed to it, keyed by the address's keyed hash (never the address).
 */
export async function addressCaps(secret: string, email: string, now: Date, limits: CapLimits): Promise<CounterCap[]> {
  return hourAndDay("code-sent", await addressHash(secret, email), now, limits);
}

/**
 * The ceiling of the mailbox `email` reaches at `now`: the clock hour's and the UTC day's count of
 * codes e-mailed to its spellings that are not its own (see above), keyed by the mailbox's keyed
 * hash (never the address).
 */
export async function mailboxCaps(secret: string, email: string, now: Date, limits: CapLimits): Promise<CounterCap[]> {
  return hourAndDay("code-mail", await mailboxHash(secret, canonicalMailbox(email)), now, limits);
}

/**
 * The counters of requests for the exact address `email` that e-mailed nothing (create_user
 * false for an address without a user), the hour's and the day's, keyed by the address's keyed
 * hash. They never hold back an e-mail; see worker/features/sign-in/codes.ts for how they are judged.
 */
export async function unsentCaps(secret: string, email: string, now: Date, limits: CapLimits): Promise<CounterCap[]> {
  return hourAndDay("code-unsent", await addressHash(secret, email), now, limits);
}
