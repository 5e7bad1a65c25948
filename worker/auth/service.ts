import { MIN_JWT_SECRET_LENGTH, isWeakSecret, type AppConfig } from "../config";
import type { Deps } from "../deps";
import type { AuthUser } from "../db/schema";
import { describeError, log } from "../log";
import { signInCodeEmail } from "../mail/content";
import { signAccessToken, verifyAccessToken } from "./access-token";
import { adminKeyConfigured, bearerToken, isAdminKey } from "./bearer";
import { AuthError, invalidCode, noAuthorization, sessionNotFound, userNotFound, validationFailed } from "./errors";
import { clientAddress } from "../http/client";
import { judge, judgeAll } from "../http/rate-limit";
import { mailboxCaps } from "./mailbox";
import { codeHash, randomCode, randomToken, sha256Hex, successorToken } from "./secrets";
import { APP_METADATA, userJson, type UserJson } from "./user";
import { codeWaitMessage } from "../shared/sign-in";

/**
 * What sign-in does, as plain functions of validated input (worker/auth/schemas.ts) and the
 * worker's dependencies; the routes in worker/routes/auth.ts only parse requests and shape
 * answers.
 */

/** Where a request came from: the issuer (this origin's /auth/v1) and the client. */
export type RequestOrigin = { issuer: string; ip: string | null; userAgent: string | null };

/**
 * Where a request comes from: the issuer is this origin's /auth/v1, as in GoTrue; the client is
 * the address Cloudflare reports (clients cannot set CF-Connecting-IP through Cloudflare).
 */
export function requestOrigin(request: Request): RequestOrigin {
  return {
    issuer: `${new URL(request.url).origin}/auth/v1`,
    ip: clientAddress(request.headers),
    userAgent: request.headers.get("user-agent"),
  };
}

export type SessionJson = {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
};

/** The JWT secret, or a 500 that says what to configure (and a log line for the operator). */
export function jwtSecret(config: AppConfig): string {
  const secret = config.auth.jwtSecret;
  if (isWeakSecret(secret, MIN_JWT_SECRET_LENGTH)) {
    log("error", "auth.not_configured", {
      reason: `AUTH_JWT_SECRET must be a random value of at least ${MIN_JWT_SECRET_LENGTH} characters`,
    });
    throw new AuthError(500, "unexpected_failure", "Sign-in is not configured on this server.");
  }
  return secret;
}

// ---------------------------------------------------------------------------------------------
// POST /otp

export type CodeRequest = { email: string; createUser: boolean; data: Record<string, unknown> | null };

const tooManyCodes = (wait: number) =>
  new AuthError(429, "over_email_send_rate_limit", codeWaitMessage(wait), {
    "Retry-After": String(wait),
  });

/**
 * Issues a new code for the address and e-mails it. No user is created here: a user exists
 * only once a code sent to the address is verified, and `data` is kept with the code for that
 * moment. With create_user false an address without a user gets the same answer after the
 * same statements and the same work (its caps and cooldown count too, its code is hashed), but
 * no code is stored and nothing is e-mailed, so the answer never tells whether an address has an
 * account.
 *
 * Two rules decide whether a code may be sent, in this order:
 * 1. the caps of the mailbox (AUTH_CODE_HOURLY_LIMIT per clock hour, AUTH_CODE_DAILY_LIMIT per
 *    UTC day), counted in one call for both windows against a keyed hash of the inbox the
 *    address reaches (worker/auth/mailbox.ts), so `victim+1@…`, `victim+2@…` share one cap;
 *    over one, the answer says to come back when that window ends;
 * 2. the cooldown of the exact address (AUTH_CODE_COOLDOWN_SECONDS), decided by the upsert
 *    that stores the code, so concurrent requests store and send one code;
 * a request refused by either takes back its counts (best effort), so only codes that were
 * stored count against the caps.
 *
 * The code is stored before it is sent, so a code in an e-mail always works. With create_user
 * true the e-mail is sent before answering: if it cannot be sent the code is withdrawn, its
 * cooldown and counts given back, and the answer says so. With create_user false it is sent
 * after the answer has gone out (the time to answer would otherwise tell a known address from
 * an unknown one); if it fails, the code is cleared and nothing else: the cooldown and counts
 * stay, exactly as an unknown address's request leaves them, so retries cannot tell them apart.
 */
export async function requestCode(deps: Deps, input: CodeRequest, defer: (work: Promise<unknown>) => void): Promise<void> {
  const { repo, config, now } = deps;
  const secret = jwtSecret(config);
  const at = now();
  const sendsCode = input.createUser || (await repo.auth.findUserByEmail(input.email)) !== undefined;

  // Hashed on both paths, so an unknown address costs the same work as a known one.
  const code = randomCode(config.auth.codeLength);
  const hash = await codeHash(secret, input.email, code);

  const caps = await mailboxCaps(secret, input.email, at, config.auth);
  const counts = await repo.countRequests(caps);
  const giveBack = () =>
    repo.uncountRequests(caps).catch((error: unknown) => {
      log("error", "auth.code_caps_give_back_failed", { error: describeError(error) });
    });
  const verdict = judgeAll(caps.map((cap, index) => judge(counts[index]!, cap.max, cap.window.end, at)));
  if (!verdict.allowed) {
    await giveBack();
    throw tooManyCodes(verdict.retryAfterSeconds);
  }

  const stored = await repo.auth.storeCode({
    email: input.email,
    codeHash: sendsCode ? hash : null,
    userMetadata: input.createUser ? (input.data ?? {}) : null,
    now: at,
    expiresAt: new Date(at.getTime() + config.auth.codeTtlSeconds * 1000),
    cooldownSeconds: config.auth.codeCooldownSeconds,
  });
  if (!stored.stored) {
    await giveBack();
    throw tooManyCodes(stored.retryAfterSeconds);
  }
  if (!sendsCode) return;

  if (!input.createUser) {
    defer(sendAfterAnswer(deps, input.email, code, hash));
    return;
  }
  try {
    await sendCode(deps, input.email, code);
  } catch (error) {
    await Promise.all([
      repo.auth.withdrawCode(input.email, hash).catch((withdrawError: unknown) => {
        log("error", "auth.code_withdraw_failed", { error: describeError(withdrawError) });
      }),
      giveBack(),
    ]);
    const message =
      deps.transport.name === "unconfigured"
        ? "Sign-in e-mails are not configured on this server."
        : "The e-mail with your code could not be sent. Please try again in a moment.";
    throw new AuthError(500, "unexpected_failure", message, {}, { cause: error });
  }
}

/** E-mails a stored code (into the dev mailbox in development); throws when it cannot be sent. */
async function sendCode(deps: Deps, email: string, code: string): Promise<void> {
  const mail = signInCodeEmail({ code, validMinutes: Math.round(deps.config.auth.codeTtlSeconds / 60) });
  try {
    const receipt = await deps.transport.send({ receivers: [email], title: mail.title, bodyHtml: mail.bodyHtml });
    if (receipt.devMail) await deps.repo.insertDevMail(receipt.devMail, deps.now());
  } catch (error) {
    log("error", "auth.code_email_failed", { transport: deps.transport.name, error: describeError(error) });
    throw error;
  }
}

/**
 * The create_user:false send, run through waitUntil: it starts only after a macrotask, so the
 * answer (built in microtasks) has gone out before the e-mail is even begun. A failure clears
 * the code only (see requestCode) and is logged; it never rejects.
 */
async function sendAfterAnswer(deps: Deps, email: string, code: string, hash: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  try {
    await sendCode(deps, email, code);
  } catch {
    await deps.repo.auth.clearCode(email, hash).catch((error: unknown) => {
      log("error", "auth.code_clear_failed", { error: describeError(error) });
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Sessions

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
 * answer after the same single statement, so the answer says nothing about the address.
 */
export async function verifyCode(deps: Deps, origin: RequestOrigin, input: { email: string; token: string }): Promise<SessionJson> {
  const { repo, config, now } = deps;
  const secret = jwtSecret(config);
  const at = now();
  const used = await repo.auth.useCode({
    email: input.email,
    codeHash: await codeHash(secret, input.email, input.token),
    now: at,
    maxAttempts: config.auth.codeMaxAttempts,
  });
  if (!used) throw invalidCode();

  const refreshToken = randomToken();
  const session = { id: crypto.randomUUID(), userAgent: origin.userAgent?.slice(0, 300) ?? null, ip: origin.ip };
  const user = await repo.auth.signIn({
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

  const record = await repo.auth.findRefreshToken(await sha256Hex(refreshToken));
  if (!record) throw refreshTokenNotFound();
  const { token, session, user } = record;
  const successor = await successorToken(secret, refreshToken);
  const successorHash = await sha256Hex(successor);

  if (token.revokedAt === null) {
    await repo.auth.rotateRefreshToken({ tokenId: token.id, sessionId: session.id, successorHash, now: at });
    // The batch stores the successor only while the session exists (a logout may have won).
    if (!(await repo.auth.isLiveRefreshToken(successorHash))) throw refreshTokenNotFound();
  } else {
    const withinGrace = at.getTime() - new Date(token.revokedAt).getTime() <= config.auth.refreshReuseSeconds * 1000;
    const successorLive = token.replacedByHash === successorHash && (await repo.auth.isLiveRefreshToken(successorHash));
    if (!withinGrace || !successorLive) {
      await repo.auth.deleteSessions({ userId: user.id, only: session.id });
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
  const found = await deps.repo.auth.findSession(claims.sessionId);
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
  await deps.repo.auth.deleteSessions(selection);
}

// ---------------------------------------------------------------------------------------------
// Admin routes

/**
 * The admin routes need `Authorization: Bearer <AUTH_ADMIN_KEY>`. No bearer token is a 401;
 * a wrong one, or any token while no admin key is configured, is a 403.
 */
export async function requireAdmin(config: AppConfig, authorization: string | undefined): Promise<void> {
  const given = bearerToken(authorization);
  if (given === null) throw noAuthorization();
  if (await isAdminKey(config, given)) return;
  if (!adminKeyConfigured(config)) {
    throw new AuthError(403, "not_admin", "User not allowed: the admin API is not configured on this server (AUTH_ADMIN_KEY).");
  }
  throw new AuthError(403, "not_admin", "User not allowed");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function adminGetUser(deps: Deps, id: string): Promise<UserJson> {
  const user = UUID.test(id) ? await deps.repo.auth.findUserById(id.toLowerCase()) : undefined;
  if (!user) throw userNotFound(404);
  return userJson(user);
}

export async function adminDeleteUser(deps: Deps, id: string): Promise<void> {
  const deleted = UUID.test(id) ? await deps.repo.auth.deleteUser(id.toLowerCase()) : undefined;
  if (!deleted) throw userNotFound(404);
}

export const ADMIN_MAX_PER_PAGE = 1000;

export function readPagination(page: string | undefined, perPage: string | undefined): { page: number; perPage: number } {
  const parse = (raw: string | undefined, fallback: number, max: number, name: string) => {
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1 || value > max) throw validationFailed(`${name} must be a whole number from 1 to ${max}.`);
    return value;
  };
  return { page: parse(page, 1, 1_000_000, "page"), perPage: parse(perPage, 50, ADMIN_MAX_PER_PAGE, "per_page") };
}

export async function adminListUsers(deps: Deps, pagination: { page: number; perPage: number }) {
  const { users, total } = await deps.repo.auth.listUsers(pagination.page, pagination.perPage);
  return { users: users.map(userJson), total };
}
