import { secretsEqual, signature } from "../../../platform/crypto";
import type { Deps } from "../../../deps";

/**
 * The signed, per-recipient unsubscribe link of every campaign e-mail (docs/api.md "Campaign e-mail
 * and unsubscribing"): SITE_URL/unsubscribe?token=<campaignId>.<mailboxKey>.<base64url HMAC>,
 * HMAC-SHA-256 with the server secret under its own purpose label (worker/features/sign-in/secrets.ts), so
 * no other signed value of this server passes for one. It names the mailbox by its keyed hash
 * (worker/features/waitlist/keys.ts), never the address, and never expires: a link in an e-mail of last
 * year must still unsubscribe.
 */

const PURPOSE = "campaign-unsubscribe";
/** Where a campaign's links land (a page of the worker's own, wrangler.toml run_worker_first). */
export const UNSUBSCRIBE_PATH = "/unsubscribe";
/** `<campaignId>.<64 hex digits>.<43 base64url characters>`. */
const TOKEN_SHAPE = /^([1-9][0-9]{0,15})\.([0-9a-f]{64})\.([A-Za-z0-9_-]{43})$/;

/** The body a mail provider posts for a one-click unsubscribe (RFC 8058), and the headers that offer it. */
export const ONE_CLICK_BODY = "List-Unsubscribe=One-Click";

/** This token's signature of a payload (sign-in's HMAC under this purpose label). */
const sign = (secret: string, payload: string) => signature(secret, PURPOSE, payload);

/** A recipient's token: their mailbox key, signed with the campaign it came in. */
export async function signUnsubscribe(secret: string, campaignId: number, mailboxKey: string): Promise<string> {
  const payload = `${campaignId}.${mailboxKey}`;
  return `${payload}.${await sign(secret, payload)}`;
}

/** What a presented token names, when the signature is this server's; null for anything else. */
export async function verifyUnsubscribe(secret: string, token: string): Promise<{ campaignId: number; mailboxKey: string } | null> {
  const match = TOKEN_SHAPE.exec(token);
  if (!match) return null;
  // Compared as the one spelling this server writes, in constant time: a token changed anywhere,
  // the last character's spare bits included, is refused.
  if (!(await secretsEqual(match[3]!, await sign(secret, `${match[1]}.${match[2]}`)))) return null;
  return { campaignId: Number(match[1]), mailboxKey: match[2]! };
}

/** The link a recipient's e-mail carries; on SITE_URL, or on `origin` (the request's, locally) when it is unset. */
export async function unsubscribeUrl(deps: Deps, input: { campaignId: number; mailboxKey: string; origin: string }): Promise<string> {
  const token = await signUnsubscribe(deps.config.auth.jwtSecret, input.campaignId, input.mailboxKey);
  return `${deps.config.siteUrl || input.origin}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
}

/** RFC 2369 and RFC 8058: the link, and the statement that a POST of ONE_CLICK_BODY to it unsubscribes at once. */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": ONE_CLICK_BODY };
}

/**
 * An address as the unsubscribe page names it: "s•••••01@example.org" (the local part's first
 * letter, five bullets whatever its length, its last two characters when it is long enough to
 * keep some hidden, and the domain). Enough for the owner of two mailboxes to tell which one the
 * link stands for, not enough to read someone's address off a forwarded link.
 */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf("@");
  const local = at > 0 ? address.slice(0, at) : address;
  const domain = at > 0 ? address.slice(at) : "";
  const chars = [...local];
  const tail = chars.length >= 5 ? chars.slice(-2).join("") : "";
  return `${chars[0] ?? ""}•••••${tail}${domain}`;
}
