import type { MiddlewareHandler } from "hono";
import { AuthError, authenticate, requestOrigin } from "../sign-in";
import type { AuthSession, AuthUser } from "../../platform/db/schema";
import type { AppEnv } from "../../deps";
import { ApiError } from "../../platform/http/errors";
import { ME_ERRORS } from "../../shared/me";

/**
 * Who may use /api/me (worker/features/me/routes.ts): anyone signed in, with the access token sign-in gave
 * (`Authorization: Bearer <access token>`), checked at every request against the session it
 * names (sessions.ts authenticate), so a signed-out or erased session is refused at once. The
 * answer is about the token's own address only: no route takes an address to act on.
 */

/** The signed-in user and session; `requestBody`: a JSON body read by jsonBody (http/body.ts). */
export type MeEnv = AppEnv & { Variables: { user: AuthUser; session: AuthSession; requestBody?: Record<string, unknown> } };

/** 401 in the API's error shape: no token, or one that is expired, signed out, erased or forged. */
const notSignedIn = () =>
  new ApiError(
    401,
    ME_ERRORS.notSignedIn,
    "Sign in to see your place: send Authorization: Bearer <access token>.",
    {},
    { "WWW-Authenticate": 'Bearer realm="me"' },
  );

/** Lets a signed-in user through, as `c.get("user")` and `c.get("session")`. */
export const signedInOnly: MiddlewareHandler<MeEnv> = async (c, next) => {
  let found: { user: AuthUser; session: AuthSession };
  try {
    found = await authenticate(c.get("deps"), requestOrigin(c.req.raw), c.req.header("Authorization"));
  } catch (error) {
    // The server's own failure (no JWT secret: a 500) is not the caller's: it stays a failure.
    if (error instanceof AuthError && error.status < 500) throw notSignedIn();
    throw error;
  }
  c.set("user", found.user);
  c.set("session", found.session);
  return next();
};
