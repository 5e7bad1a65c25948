import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import worker from "../../worker/index";
import { repositoryWithLookups } from "./records";

export type EnvOverrides = Partial<Record<keyof Env, unknown>>;

/** What an inline mail queue saw: every batch it delivered, with each message's ack or retry. */
export type InlineQueueLog = { batches: { bodies: unknown[]; acked: number; retried: number; retryDelays: (number | undefined)[] }[] };

/**
 * A message batch as the Queues runtime hands it to the worker's queue() handler, made in the
 * test: each message's ack/retry (and the batch's ackAll/retryAll) counted in `log`.
 */
export function syntheticBatch(queue: string, bodies: readonly unknown[], attempts = 1) {
  const entry = { bodies: [...bodies], acked: 0, retried: 0, retryDelays: [] as (number | undefined)[] };
  const messages = bodies.map((body, i) => ({
    id: `inline-${Date.now()}-${i}`,
    timestamp: new Date(),
    body,
    attempts,
    ack: () => {
      entry.acked += 1;
    },
    retry: (options?: QueueRetryOptions) => {
      entry.retried += 1;
      entry.retryDelays.push(options?.delaySeconds);
    },
  }));
  const batch = {
    queue,
    messages,
    ackAll: () => {
      for (const m of messages) m.ack();
    },
    retryAll: (options?: QueueRetryOptions) => {
      for (const m of messages) m.retry(options);
    },
  } as unknown as MessageBatch;
  return { batch, entry };
}

/**
 * The mail queue (MAIL_QUEUE) inline: sendBatch runs the worker's own queue() handler on a
 * synthetic batch of the messages, with the env `envOf()` gives, and resolves when it is done. A
 * request hands its jobs over inside its ctx.waitUntil, so `await call(...)` returns with the
 * mail sent, deterministically, through the real consumer (no miniflare queue, no batch timeout).
 */
export function inlineMailQueue(envOf: () => Env, log: InlineQueueLog = { batches: [] }): Queue {
  const deliver = async (bodies: unknown[]) => {
    const { batch, entry } = syntheticBatch("homework-helper-mail", bodies);
    log.batches.push(entry);
    await worker.queue(batch, envOf());
  };
  return {
    send: (body: unknown) => deliver([body]),
    sendBatch: (messages: Iterable<MessageSendRequest>) => deliver([...messages].map((message) => message.body)),
    metrics: async () => ({ backlogCount: 0, backlogBytes: 0, oldestMessageTimestamp: undefined }),
  } as unknown as Queue;
}

/**
 * The test env with `overrides` over it and, unless they name MAIL_QUEUE, the inline mail queue
 * bound to that same env (its consumer sees the same settings: provider, caps, database). For
 * tests that build Deps themselves: createDeps(testEnv({...})).
 */
export function testEnv(overrides: EnvOverrides = {}): Env {
  const merged = { ...env, ...overrides } as Env;
  if (!("MAIL_QUEUE" in overrides)) (merged as { MAIL_QUEUE: Queue }).MAIL_QUEUE = inlineMailQueue(() => merged);
  if (!("WEBHOOK_QUEUE" in overrides)) (merged as { WEBHOOK_QUEUE: Queue }).WEBHOOK_QUEUE = recordingWebhookQueue();
  return merged;
}

/**
 * The test env's webhooks queue (WEBHOOK_QUEUE): it keeps what is sent to it (`sent`) and runs no
 * consumer, so no test delivers webhooks in the background; the webhooks' own tests run the
 * consumer themselves (test/support/webhooks.ts).
 */
export function recordingWebhookQueue(sent: { body: unknown; delaySeconds: number | undefined }[] = []): Queue {
  return {
    sent,
    send: async (body: unknown, options?: QueueSendOptions) => {
      sent.push({ body, delaySeconds: options?.delaySeconds });
    },
    sendBatch: async (messages: Iterable<MessageSendRequest>) => {
      for (const message of messages) sent.push({ body: message.body, delaySeconds: message.delaySeconds });
    },
    metrics: async () => ({ backlogCount: 0, backlogBytes: 0, oldestMessageTimestamp: undefined }),
  } as unknown as Queue;
}

// The defaults for tests that spread `env` themselves: the inline mail queue on the plain test env,
// and a webhooks queue that runs nothing.
(env as unknown as { MAIL_QUEUE: Queue }).MAIL_QUEUE = inlineMailQueue(() => env as Env);
(env as unknown as { WEBHOOK_QUEUE: Queue }).WEBHOOK_QUEUE = recordingWebhookQueue();

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
 * Sends a request through the worker's own fetch with the test env (optionally overridden; the
 * mail queue inline unless the overrides give MAIL_QUEUE: testEnv) and waits for everything it
 * scheduled with ctx.waitUntil, such as the mail queue's batch of its e-mails (sent and recorded).
 * Each call comes from a client address of its own unless the request sets CF-Connecting-IP.
 */
export async function call(path: string, init: RequestInit = {}, overrides: EnvOverrides = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(`http://localhost${path}`, init);
  if (!request.headers.has("cf-connecting-ip")) request.headers.set("CF-Connecting-IP", uniqueClientIp());
  const response = await worker.fetch(request, testEnv(overrides), ctx);
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
