import { MIN_JWT_SECRET_LENGTH, type AppConfig } from "../config";
import type { AuthUser } from "../db/schema";
import type { Repository } from "../db/repository";
import { describeError, log } from "../log";
import { signInCodeEmail } from "../mail/content";
import type { MailTransport } from "../mail/transport";
import { isEmailShaped, normalizeEmail } from "../shared/text";
import { signAccessToken, verifyAccessToken } from "./access-token";
import {
  AuthError,
  invalidCode,
  noAuthorization,
  sessionNotFound,
  userNotFound,
  validationFailed,
} from "./errors";
import { codeHash, randomCode, randomToken, secretsEqual, sha256Hex, successorToken } from "./secrets";
import { APP_METADATA, userJson, type UserJson } from "./user";

/**
 * What sign-in does, as plain functions of their inputs and a few dependencies; the routes in
 * worker/routes/auth.ts only parse requests and shape answers.
 */

export type AuthDeps = {
  repo: Repository;
  config: AppConfig;
  transport: MailTransport;
  now: () => Date;
};

/** Where a request came from: the issuer (this origin's /auth/v1) and the client. */
export type RequestOrigin = { issuer: string; ip: string | null; userAgent: string | null };

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
  if (secret.length < MIN_JWT_SECRET_LENGTH) {
    log("error", "auth.not_configured", { reason: `AUTH_JWT_SECRET must be at least ${MIN_JWT_SECRET_LENGTH} characters` });
    throw new AuthError(500, "unexpected_failure", "Sign-in is not configured on this server.");
  }
  return secret;
}

function readEmail(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw validationFailed("An email address is required.");
  const email = normalizeEmail(value);
  if (!isEmailShaped(email)) throw validationFailed("Unable to validate email address: invalid format");
  return email;
}

// ---------------------------------------------------------------------------------------------
// POST /otp

export type CodeRequest = { email: unknown; createUser: unknown; data: unknown };

/**
 * Issues a new code for the address (creating the user unless told not to) and e-mails it.
 * The code is stored before it is sent, so a code in an e-mail always works; if the e-mail
 * cannot be sent the code is withdrawn and the address may ask again at once.
 */
export async function requestCode(deps: AuthDeps, input: CodeRequest): Promise<void> {
  const { repo, config, now } = deps;
  const secret = jwtSecret(config);
  const email = readEmail(input.email);
  if (input.createUser !== undefined && typeof input.createUser !== "boolean") throw validationFailed("create_user must be true or false.");
  if (input.data !== undefined && input.data !== null && (typeof input.data !== "object" || Array.isArray(input.data))) {
    throw validationFailed("data must be an object.");
  }
  const at = now();

  let user: AuthUser | undefined;
  if (input.createUser === false) {
    user = await repo.auth.findUserByEmail(email);
    if (!user) throw new AuthError(422, "otp_disabled", "Signups not allowed for otp");
  } else {
    const userMetadata = (input.data as Record<string, unknown> | null | undefined) ?? {};
    user = await repo.auth.findOrCreateUser({ id: crypto.randomUUID(), email, userMetadata, now: at });
  }

  const { codeLength, codeTtlSeconds, codeCooldownSeconds } = config.auth;
  const code = randomCode(codeLength);
  const hash = await codeHash(secret, user.id, code);
  const stored = await repo.auth.storeCode({
    userId: user.id,
    codeHash: hash,
    now: at,
    expiresAt: new Date(at.getTime() + codeTtlSeconds * 1000),
    cooldownSeconds: codeCooldownSeconds,
  });
  if (!stored) {
    const sentAt = (await repo.auth.codeSentAt(user.id)) ?? at;
    const wait = Math.max(1, Math.ceil((sentAt.getTime() + codeCooldownSeconds * 1000 - at.getTime()) / 1000));
    throw new AuthError(429, "over_email_send_rate_limit", `For security purposes, you can only request this after ${wait} seconds.`, {
      "Retry-After": String(wait),
    });
  }

  const mail = signInCodeEmail({ code, validMinutes: Math.round(codeTtlSeconds / 60) });
  try {
    const receipt = await deps.transport.send({ receivers: [email], title: mail.title, bodyHtml: mail.bodyHtml });
    if (receipt.devMail) await repo.insertDevMail(receipt.devMail, at);
  } catch (error) {
    log("error", "auth.code_email_failed", { transport: deps.transport.name, error: describeError(error) });
    await repo.auth.withdrawCode(user.id, hash).catch((withdrawError: unknown) => {
      log("error", "auth.code_withdraw_failed", { error: describeError(withdrawError) });
    });
    throw new AuthError(500, "unexpected_failure", "The e-mail with your code could not be sent. Please try again in a moment.", {}, { cause: error });
  }
}

// ---------------------------------------------------------------------------------------------
// Sessions

async function sessionJson(
  deps: AuthDeps,
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
  return { access_token: token, token_type: "bearer", expires_in: ttl, expires_at: expiresAt, refresh_token: refreshToken, user: userJson(user) };
}

// ---------------------------------------------------------------------------------------------
// POST /verify

/**
 * Exchanges the address's live code for a session. A wrong code, an expired or used one and
 * an unknown address get the same answer after the same queries, so the answer says nothing
 * about whether the address has an account.
 */
export async function verifyCode(deps: AuthDeps, origin: RequestOrigin, input: { email: unknown; token: unknown }): Promise<SessionJson> {
  const { repo, config, now } = deps;
  const secret = jwtSecret(config);
  const email = readEmail(input.email);
  if (typeof input.token !== "string" || input.token.trim() === "") throw validationFailed("A verification code (token) is required.");
  const code = input.token.trim();
  const at = now();

  const user = await repo.auth.findUserByEmail(email);
  // An unknown address is checked against an id no code belongs to: same work, same answer.
  const userId = user?.id ?? crypto.randomUUID();
  const hash = await codeHash(secret, userId, code);
  const { codeMaxAttempts } = config.auth;
  const used = await repo.auth.consumeCode({ userId, codeHash: hash, now: at, maxAttempts: codeMaxAttempts });
  if (!used || !user) {
    await repo.auth.recordWrongCode({ userId, maxAttempts: codeMaxAttempts });
    throw invalidCode();
  }

  const refreshToken = randomToken();
  const session = { id: crypto.randomUUID(), userId: user.id, userAgent: origin.userAgent?.slice(0, 300) ?? null, ip: origin.ip };
  const signedIn = await repo.auth.createSession({ session, refreshTokenHash: await sha256Hex(refreshToken), now: at });
  return sessionJson(deps, secret, origin, signedIn, { id: session.id, createdAt: at.toISOString() }, refreshToken);
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
export async function refreshSession(deps: AuthDeps, origin: RequestOrigin, refreshToken: unknown): Promise<SessionJson> {
  const { repo, config, now } = deps;
  const secret = jwtSecret(config);
  if (typeof refreshToken !== "string" || refreshToken === "") throw validationFailed("A refresh_token is required.");
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

export function bearerToken(authorization: string | undefined): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) throw noAuthorization();
  return match[1]!;
}

/** The user and session of a valid, unexpired access token whose session still exists. */
export async function authenticate(deps: AuthDeps, origin: RequestOrigin, authorization: string | undefined) {
  const token = bearerToken(authorization);
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
export async function signOut(deps: AuthDeps, origin: RequestOrigin, authorization: string | undefined, scope: LogoutScope) {
  const { session, user } = await authenticate(deps, origin, authorization);
  const selection =
    scope === "local" ? { userId: user.id, only: session.id } : scope === "others" ? { userId: user.id, except: session.id } : { userId: user.id };
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
  const expected = config.auth.adminKey;
  const matches = await secretsEqual(given, expected);
  if (!expected || !matches) throw new AuthError(403, "not_admin", "User not allowed");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function adminGetUser(deps: AuthDeps, id: string): Promise<UserJson> {
  const user = UUID.test(id) ? await deps.repo.auth.findUserById(id.toLowerCase()) : undefined;
  if (!user) throw userNotFound(404);
  return userJson(user);
}

export async function adminDeleteUser(deps: AuthDeps, id: string): Promise<void> {
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

export async function adminListUsers(deps: AuthDeps, pagination: { page: number; perPage: number }) {
  const { users, total } = await deps.repo.auth.listUsers(pagination.page, pagination.perPage);
  return { users: users.map(userJson), total };
}
