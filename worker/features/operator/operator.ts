import type { MiddlewareHandler } from "hono";
import { ADMIN_KEY_OPERATOR, AuthError, authenticate, bearerToken, isAdminKey, requestOrigin } from "../sign-in";
import type { AppEnv, Deps } from "../../deps";
import { ApiError, tooManyRequests } from "../../platform/http/errors";
import { clientNetwork, limitFlood } from "../../platform/limits";
import { ADMIN_ERRORS } from "../../shared/admin";

/**
 * Who may use the operator API (docs/api.md "Operator API"):
 *
 * - `Authorization: Bearer <access token>` of a signed-in user whose address is in
 *   OPERATOR_EMAILS, checked at every request (removing an address revokes it at once); or
 * - `Authorization: Bearer <AUTH_ADMIN_KEY>` (a script), when a strong key is configured.
 *
 * No credentials or a token that is not valid: 401 not_signed_in; a valid token of anyone else:
 * 403 not_operator. The health check asks the same question (operatorOf) to decide how much it says.
 */

/** Who an operator is: the audit trail names them by address; log lines only by `id`. */
export type Operator = {
  /** The operator's address, or "admin-key" for a script: what the audit trail records. */
  name: string;
  /** The operator's user id, or "admin-key": what log lines carry (never an address). */
  id: string;
};

export type OperatorEnv = AppEnv & { Variables: { operator: Operator } };

/** Who the audit trail and the logs name for a script using the admin key (sign-in's name for it). */
export { ADMIN_KEY_OPERATOR };

export type OperatorCheck = { operator: Operator } | { refused: "notSignedIn" | "notOperator" };

/** Who sent the request's Authorization header, if an operator: the admin key first (no database call). */
export async function operatorOf(deps: Deps, request: Request): Promise<OperatorCheck> {
  const authorization = request.headers.get("Authorization") ?? undefined;
  const token = bearerToken(authorization);
  if (token === null) return { refused: "notSignedIn" };
  if (await isAdminKey(deps.config, token)) return { operator: { name: ADMIN_KEY_OPERATOR, id: ADMIN_KEY_OPERATOR } };
  let user: { id: string; email: string };
  try {
    user = (await authenticate(deps, requestOrigin(request), authorization)).user;
  } catch (error) {
    // Expired, signed out, forged: not signed in. The database failing is not the caller's fault.
    if (error instanceof AuthError && error.status < 500) return { refused: "notSignedIn" };
    throw error;
  }
  if (!deps.config.operatorEmails.has(user.email)) return { refused: "notOperator" };
  return { operator: { name: user.email, id: user.id } };
}

const notSignedIn = () =>
  new ApiError(
    401,
    ADMIN_ERRORS.notSignedIn,
    "Sign in with an operator's address, or send Authorization: Bearer <AUTH_ADMIN_KEY>.",
    {},
    { "WWW-Authenticate": 'Bearer realm="operator"' },
  );

/** Lets only an operator through, with who they are as `c.get("operator")`. */
export const operatorOnly: MiddlewareHandler<OperatorEnv> = async (c, next) => {
  const check = await operatorOf(c.get("deps"), c.req.raw);
  if ("refused" in check) {
    if (check.refused === "notSignedIn") throw notSignedIn();
    throw new ApiError(403, ADMIN_ERRORS.notOperator, "This account is not an operator of the site (OPERATOR_EMAILS).");
  }
  c.set("operator", check.operator);
  return next();
};

/**
 * Every request of a client network counts against OPERATOR_LIMITER first (wrangler.toml: 150 a
 * minute), with credentials or without; over it, 429 with the real wait. The binding costs the
 * database nothing, so the console, and GET /api/admin/joins above all, answers while the
 * database does not (README "Where each limit lives").
 */
export const operatorLimit: MiddlewareHandler<OperatorEnv> = limitFlood<OperatorEnv>(
  (c) => [{ limiter: "OPERATOR_LIMITER", key: clientNetwork(c.req.raw) }],
  (retryAfter) => tooManyRequests(retryAfter, `Too many requests. Try again in ${retryAfter} seconds.`),
);
