/**
 * The random values and digests of sign-in, all from the Web Crypto API (a CSPRNG and
 * HMAC/SHA-256); nothing here is hand-rolled cryptography.
 */

import { sha256, toHex } from "../../shared/hash";

export { sha256Hex } from "../../shared/hash";

const encoder = new TextEncoder();

/** Bytes as unpadded base64url (RFC 4648 §5): how every token of this worker spells its random values and signatures. */
export function toBase64Url(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = "";
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * A code of `length` decimal digits, uniformly distributed: random 32-bit values at or above
 * the largest multiple of 10^length are drawn again, so no code is likelier than another.
 */
export function randomCode(length: number): string {
  const range = 10 ** length;
  const limit = Math.floor(0x1_0000_0000 / range) * range;
  const value = new Uint32Array(1);
  do crypto.getRandomValues(value);
  while (value[0]! >= limit);
  return String(value[0]! % range).padStart(length, "0");
}

/** 32 random bytes, base64url: a refresh token. */
export function randomToken(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * HMAC-SHA-256 with the server secret. `purpose` separates the uses of the one secret, so a
 * code hash can never be mistaken for a derived refresh token or the other way round.
 */
export async function hmac(secret: string, purpose: string, message: string): Promise<ArrayBuffer> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return crypto.subtle.sign("HMAC", key, encoder.encode(`${purpose}\u0000${message}`));
}

/** The HMAC of `message` under `purpose`, spelled as the signature part of a token (base64url). */
export async function signature(secret: string, purpose: string, message: string): Promise<string> {
  return toBase64Url(await hmac(secret, purpose, message));
}

/**
 * How a sign-in code is stored. Keyed with the server secret because a 6-digit code has only a
 * million values: a plain hash in a leaked table would be reversed instantly; this one cannot be
 * without the secret. The user id binds the hash to one account.
 */
export async function codeHash(secret: string, userId: string, code: string): Promise<string> {
  return toHex(await hmac(secret, "sign-in-code", `${userId}:${code}`));
}

/**
 * How a mailbox is named in the counters table (the caps on code e-mails): keyed with the server
 * secret, so the table never holds an address, and a leaked table cannot be checked against a
 * list of addresses without the secret.
 */
export async function mailboxHash(secret: string, mailbox: string): Promise<string> {
  return toHex(await hmac(secret, "mailbox", mailbox));
}

/**
 * How an exact address is named in the counters of code requests that sent nothing (see
 * worker/features/sign-in/mailbox.ts): keyed with the server secret like the mailbox, under its own purpose.
 */
export async function addressHash(secret: string, email: string): Promise<string> {
  return toHex(await hmac(secret, "code-address", email));
}

/**
 * How the audit trail names the person an operator's action was about (an erasure): keyed with
 * the server secret, so the trail never holds the address, yet the same address always gives
 * the same hash (a later request about it can be matched to the record).
 */
export async function subjectHash(secret: string, email: string): Promise<string> {
  return toHex(await hmac(secret, "audit-subject", email));
}

/**
 * The refresh token that replaces `token` when it is used. Deriving it (rather than drawing it)
 * lets two requests racing with the same token both be given the same successor, while only
 * digests are stored: computing it needs the token itself and the server secret.
 */
export async function successorToken(secret: string, token: string): Promise<string> {
  return toBase64Url(await hmac(secret, "refresh-token", token));
}

/** Compares two secrets in time that does not depend on where they differ (or their lengths). */
export async function secretsEqual(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([sha256(given), sha256(expected)]);
  return crypto.subtle.timingSafeEqual(a, b);
}
