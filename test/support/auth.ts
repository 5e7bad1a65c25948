// Helpers for the sign-in tests: calls to /auth/v1 as auth-js makes them, codes from the dev mailbox, table checks.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { CounterCap } from "../../worker/platform/db/counters";
import { addressCaps, mailboxCaps, unsentCaps } from "../../worker/features/sign-in/mailbox";
import { call, testRepository, type EnvOverrides } from "./worker";

/** GoTrue answers' error shape. */
export type AuthErrorBody = { code: string; error_code: string; msg: string; message: string };

export type Session = {
  access_token: string;
  token_type: string;
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: { id: string; email: string; [key: string]: unknown };
};

/** A fresh client IP (IPv6 documentation range) per call, so one test's per-IP limits never meet another's. */
export function uniqueIp(): string {
  const hex = crypto.randomUUID().replace(/-/g, "");
  return `2001:db8:${hex.slice(0, 4)}:${hex.slice(4, 8)}:${hex.slice(8, 12)}:${hex.slice(12, 16)}::1`;
}

export type AuthCall = { ip?: string; token?: string; headers?: Record<string, string>; overrides?: EnvOverrides };

/** Calls /auth/v1 as auth-js does: JSON body, API version header, optional bearer token. */
export function authCall(method: string, path: string, body?: unknown, options: AuthCall = {}): Promise<Response> {
  const headers: Record<string, string> = {
    "X-Supabase-Api-Version": "2024-01-01",
    "CF-Connecting-IP": options.ip ?? uniqueIp(),
    ...options.headers,
  };
  if (body !== undefined) headers["Content-Type"] = "application/json;charset=UTF-8";
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  return call(`/auth/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, options.overrides);
}

export async function expectAuthError(response: Response, status: number, code: string): Promise<AuthErrorBody> {
  const body = (await response.json()) as AuthErrorBody;
  expect({ status: response.status, code: body.code }).toEqual({ status, code });
  expect(body.error_code).toBe(code);
  expect(body.msg).toBe(body.message);
  expect(body.message.length).toBeGreaterThan(0);
  expect(response.headers.get("X-Supabase-Api-Version")).toBe("2024-01-01");
  return body;
}

/** The newest sign-in code e-mailed to `email` (from the dev mailbox table). */
export async function latestCode(email: string): Promise<string> {
  const mails = await testRepository().devMail.list(200);
  const mail = mails.find((message) => message.receivers.includes(email) && /sign-in code/.test(message.title));
  const code = mail && /\b(\d{6})\b/.exec(mail.bodyHtml)?.[1];
  if (!code) throw new Error(`No sign-in code was e-mailed to ${email}.`);
  return code;
}

export async function requestCode(email: string, options: AuthCall = {}): Promise<string> {
  const response = await authCall("POST", "/otp", { email, create_user: true, data: {} }, options);
  expect(response.status, await response.clone().text()).toBe(200);
  return latestCode(email);
}

/** A code of the right shape that is not `code`. */
export const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

export function verify(email: string, token: string, options: AuthCall = {}): Promise<Response> {
  return authCall("POST", "/verify", { email, token, type: "email" }, options);
}

/** Requests a code and verifies it: a new session. */
export async function signIn(email: string, options: AuthCall = {}): Promise<Session> {
  const code = await requestCode(email, options);
  const response = await verify(email, code, options);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Session;
}

export function refresh(refreshToken: string, options: AuthCall = {}): Promise<Response> {
  return authCall("POST", "/token?grant_type=refresh_token", { refresh_token: refreshToken }, options);
}

export function getUser(accessToken: string, options: AuthCall = {}): Promise<Response> {
  return authCall("GET", "/user", undefined, { ...options, token: accessToken });
}

/** The JWT's payload, decoded without checking it (the tests check what the server checks). */
export function jwtPayload(token: string): Record<string, unknown> {
  const part = token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(atob(part)) as Record<string, unknown>;
}

export async function countAuthRows(
  table: "hwh_auth_users" | "hwh_auth_sessions" | "hwh_auth_refresh_tokens" | "hwh_auth_codes",
  where = "1 = 1",
  ...params: unknown[]
): Promise<number> {
  const row = await env.DB.prepare(`select count(*) as n from ${table} where ${where}`)
    .bind(...params)
    .first<{ n: number }>();
  return row!.n;
}

/** A row of hwh_auth_codes (one per address), as stored. */
export type CodeRow = {
  email: string;
  code_hash: string | null;
  user_metadata: string | null;
  sent_at: string;
  expires_at: string;
  attempts: number;
};

/** The code row of an address, or null when it has none. */
export function codeRow(email: string): Promise<CodeRow | null> {
  return env.DB.prepare("select * from hwh_auth_codes where email = ?").bind(email).first<CodeRow>();
}

/** The counts of a pair of counters (the hour's, the day's) in their current windows. */
async function hourAndDayCounts(caps: CounterCap[]): Promise<{ hour: number; day: number }> {
  const countOf = async (cap: CounterCap) => {
    const row = await env.DB.prepare("select window_start, count from hwh_rate_limits where key = ?")
      .bind(cap.key)
      .first<{ window_start: number; count: number }>();
    return row && row.window_start === cap.window.start ? row.count : 0;
  };
  return { hour: await countOf(caps[0]!), day: await countOf(caps[1]!) };
}

const NO_LIMITS = { codeHourlyLimit: 0, codeDailyLimit: 0 };

/**
 * The counts of code e-mails, this clock hour and this UTC day (now, as Date says), to the
 * spellings of the mailbox `email` reaches that are not its own (its ceiling): its counters in
 * hwh_rate_limits, found by the mailbox's keyed hash.
 */
export async function mailboxCounts(email: string): Promise<{ hour: number; day: number }> {
  return hourAndDayCounts(await mailboxCaps(env.AUTH_JWT_SECRET, email, new Date(), NO_LIMITS));
}

/** The counts of code e-mails to exactly `email`, this clock hour and this UTC day. */
export async function addressCounts(email: string): Promise<{ hour: number; day: number }> {
  return hourAndDayCounts(await addressCaps(env.AUTH_JWT_SECRET, email, new Date(), NO_LIMITS));
}

/** The counts of requests for exactly `email` that e-mailed nothing, this clock hour and this UTC day. */
export async function unsentCounts(email: string): Promise<{ hour: number; day: number }> {
  return hourAndDayCounts(await unsentCaps(env.AUTH_JWT_SECRET, email, new Date(), NO_LIMITS));
}

/** How many sign-in code e-mails the dev mailbox holds for `email`. */
export async function codeMailCount(email: string): Promise<number> {
  const row = await env.DB.prepare("select count(*) as n from hwh_dev_mailbox where receivers = ? and title like '%sign-in code%'")
    .bind(JSON.stringify([email]))
    .first<{ n: number }>();
  return row!.n;
}

/** The key per-client limits count a client under (worker/platform/http/client.ts): an IPv6 address counts as its /64. */
export function clientKeyOf(ip: string): string {
  if (!ip.includes(":")) return ip;
  const groups = ip.split("::")[0]!.split(":").slice(0, 4);
  return `${groups.map((group) => parseInt(group, 16).toString(16)).join(":")}::/64`;
}

/** The test worker's secrets, as vitest.config.ts binds them. */
export const ADMIN_KEY = env.AUTH_ADMIN_KEY;
export const JWT_SECRET = env.AUTH_JWT_SECRET;

const FAILING = Symbol("failing statement");

/**
 * The test D1 database, except that every statement naming `table` fails (in a batch too), as
 * when that table is missing or locked: for what happens when a counter cannot be written.
 */
export function databaseFailingOn(table: string): D1Database {
  const real = env.DB;
  const fail = () => Promise.reject(new Error(`D1_ERROR: ${table} cannot be written (simulated)`));
  const failing = (): D1PreparedStatement => {
    const statement: Record<string | symbol, unknown> = { [FAILING]: true, first: fail, all: fail, run: fail, raw: fail };
    statement.bind = () => statement;
    return statement as unknown as D1PreparedStatement;
  };
  const isFailing = (statement: D1PreparedStatement) => FAILING in (statement as object);
  return {
    prepare: (query: string) => (query.includes(table) ? failing() : real.prepare(query)),
    batch: (statements: D1PreparedStatement[]) => (statements.some(isFailing) ? fail() : real.batch(statements)),
    exec: (query: string) => real.exec(query),
    dump: () => real.dump(),
    withSession: (constraint?: string) => real.withSession(constraint),
  } as unknown as D1Database;
}

/**
 * The test D1 database, recording the text of every statement prepared through it into
 * `statements`: for checking that two requests ran the same statements.
 */
export function recordingDatabase(statements: string[]): D1Database {
  const real = env.DB;
  return {
    prepare: (query: string) => {
      statements.push(query);
      return real.prepare(query);
    },
    batch: (list: D1PreparedStatement[]) => real.batch(list),
    exec: (query: string) => real.exec(query),
    dump: () => real.dump(),
    withSession: (constraint?: string) => real.withSession(constraint),
  } as unknown as D1Database;
}
