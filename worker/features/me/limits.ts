import type { MiddlewareHandler } from "hono";
import { tooManyRequests } from "../../platform/http/errors";
import { clientNetwork, limitFlood } from "../../platform/limits";
import { tooManyAttempts } from "../../shared/public-forms";
import type { MeEnv } from "./signed-in";

/**
 * The limits of My place's writes and its data download (each writes: an entry, an e-mail, a
 * consent event, an audit record): every such request counts against the signed-in user's
 * allowance (ME_USER_LIMITER) and its client network's (ME_CLIENT_LIMITER: a class shares one),
 * on the rate-limit bindings of wrangler.toml (20 and 150 a minute), so counting writes nothing
 * to the database. Over either, the API's 429 with the real wait, before anything is read or
 * stored. Reading the place is not limited.
 */
export const meWriteLimit: MiddlewareHandler<MeEnv> = limitFlood<MeEnv>(
  (c) => [
    { limiter: "ME_USER_LIMITER", key: `user:${c.get("user").id}` },
    { limiter: "ME_CLIENT_LIMITER", key: clientNetwork(c.req.raw) },
  ],
  (wait) => tooManyRequests(wait, tooManyAttempts(wait)),
);
