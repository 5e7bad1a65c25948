import type { AuthConfig } from "../config";
import type { AuthRepository } from "../db/auth-repository";
import { AuthError } from "./errors";

export type LimitedRoute = "otp" | "verify" | "token";

/** The first second (Unix time) of the fixed window `now` falls in. */
export function windowStartOf(now: Date, windowSeconds: number): number {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return nowSeconds - (nowSeconds % windowSeconds);
}

/**
 * Per client IP and route, a fixed window counted in the database, so every isolate and every
 * location shares the count. The key holds the route and the IP only: one client reaching its
 * limit never affects another client's.
 */
export async function enforceRateLimit(
  repo: AuthRepository,
  limits: AuthConfig["rateLimit"],
  route: LimitedRoute,
  clientIp: string,
  now: Date,
): Promise<void> {
  const windowStart = windowStartOf(now, limits.windowSeconds);
  const count = await repo.countRequest(`${route}:${clientIp}`, windowStart);
  if (count > limits[route]) {
    const retryAfter = windowStart + limits.windowSeconds - Math.floor(now.getTime() / 1000);
    throw new AuthError(429, "over_request_rate_limit", `Request rate limit reached. Try again in ${retryAfter} seconds.`, {
      "Retry-After": String(retryAfter),
    });
  }
}
