import type { Context, MiddlewareHandler } from "hono";
import type { RequestLimit } from "./config/config";
import type { CounterWindow } from "./db/counters";
import { unixSeconds } from "./db/sql";
import { clientAddress, clientKey } from "./http/client";
import type { PlatformDeps, PlatformEnv } from "./http/env";
import { describeError, log } from "./log";

/**
 * Per-client request limits, in two kinds (README "Where each limit lives"):
 * - flood limits of the public routes (the waitlist, the forms, /api/me's writes, /confirm and
 *   /parent) and of the operator API: on Cloudflare's Workers Rate Limiting bindings (wrangler.toml
 *   [[ratelimits]]), which cost the database nothing: a refused request writes nothing anywhere,
 *   and the console still answers while the database does not. Counted per Cloudflare location,
 *   approximately: flood control, not accounting (limitFlood below);
 * - strict limits (sign-in's codes and mailboxes): a fixed window counted in the database (one
 *   upsert per request), exact across isolates and locations (limitPerClient).
 * The key holds what is limited and the client only, so one client reaching its limit never
 * affects another's.
 */

/** What is limited (a name for the counter's key), how many requests a client may make, and per how long. */
export type Limit = RequestLimit & { name: string };

/** The fixed window `now` falls in: its first second and its end (Unix time). */
export function windowOf(now: Date, windowSeconds: number): CounterWindow {
  const seconds = unixSeconds(now);
  const start = seconds - (seconds % windowSeconds);
  return { start, end: start + windowSeconds };
}

/**
 * The one decision of every database-counted limit in the worker (sign-in, the notification cap): the `count`-th event of a window that ends at `windowEnd` (Unix seconds) is
 * allowed while it is at most `max`; otherwise the answer says how long to wait, in whole seconds
 * (at least 1), until that window ends. A `max` of 0 allows nothing.
 */
export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export function judge(count: number, max: number, windowEnd: number, now: Date): LimitVerdict {
  if (count <= max) return { allowed: true };
  return { allowed: false, retryAfterSeconds: secondsLeft(windowEnd, now) };
}

/** How long an event refused in a window that ends at `windowEnd` waits: whole seconds, at least 1. */
export function secondsLeft(windowEnd: number, now: Date): number {
  return Math.max(1, windowEnd - unixSeconds(now));
}

/** Several limits on one event: allowed when every one allows it, else the longest wait among those that refuse. */
export function judgeAll(verdicts: readonly LimitVerdict[]): LimitVerdict {
  const waits = verdicts.flatMap((verdict) => (verdict.allowed ? [] : [verdict.retryAfterSeconds]));
  return waits.length === 0 ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.max(...waits) };
}

/** Counts one event for `key` against `limit` (one upsert) and judges it. */
export async function countAgainst(deps: Pick<PlatformDeps, "now" | "repo">, limit: Limit, key: string): Promise<LimitVerdict> {
  const now = deps.now();
  const window = windowOf(now, limit.windowSeconds);
  const count = await deps.repo.counters.count(`${limit.name}:${key}`, window);
  return judge(count, limit.max, window.end, now);
}

/** What a route answers when its limit says no, or cannot say (each route's own errors). */
export type LimitErrors = {
  /** Over the allowance: the route's 429. */
  tooMany: (retryAfterSeconds: number) => Error;
  /** The counter could not be written: the route's own failure (the limit fails closed). */
  unavailable: (cause: unknown) => Error;
};

/**
 * Middleware: the request counts against the client's allowance (CF-Connecting-IP, IPv6 per
 * /64); over it, the route's 429 is thrown before anything is read or stored. When the counter
 * cannot be written the request is refused with the route's own failure: no limit, no service.
 */
export function limitPerClient<E extends PlatformEnv>(limitOf: (c: Context<E>) => Limit, errors: LimitErrors): MiddlewareHandler<E> {
  return async (c, next) => {
    const limit = limitOf(c);
    let verdict: LimitVerdict;
    try {
      verdict = await countAgainst(c.get("deps"), limit, clientNetwork(c.req.raw));
    } catch (error) {
      log("error", "rate_limit.unavailable", { limit: limit.name, error: describeError(error) });
      throw errors.unavailable(error);
    }
    if (!verdict.allowed) throw errors.tooMany(verdict.retryAfterSeconds);
    await next();
  };
}

/**
 * The rate-limit bindings (wrangler.toml [[ratelimits]]: the public routes' and the operator API's) and each one's period in
 * seconds, which the binding does not tell (it answers only {success}): a Retry-After needs it.
 * test/node/rate-limit-bindings.test.ts holds this list and wrangler.toml to each other.
 */
export const FLOOD_LIMITERS = {
  WAITLIST_LIMITER: 60,
  FORMS_LIMITER: 60,
  ME_CLIENT_LIMITER: 60,
  ME_USER_LIMITER: 60,
  CONFIRM_LIMITER: 60,
  OPERATOR_LIMITER: 60,
} as const satisfies Record<string, 10 | 60>;

export type FloodLimiterName = keyof typeof FLOOD_LIMITERS;

/** The bindings as a request's env may hold them: a deploy without one lacks it. */
export type FloodLimiterBindings = Partial<Record<FloodLimiterName, RateLimit>>;

/** One question to a binding: is `key` (the client's network, perhaps with what it uses) within its allowance. */
export type FloodCheck = { limiter: FloodLimiterName; key: string };

/**
 * How long a request refused in a window of `periodSeconds` waits: the binding counts fixed
 * windows aligned to the clock (the window of `now` is floor(now / period)), so the seconds to
 * the current window's end, at least 1.
 */
export function secondsToWindowEnd(now: Date, periodSeconds: number): number {
  return Math.max(1, periodSeconds - (unixSeconds(now) % periodSeconds));
}

/** The bindings of FLOOD_LIMITERS that `env` lacks (a deploy without them: /api/health names them). */
export function missingFloodLimiters(env: FloodLimiterBindings): FloodLimiterName[] {
  return (Object.keys(FLOOD_LIMITERS) as FloodLimiterName[]).filter((name) => typeof env[name]?.limit !== "function");
}

/**
 * Asks every binding of `checks` at once (each counts the request whatever the others say) and
 * judges: refused when any refuses, with the longest wait among those. The limits are flood
 * control and the database is not involved, so a binding that is missing (a deploy without it,
 * which /api/health names) or that fails lets the request through, logged `rate_limit.unavailable`.
 */
export async function checkFloodLimits(env: FloodLimiterBindings, checks: readonly FloodCheck[], now: Date): Promise<LimitVerdict> {
  const verdicts = await Promise.all(
    checks.map(async ({ limiter, key }): Promise<LimitVerdict> => {
      const binding = env[limiter];
      if (typeof binding?.limit !== "function") {
        log("error", "rate_limit.unavailable", { limiter, error: "the binding is missing (wrangler.toml [[ratelimits]])" });
        return { allowed: true };
      }
      try {
        const { success } = await binding.limit({ key });
        return success ? { allowed: true } : { allowed: false, retryAfterSeconds: secondsToWindowEnd(now, FLOOD_LIMITERS[limiter]) };
      } catch (error) {
        log("error", "rate_limit.unavailable", { limiter, error: describeError(error) });
        return { allowed: true };
      }
    }),
  );
  return judgeAll(verdicts);
}

/** The Hono env a flood limit reads: the bindings, and the deps' clock. */
export type FloodEnv = { Bindings: FloodLimiterBindings; Variables: { deps: Pick<PlatformDeps, "now"> } };

/**
 * Middleware: the request counts against the bindings of `checksOf` (keys built from the
 * client's network, clientNetwork); over any, `tooMany(wait)` is thrown before anything is read
 * or stored. Nothing is written to the database, refused or not.
 */
export function limitFlood<E extends FloodEnv>(
  checksOf: (c: Context<E>) => FloodCheck[],
  tooMany: (retryAfterSeconds: number) => Error,
): MiddlewareHandler<E> {
  return async (c, next) => {
    const verdict = await checkFloodLimits(c.env ?? {}, checksOf(c), c.get("deps").now());
    if (!verdict.allowed) throw tooMany(verdict.retryAfterSeconds);
    await next();
  };
}

/** The client's network of a request (CF-Connecting-IP: an IPv4 address or an IPv6 /64), the key of the per-client limits. */
export function clientNetwork(request: Request): string {
  return clientKey(clientAddress(request.headers));
}
