import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import worker from "../../worker/index";
import { repositoryWithLookups } from "./records";

export type EnvOverrides = Partial<Record<keyof Env, unknown>>;

// From a random start: the rate-limit bindings' counts (test/support/rate-limits.ts) outlive a test
// file, so another file's run in the same minute must not meet this one's addresses.
let clients = Math.floor(Math.random() * 50_000);
/** A client address of its own (TEST-NET-2, then TEST-NET-3), so one test's per-client limits never meet another's. */
export function uniqueClientIp(): string {
  clients += 1;
  const [net, n] = clients < 65_000 ? ["198.51", clients] : ["203.0", clients - 65_000];
  return `${net}.${Math.floor(n / 254) % 256}.${(n % 254) + 1}`;
}

/**
 * Sends a request through the worker's own fetch with the test env (optionally overridden)
 * and waits for everything it scheduled with ctx.waitUntil, such as notification delivery.
 * Each call comes from a client address of its own unless the request sets CF-Connecting-IP.
 */
export async function call(path: string, init: RequestInit = {}, overrides: EnvOverrides = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(`http://localhost${path}`, init);
  if (!request.headers.has("cf-connecting-ip")) request.headers.set("CF-Connecting-IP", uniqueClientIp());
  const response = await worker.fetch(request, { ...env, ...overrides } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

export function postJson(path: string, body: unknown, overrides: EnvOverrides = {}): Promise<Response> {
  return call(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }, overrides);
}

/** The repository on the test D1 database, for arranging and checking state. */
export function testRepository() {
  return repositoryWithLookups(drizzle(env.DB));
}

export async function countRows(table: "hwh_waitlist" | "hwh_form_submissions" | "hwh_dev_mailbox"): Promise<number> {
  const row = await env.DB.prepare(`select count(*) as n from ${table}`).first<{ n: number }>();
  return row!.n;
}

let counter = 0;
/** A fresh e-mail per call, so tests sharing the database do not meet each other's rows. */
export function uniqueEmail(tag = "visitor"): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** A D1 binding whose every query fails, standing in for an unreachable database. */
export function brokenDatabase(): D1Database {
  const fail = () => {
    throw new Error("D1_ERROR: database unavailable (simulated)");
  };
  const statement = { bind: () => statement, first: fail, all: fail, run: fail, raw: fail };
  return { prepare: () => statement, batch: fail, exec: fail, dump: fail, withSession: fail } as unknown as D1Database;
}
