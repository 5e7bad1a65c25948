import { jwtVerify, SignJWT } from "jose";
import type { Context } from "hono";
import { deleteCookie } from "hono/cookie";
import type { CookieOptions } from "hono/utils/cookie";
import type { AuthConfig } from "../../platform/config/config";
import type { CounterCap } from "../../platform/db/counters";
import { hmac, randomToken } from "../../platform/crypto";
import { hourAndDay } from "./mailbox";
import { addressHash } from "./secrets";

/**
 * The signed-in device (issue 22): a code request from a device that has signed in as the exact
 * address is judged by that device's own caps, not the address's, so strangers who fill the
 * address's caps (five requests for `victim@…` in any spelling) never keep its owner out. Only
 * someone who read a code in the inbox gets such a device, so the inbox receives at most 5 an hour
 * and 20 a day more per device that has signed in (docs/api.md).
 *
 * The proof is a cookie set by a successful POST /verify: an HS256 JWT (jose) naming the address's
 * keyed hash (never the address) and a random device id, with an expiry. It is signed with a key
 * derived from AUTH_JWT_SECRET under a purpose of its own, so it can never pass for an access token
 * (nor one for it).
 */

export const DEVICE_COOKIE = "hwh_device";
export const DEVICE_DAYS = 180;
const DEVICE_SECONDS = DEVICE_DAYS * 24 * 60 * 60;
const AUDIENCE = "hwh-device";

/** The cookie's attributes: only the sign-in routes ever receive it, never script. */
export function deviceCookieOptions(isDevelopment: boolean): CookieOptions {
  return { httpOnly: true, sameSite: "Strict", path: "/auth/v1", secure: !isDevelopment, maxAge: DEVICE_SECONDS };
}

/**
 * Ends the device's proof on this browser (an erasure: the person is gone, so is their device's
 * allowance); a response from any path may clear it, as the cookie's path is named.
 */
export function forgetDevice(c: Context, isDevelopment: boolean): void {
  const { maxAge: _kept, ...options } = deviceCookieOptions(isDevelopment);
  deleteCookie(c, DEVICE_COOKIE, options);
}

async function deviceKey(secret: string): Promise<Uint8Array> {
  return new Uint8Array(await hmac(secret, "device-cookie", "key"));
}

/** The cookie's value after `email` signed in at `now`: a new device id for this address. */
export async function deviceToken(secret: string, email: string, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ device: randomToken() })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(await addressHash(secret, email))
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + DEVICE_SECONDS)
    .sign(await deviceKey(secret));
}

/**
 * The device id the cookie proves for the exact address `email` at `now`; null for no cookie, a
 * forged, altered or expired one, or one that names another address.
 */
export async function provenDevice(secret: string, email: string, token: string | undefined, now: Date): Promise<string | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, await deviceKey(secret), {
      algorithms: ["HS256"],
      audience: AUDIENCE,
      currentDate: now,
      requiredClaims: ["exp", "sub"],
    });
    if (typeof payload.device !== "string" || payload.sub !== (await addressHash(secret, email))) return null;
    return payload.device;
  } catch {
    return null;
  }
}

/** The caps of one device's requests for the exact address `email` (the hour's and the day's). */
export async function deviceCaps(
  secret: string,
  email: string,
  device: string,
  now: Date,
  limits: Pick<AuthConfig, "codeHourlyLimit" | "codeDailyLimit">,
): Promise<CounterCap[]> {
  return hourAndDay("code-device", `${await addressHash(secret, email)}:${device}`, now, limits);
}
