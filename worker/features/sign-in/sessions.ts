import type { AuthUser } from "../../platform/db/schema";
import type { Deps } from "../../deps";
import { log } from "../../platform/log";
import { signAccessToken, verifyAccessToken } from "./access-token";
import { bearerToken } from "./bearer";
import { AuthError, invalidCode, noAuthorization, sessionNotFound, userNotFound, validationFailed } from "./errors";
import { jwtSecret, type RequestOrigin } from "./request";
import { randomToken } from "../../platform/crypto";
import { sha256Hex } from "../../shared/hash";
import { codeHash, successorToken } from "./secrets";
import { APP_METADATA, userJson, type UserJson } from "./user";

/**
 * Sessions: a verified code starts one (POST /verify), a refresh token continues it (POST
 * /token), an access token proves it (GET /user) and ends it (POST /logout).
 */

export type SessionJson = {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
};

/** The session GoTrue answers with: a new access token, the refresh token and the user. */
async function sessionJson(
  deps: Deps,
  secret: string,
  origin: RequestOrigin,
  user: AuthUser,
  session: { id: string; createdAt: string },
  refreshToken: string,
): Promise<SessionJson> {
  const ttl = deps.config.auth.accessTokenTtlSeconds;
  const { token, expiresAt } = await signAccessToken(secret, {
    issuer: origin.issuer,
    userId: user.id,
    email: user.email,
    userMetadata: user.userMetadata,
    appMetadata: { ...APP_METADATA },
    sessionId: session.id,
    signedInAt: new Date(session.createdAt),
    now: deps.now(),
    ttlSeconds: ttl,
  });
  return {
    access_token: token,
    token_type: "bearer",
    expires_in: ttl,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

// ---------------------------------------------------------------------------------------------
// POST /verify

/**
 * Exchanges the address's live code for a session, creating the user on the first verified
 * code. A wrong, expired, used or worn-out code and an address that never asked get the same
 * answer, GoTrue's words alone, after the same one statement, so the answer says nothing about
 * the address: not whether it asked for a code, has an account or signed in. (It once said how
 * many tries were left at a live code, which told an observer that someone had just asked for
 * one there; the login page tells the visitor to check the newest e-mail or ask again instead.)
 */
export async function verifyCode(deps: Deps, origin: RequestOrigin, input: { email: string; token: string }): Promise<SessionJson> {
  const { repo, config, now } = deps;
  const secret = jwtSecret(config);
  const at = now();
  const used = await repo.signIn.useCode({
    email: input.email,
    codeHash: await codeHash(secret, input.email, input.token),
    now: at,
    maxAttempts: config.auth.codeMaxAttempts,
  });
  if (!used) throw invalidCode();

  const refreshToken = randomToken();
  const session = { id: crypto.randomUUID(), userAgent: origin.userAgent?.slice(0, 300) ?? null, ip: origin.ip };
  const user = await repo.signIn.signIn({
    candidate: { id: crypto.randomUUID(), email: input.email, userMetadata: used.userMetadata },
    session,
    refreshTokenHash: await sha256Hex(refreshToken),
    now: at,
  });
  return sessionJson(deps, secret, origin, user, { id: session.id, createdAt: at.toISOString() }, refreshToken);
}

// ---------------------------------------------------------------------------------------------
// POST /token?grant_type=refresh_token

const refreshTokenNotFound = () => new AuthError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");

/**
 * Rotates a refresh token. The live token is revoked and replaced by its successor. The token
 * just replaced, presented again within the grace window while its successor is still live,
 * gets that successor (two tabs refreshing at once). Any other use of a revoked token means it
 * was copied: the whole session ends.
 */
export async function refreshSession(deps: Deps, origin: RequestOrigin, refreshToken: string): Promise<SessionJson> {
  const { repo, config, now } = deps;
  const secret = jwtSecret(config);
  const at = now();

  const record = await repo.signIn.findRefreshToken(await sha256Hex(refreshToken));
  if (!record) throw refreshTokenNotFound();
  const { token, session, user } = record;
  const successor = await successorToken(secret, refreshToken);
  const successorHash = await sha256Hex(successor);

  if (token.revokedAt === null) {
    await repo.signIn.rotateRefreshToken({ tokenId: token.id, sessionId: session.id, successorHash, now: at });
    // The batch stores the successor only while the session exists (a logout may have won).
    if (!(await repo.signIn.isLiveRefreshToken(successorHash))) throw refreshTokenNotFound();
  } else {
    const withinGrace = at.getTime() - new Date(token.revokedAt).getTime() <= config.auth.refreshReuseSeconds * 1000;
    const successorLive = token.replacedByHash === successorHash && (await repo.signIn.isLiveRefreshToken(successorHash));
    if (!withinGrace || !successorLive) {
      await repo.signIn.deleteSessions({ userId: user.id, only: session.id });
      log("warn", "auth.refresh_token_reused", { session_id: session.id, user_id: user.id, revoked_at: token.revokedAt });
      throw new AuthError(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
    }
  }
  return sessionJson(deps, secret, origin, user, session, successor);
}

// ---------------------------------------------------------------------------------------------
// Bearer access tokens: GET /user, POST /logout

/** The user and session of a valid, unexpired access token whose session still exists. */
export async function authenticate(deps: Deps, origin: RequestOrigin, authorization: string | undefined) {
  const token = bearerToken(authorization);
  if (token === null) throw noAuthorization();
  const claims = await verifyAccessToken(jwtSecret(deps.config), token, { issuer: origin.issuer, now: deps.now() });
  const found = await deps.repo.signIn.findSession(claims.sessionId);
  if (!found) throw sessionNotFound();
  if (found.user.id !== claims.userId) throw userNotFound(403);
  return found;
}

export const LOGOUT_SCOPES = ["global", "local", "others"] as const;
export type LogoutScope = (typeof LOGOUT_SCOPES)[number];

export function readLogoutScope(value: string | undefined): LogoutScope {
  const scope = value ?? "global";
  if (!(LOGOUT_SCOPES as readonly string[]).includes(scope)) {
    throw validationFailed(`Unsupported logout scope "${scope.slice(0, 40)}": use global, local or others.`);
  }
  return scope as LogoutScope;
}

/** local: this session; global: every session of the user; others: every one but this. */
export async function signOut(deps: Deps, origin: RequestOrigin, authorization: string | undefined, scope: LogoutScope) {
  const { session, user } = await authenticate(deps, origin, authorization);
  const selection =
    scope === "local"
      ? { userId: user.id, only: session.id }
      : scope === "others"
        ? { userId: user.id, except: session.id }
        : { userId: user.id };
  await deps.repo.signIn.deleteSessions(selection);
}
