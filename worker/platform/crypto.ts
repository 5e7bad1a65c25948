/**
 * The worker's cryptography, all from the Web Crypto API (a CSPRNG, HMAC-SHA-256, SHA-256):
 * nothing here is hand-rolled. One server secret (AUTH_JWT_SECRET) keys every HMAC, each use
 * under its own purpose label, so no value made for one use can pass for another.
 */

import { sha256 } from "../shared/hash";

const encoder = new TextEncoder();

/** Bytes as unpadded base64url (RFC 4648 §5): how every token of this worker spells its random values and signatures. */
export function toBase64Url(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = "";
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
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

/** Compares two secrets in time that does not depend on where they differ (or their lengths). */
export async function secretsEqual(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([sha256(given), sha256(expected)]);
  return crypto.subtle.timingSafeEqual(a, b);
}
