import type { MiddlewareHandler } from "hono";
import { clientAddress, clientKey } from "../../platform/http/client";
import { tooManyRequests } from "../../platform/http/errors";
import { judge, judgeAll, windowOf } from "../../platform/limits";
import { tooManyAttempts } from "../../shared/public-forms";
import type { MeEnv } from "./signed-in";

/**
 * The limits of My place's writes and its data download (each writes: an entry, an e-mail, a
 * consent event, an audit record): every such request counts against the signed-in user's
 * allowance (ME_RATE_LIMIT_USER) and its client network's (ME_RATE_LIMIT_CLIENT: a class shares
 * one), in sign-in's window, in one database call. Over either, the API's 429 with the real wait
 * (the longer of the two), before anything is read or stored. A counter that cannot be written
 * fails the request (the API's 500): no limit, no service. Reading the place is not limited.
 */
export const meWriteLimit: MiddlewareHandler<MeEnv> = async (c, next) => {
  const deps = c.get("deps");
  const { user, client } = deps.config.meLimits;
  const now = deps.now();
  const counters = [
    { key: `me-user:${c.get("user").id}`, window: windowOf(now, user.windowSeconds), max: user.max },
    { key: `me-client:${clientKey(clientAddress(c.req.raw.headers))}`, window: windowOf(now, client.windowSeconds), max: client.max },
  ];
  const counts = await deps.repo.counters.countAll(counters);
  const verdict = judgeAll(counters.map((counter, i) => judge(counts[i]!, counter.max, counter.window.end, now)));
  if (!verdict.allowed) throw tooManyRequests(verdict.retryAfterSeconds, tooManyAttempts(verdict.retryAfterSeconds));
  await next();
};
