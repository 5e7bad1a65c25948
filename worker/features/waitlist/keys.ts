import { canonicalMailbox, foldMailbox } from "../sign-in";
import { hmac, secretsEqual, signature } from "../../platform/crypto";
import { toHex } from "../../shared/hash";

/**
 * The journey's keyed hashes and signed values, all HMAC-SHA-256 with the server secret
 * (AUTH_JWT_SECRET) from the Web Crypto API, each under its own purpose label so that no value
 * made for one use can pass for another (worker/features/sign-in/secrets.ts does the same for sign-in).
 */

/** The journey's keyed hash: sign-in's HMAC (worker/features/sign-in/secrets.ts) under the journey's own purpose labels. */
async function keyedHash(secret: string, purpose: string, message: string): Promise<Uint8Array> {
  return new Uint8Array(await hmac(secret, purpose, message));
}

/**
 * The waitlist's name for the inbox an address reaches (case, Gmail dots, +tags and googlemail
 * folded as sign-in's caps fold them): a referral never counts between two entries with one key,
 * and the daily cap on confirmation e-mails counts per key. Never the address itself.
 */
export async function mailboxKey(secret: string, email: string): Promise<string> {
  return toHex(await keyedHash(secret, "waitlist-mailbox", canonicalMailbox(email)));
}

/**
 * The key an address stored before addresses were canonical (issue 22) was given: the address as
 * it was stored (NFC, lower-cased), folded without its canonical form first. Only the backfill of
 * those addresses uses it (worker/features/addresses/), to move what is keyed by it to the
 * address's key today.
 */
export async function formerMailboxKey(secret: string, storedEmail: string): Promise<string> {
  return toHex(await keyedHash(secret, "waitlist-mailbox", foldMailbox(storedEmail.toLowerCase())));
}

/**
 * The key of an erased friend's referral pairs (hwh_referral_credits' tombstones, worker/features/operator/queries/erasure.ts):
 * a keyed hash of the mailbox key under its own purpose, so that it is no mailbox key, cannot be
 * turned back into one or into the address, and yet a later join of the same inbox, whose
 * confirmation computes it again, finds the pair and credits that referrer nothing.
 */
export async function referralPairKey(secret: string, mailbox: string): Promise<string> {
  return toHex(await keyedHash(secret, "referral-pair", mailbox));
}

/**
 * An address's mailbox key (its canonical form today) and that key's referral pair key: what a
 * confirmation checks a referral's pair with, and what an erasure keeps the pair by.
 */
export async function mailboxKeys(secret: string, email: string): Promise<[mailbox: string, pair: string]> {
  const mailbox = await mailboxKey(secret, email);
  return [mailbox, await referralPairKey(secret, mailbox)];
}

/** The client network (a clientKey: IPv4 address or IPv6 /64) kept with a referred entry's confirmation. */
export async function networkKey(secret: string, network: string): Promise<string> {
  return toHex(await keyedHash(secret, "waitlist-network", network));
}

const CONFIRM_PURPOSE = "waitlist-confirm";
/**
 * `<entryId>.<expiresUnix>.<join>.<base64url HMAC>`: digits, digits, the 22 base64url characters
 * of the join whose referral the link may count (docs/api.md "The joiner's journey"), 43
 * base64url characters. A link of a join without a referral, and every link sent before
 * referrals were bound to their join, has no `<join>` part.
 */
const TOKEN_SHAPE = /^([1-9][0-9]{0,15})\.([1-9][0-9]{0,11})(?:\.([A-Za-z0-9_-]{22}))?\.([A-Za-z0-9_-]{43})$/;

/** A confirmation link's token for an entry, working until `expiresAt`, carrying `join` (the referral's join) when given. */
export async function signConfirmation(secret: string, entryId: number, expiresAt: Date, join: string | null = null): Promise<string> {
  const payload = [entryId, Math.floor(expiresAt.getTime() / 1000), ...(join ? [join] : [])].join(".");
  return `${payload}.${await signature(secret, CONFIRM_PURPOSE, payload)}`;
}

/** What a presented token is: its entry, expiry and join (null: none) when the signature is ours, otherwise null. */
export async function verifyConfirmation(
  secret: string,
  token: string,
): Promise<{ entryId: number; expiresUnix: number; join: string | null } | null> {
  const match = TOKEN_SHAPE.exec(token);
  if (!match) return null;
  const join = match[3] ?? null;
  // Compared as the one spelling this server writes (constant time): a token changed anywhere,
  // the last character's two spare bits included, is refused.
  const expected = await signature(secret, CONFIRM_PURPOSE, [match[1], match[2], ...(join ? [join] : [])].join("."));
  if (!(await secretsEqual(match[4]!, expected))) return null;
  return { entryId: Number(match[1]), expiresUnix: Number(match[2]), join };
}
