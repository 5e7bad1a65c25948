import type { Deps } from "../../deps";
import { secretsEqual, signature } from "../../platform/crypto";
import { AGE_BANDS, type AgeBand } from "../../shared/age";

/**
 * The `hwh_age` cookie (docs/api.md "The age question"): the answer to the neutral age question
 * for 24 hours, so that a visitor cannot try another birth year until one lets them through (the
 * lock). It holds the band, whether a parent must decide, and its expiry, signed with the
 * worker's secret under its own purpose (never the birth month or year): `band.parent.expires.sig`.
 * HttpOnly, SameSite=Lax, Path=/, Secure outside development.
 */

export const AGE_COOKIE = "hwh_age";
/** How long an answer holds: 24 hours. */
export const AGE_COOKIE_SECONDS = 86_400;
/** The HMAC purpose of the cookie's signature: nothing signed for another use can pass for it. */
const PURPOSE = "age-cookie";

/** What the cookie holds: the band, whether a parent must decide, and when it stops holding. */
export type AgeAnswer = { band: AgeBand; parentNeeded: boolean; expires: Date };

const payloadOf = (answer: AgeAnswer) => `${answer.band}.${answer.parentNeeded ? 1 : 0}.${Math.floor(answer.expires.getTime() / 1000)}`;

/** The cookie's value for an answer. */
export async function signAgeAnswer(secret: string, answer: AgeAnswer): Promise<string> {
  const payload = payloadOf(answer);
  return `${payload}.${await signature(secret, PURPOSE, payload)}`;
}

/**
 * The answer a cookie's value holds, or null: not of the cookie's shape, not signed by this
 * server (the signature is checked first, so a changed band or expiry says nothing), or expired.
 */
export async function readAgeAnswer(secret: string, value: string | undefined, now: Date): Promise<AgeAnswer | null> {
  const match = /^([a-z0-9_]{1,16})\.([01])\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value ?? "");
  if (!match) return null;
  const [, band, parent, expires, given] = match as unknown as [string, string, string, string, string];
  const payload = `${band}.${parent}.${expires}`;
  if (!(await secretsEqual(given, await signature(secret, PURPOSE, payload)))) return null;
  if (!(AGE_BANDS as readonly string[]).includes(band)) return null;
  const until = new Date(Number(expires) * 1000);
  if (until.getTime() <= now.getTime()) return null;
  return { band: band as AgeBand, parentNeeded: parent === "1", expires: until };
}

/** The cookie's value from a Cookie header, or undefined. */
export function ageCookieOf(cookieHeader: string | null | undefined): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...rest] = part.split("=");
    if (name?.trim() === AGE_COOKIE) return rest.join("=").trim();
  }
  return undefined;
}

/** The Set-Cookie header that keeps an answer for AGE_COOKIE_SECONDS. */
export async function ageCookieHeader(deps: Pick<Deps, "config">, answer: AgeAnswer): Promise<string> {
  const value = await signAgeAnswer(deps.config.auth.jwtSecret, answer);
  const secure = deps.config.isDevelopment ? "" : "; Secure";
  return `${AGE_COOKIE}=${value}; Max-Age=${AGE_COOKIE_SECONDS}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}
