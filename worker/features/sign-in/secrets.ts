/**
 * The random values and digests of sign-in, all from the Web Crypto API (a CSPRNG and
 * HMAC/SHA-256); nothing here is hand-rolled cryptography.
 */

import { toHex } from "../../shared/hash";
import { hmac, toBase64Url } from "../../platform/crypto";

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
 * The refresh token that replaces `token` when it is used. Deriving it (rather than drawing it)
 * lets two requests racing with the same token both be given the same successor, while only
 * digests are stored: computing it needs the token itself and the server secret.
 */
export async function successorToken(secret: string, token: string): Promise<string> {
  return toBase64Url(await hmac(secret, "refresh-token", token));
}
