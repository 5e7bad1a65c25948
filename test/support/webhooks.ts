/**
 * Webhooks' test stand-ins (issue 25; test/worker/webhooks-*.test.ts): fake receivers and the DoH
 * resolver behind one fetch spy (the worker shares the test isolate's global fetch), a capturing
 * WEBHOOK_QUEUE that records kicks and runs nothing (the tests run the consumer themselves with
 * syntheticBatch), and helpers that store endpoints, events and deliveries as record.ts would.
 */
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import { createDeps, type Deps } from "../../worker/deps";
import { consumeWebhookBatch } from "../../worker/features/webhooks";
import { WEBHOOKS_QUEUE } from "../../worker/features/webhooks/queue";
import { sealSecret } from "../../worker/features/webhooks/secrets";
import { type EnvOverrides, recordingWebhookQueue, syntheticBatch, testEnv } from "./worker";

export const DNS_URL = "https://dns.test/dns-query";
/** A public address every receiver's name resolves to unless a test says otherwise. */
export const PUBLIC_ADDRESS = "93.184.215.14";

/** One request a receiver got. */
export type Received = { url: string; headers: Headers; body: string; at: Date };
/** How a receiver answers a request: a Response, or "hang" (no answer until the caller's signal aborts). */
export type Answer = Response | "hang";
type Handler = (request: Received) => Answer | Promise<Answer>;

/**
 * Receivers and the DoH stand-in through one fetch spy. Every host resolves to PUBLIC_ADDRESS
 * unless `resolve(host, address)` says otherwise; every receiver answers 200 "ok" unless
 * `answer(url, handler)` says otherwise. `calls` lists the receivers' requests (not the DNS ones).
 */
export function fakeReceivers(clock: () => Date = () => new Date()) {
  const calls: Received[] = [];
  const handlers = new Map<string, Handler>();
  const zone = new Map<string, string>();
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    const url = new URL(request.url);
    if (`${url.origin}${url.pathname}` === DNS_URL) {
      const name = url.searchParams.get("name") ?? "";
      const type = url.searchParams.get("type");
      const address = zone.get(name) ?? PUBLIC_ADDRESS;
      // An empty address: the name does not exist (NXDOMAIN).
      if (address === "") return Response.json({ Status: 3, Answer: [] });
      const v6 = address.includes(":");
      const Answer = (type === "AAAA") === v6 ? [{ name, type: v6 ? 28 : 1, TTL: 60, data: address }] : [];
      return Response.json({ Status: 0, Answer });
    }
    const received: Received = { url: request.url, headers: request.headers, body: await request.text(), at: clock() };
    calls.push(received);
    const handler = handlers.get(request.url);
    const answer = handler ? await handler(received) : new Response("ok", { status: 200 });
    if (answer !== "hang") return answer;
    return new Promise<Response>((_, reject) => {
      const signal = init?.signal ?? request.signal;
      signal?.addEventListener("abort", () => reject(signal.reason));
    });
  });
  return {
    calls,
    /** The requests one receiver got. */
    to: (url: string) => calls.filter((call) => call.url === url),
    answer(url: string, handler: Handler) {
      handlers.set(url, handler);
    },
    /** What `host` resolves to ("" : nothing, NXDOMAIN). */
    resolve(host: string, address: string) {
      zone.set(host, address);
    },
  };
}

/** A kick the capturing queue got. */
export type Kick = { body: unknown; delaySeconds: number | undefined };

/** A WEBHOOK_QUEUE that records what is sent to it (`kicks`) and runs nothing. */
export function capturingWebhookQueue(kicks: Kick[] = []): Queue {
  return recordingWebhookQueue(kicks);
}

/** Deps on the test env with a capturing webhooks queue and a clock the test moves. */
export function webhookDeps(overrides: EnvOverrides = {}, start = new Date()) {
  let now = start;
  const kicks: Kick[] = [];
  const deps: Deps = createDeps(testEnv({ WEBHOOK_QUEUE: capturingWebhookQueue(kicks), ...overrides }), () => now);
  return {
    deps,
    kicks,
    now: () => now,
    /** Moves the clock by `ms` (or to a date). */
    advance(by: number | Date) {
      now = typeof by === "number" ? new Date(now.getTime() + by) : by;
    },
  };
}

/** Runs the consumer on one kick, as the queue would. */
export async function runConsumer(deps: Deps, queue = WEBHOOKS_QUEUE) {
  const { batch, entry } = syntheticBatch(queue, [{ type: "due" }]);
  await consumeWebhookBatch(deps, batch);
  return entry;
}

/** Empties the webhooks' tables (the files share one database per file; each test starts clean). */
export async function resetWebhooks() {
  await env.DB.batch([
    env.DB.prepare("delete from hwh_webhook_deliveries"),
    env.DB.prepare("delete from hwh_webhook_events"),
    env.DB.prepare("delete from hwh_webhook_endpoints"),
  ]);
}

export type EndpointSeed = {
  url: string;
  kind?: "standard" | "slack";
  /** A Standard endpoint's whsec_ secret (a Slack one's secret is its URL). */
  secret?: string;
  previousSecret?: string;
  previousSecretUntil?: Date;
  events?: string[];
  /** A sealed value to store as is (e.g. one that cannot be opened). */
  sealed?: string;
};

/** Stores an endpoint as the operator API would (its secret sealed); its id. */
export async function addEndpoint(deps: Deps, seed: EndpointSeed): Promise<number> {
  const kind = seed.kind ?? "standard";
  const config = deps.config.webhooks;
  const sealed = seed.sealed ?? (await sealSecret(config, kind === "slack" ? seed.url : seed.secret!));
  const previous = seed.previousSecret ? await sealSecret(config, seed.previousSecret) : null;
  const at = deps.now().toISOString();
  const display = kind === "slack" ? seed.url.replace(/[^/]+$/, "••••") : seed.url;
  const row = await env.DB.prepare(
    `insert into hwh_webhook_endpoints (name, url, kind, events, secret, previous_secret, previous_secret_until, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
  )
    .bind(
      `endpoint ${seed.url}`,
      display,
      kind,
      JSON.stringify(seed.events ?? []),
      sealed,
      previous,
      seed.previousSecretUntil?.toISOString() ?? null,
      at,
      at,
    )
    .first<{ id: number }>();
  return row!.id;
}

let events = 0;
/** Stores an event and one pending delivery per endpoint, due now; the event's id and its deliveries' webhook-ids by endpoint. */
export async function addEvent(
  deps: Deps,
  event: { type: string; person?: string | null; data: unknown },
  endpointIds: number[],
): Promise<{ eventId: number; webhookIds: Map<number, string> }> {
  events += 1;
  const at = deps.now().toISOString();
  const uid = `${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}${events}`;
  const row = await env.DB.prepare(
    "insert into hwh_webhook_events (key, uid, type, person, payload, created_at) values (?, ?, ?, ?, ?, ?) returning id",
  )
    .bind(`${event.type}:test-${uid}`, uid, event.type, event.person ?? null, JSON.stringify(event.data), at)
    .first<{ id: number }>();
  const webhookIds = new Map<number, string>();
  for (const endpointId of endpointIds) {
    const webhookId = `msg_${uid}_${endpointId}`;
    webhookIds.set(endpointId, webhookId);
    await env.DB.prepare(
      "insert into hwh_webhook_deliveries (webhook_id, event_id, endpoint_id, person, next_at, created_at) values (?, ?, ?, ?, ?, ?)",
    )
      .bind(webhookId, row!.id, endpointId, event.person ?? null, at, at)
      .run();
  }
  return { eventId: row!.id, webhookIds };
}

export type DeliveryRow = {
  id: number;
  webhook_id: string;
  event_id: number;
  endpoint_id: number;
  person: string | null;
  status: string;
  attempts: number;
  next_at: string;
  claim: string | null;
  locked_until: string | null;
  last_status: number | null;
  last_error: string | null;
  last_answer: string | null;
  last_at: string | null;
  delivered_at: string | null;
};

export async function deliveriesOf(endpointId: number): Promise<DeliveryRow[]> {
  const { results } = await env.DB.prepare("select * from hwh_webhook_deliveries where endpoint_id = ? order by id")
    .bind(endpointId)
    .all<DeliveryRow>();
  return results;
}

export type EndpointRow = {
  id: number;
  enabled: number;
  disabled_reason: string | null;
  disabled_at: string | null;
  failure_run: number;
  failing_since: string | null;
  paused_until: string | null;
  last_success_at: string | null;
  previous_secret: string | null;
  previous_secret_until: string | null;
};

export async function endpointRow(id: number): Promise<EndpointRow> {
  return (await env.DB.prepare("select * from hwh_webhook_endpoints where id = ?").bind(id).first<EndpointRow>())!;
}

/** Runs SQL on the test database (arranging state a test needs, e.g. a lapsed pause). */
export async function execute(query: string, ...values: unknown[]) {
  await env.DB.prepare(query)
    .bind(...values)
    .run();
}

/** A Standard Webhooks secret: whsec_ and the base64 of 32 random bytes. */
export function testSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
}
