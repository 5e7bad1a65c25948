import type { Context, MiddlewareHandler } from "hono";
import type { RequestLimit } from "./config/config";
import type { CounterWindow } from "./db/counters";
import { unixSeconds } from "./db/sql";
import { clientAddress, clientKey } from "./http/client";
import type { PlatformDeps, PlatformEnv } from "./http/env";
import { describeError, log } from "./log";

/**
 * Per-client request limits: a fixed window counted in the database (one upsert per request),
 * so every isolate and every location shares the count. The key holds what is limited and the
 * client only, so one client reaching its limit never affects another's.
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
 * The one decision of every limit in the worker (public forms, operator routes, sign-in, the
 * notification cap): the `count`-th event of a window that ends at `windowEnd` (Unix seconds) is
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
      verdict = await countAgainst(c.get("deps"), limit, clientKey(clientAddress(c.req.raw.headers)));
    } catch (error) {
      log("error", "rate_limit.unavailable", { limit: limit.name, error: describeError(error) });
      throw errors.unavailable(error);
    }
    if (!verdict.allowed) throw errors.tooMany(verdict.retryAfterSeconds);
    await next();
  };
}
