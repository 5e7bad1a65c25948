import type { Context, MiddlewareHandler } from "hono";
import type { RequestLimit } from "../config";
import type { AppEnv, Deps } from "../deps";
import { describeError, log } from "../log";
import { clientAddress, clientKey } from "./client";

/**
 * Per-client request limits: a fixed window counted in the database (one upsert per request),
 * so every isolate and every location shares the count. The key holds what is limited and the
 * client only, so one client reaching its limit never affects another's.
 */

/** What is limited (a name for the counter's key), how many requests a client may make, and per how long. */
export type Limit = RequestLimit & { name: string };

/** The fixed window `now` falls in: its first second and its end (Unix time). */
export function windowOf(now: Date, windowSeconds: number): { start: number; end: number } {
  const seconds = Math.floor(now.getTime() / 1000);
  const start = seconds - (seconds % windowSeconds);
  return { start, end: start + windowSeconds };
}

/**
 * Counts one event for `key` against `limit`; resolves null while within it, else the seconds
 * until the window ends.
 */
export async function countAgainst(deps: Deps, limit: Limit, key: string): Promise<number | null> {
  const now = deps.now();
  const window = windowOf(now, limit.windowSeconds);
  const count = await deps.repo.countRequest(`${limit.name}:${key}`, window);
  return count > limit.max ? Math.max(1, window.end - Math.floor(now.getTime() / 1000)) : null;
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
export function limitPerClient(limitOf: (c: Context<AppEnv>) => Limit, errors: LimitErrors): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const limit = limitOf(c);
    let retryAfter: number | null;
    try {
      retryAfter = await countAgainst(c.get("deps"), limit, clientKey(clientAddress(c.req.raw.headers)));
    } catch (error) {
      log("error", "rate_limit.unavailable", { limit: limit.name, error: describeError(error) });
      throw errors.unavailable(error);
    }
    if (retryAfter !== null) throw errors.tooMany(retryAfter);
    await next();
  };
}
