/**
 * The operator API's webhook tests (test/worker/webhooks-api*.test.ts): calls to /api/admin/webhooks
 * with the admin key, one fetch spy standing in for the DoH resolver and the receivers (the worker
 * shares the test isolate's global fetch), a WEBHOOK_QUEUE that records kicks, and rows stored as
 * the engine's record.ts would (an event and a delivery).
 */
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import { call, type EnvOverrides } from "./worker";

export const DNS_URL = "https://dns.test/dns-query";
export const ADMIN_KEY = "test-admin-key-0123456789abcdef-0123456789";
export const PUBLIC_V4 = "93.184.216.34";

export type Captured = { url: string; headers: Headers; body: string };
type Answer = () => Response | Promise<Response>;

/** Receivers and the DoH resolver: every name resolves to PUBLIC_V4 unless `zone` says otherwise (a v6 address is an AAAA answer; "none": no answer). */
export function fakeNetwork(zone: Record<string, string> = {}) {
  const received: Captured[] = [];
  const answers = new Map<string, Answer>();
  const resolved: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    const url = new URL(request.url);
    if (`${url.origin}${url.pathname}` === DNS_URL) {
      const name = url.searchParams.get("name") ?? "";
      const type = url.searchParams.get("type");
      resolved.push(name);
      const address = zone[name] ?? PUBLIC_V4;
      const v6 = address.includes(":");
      const records = address !== "none" && (type === "AAAA") === v6 ? [{ name, type: v6 ? 28 : 1, TTL: 60, data: address }] : [];
      return Response.json({ Status: address === "none" ? 3 : 0, Answer: records });
    }
    received.push({ url: request.url, headers: request.headers, body: await request.text() });
    const answer = answers.get(request.url);
    return answer ? answer() : new Response("ok", { status: 200 });
  });
  return {
    received,
    resolved,
    answer(url: string, answer: Answer) {
      answers.set(url, answer);
    },
  };
}

/** What the webhooks queue was asked: each kick's body. */
export const kicks: unknown[] = [];
const webhookQueue = {
  send: async (body: unknown) => {
    kicks.push(body);
  },
  sendBatch: async () => {},
} as unknown as Queue;

/** A call to /api/admin/webhooks<path> with the admin key (or `token`), a JSON body when given. */
export function hooks(
  path: string,
  init: { method?: string; body?: unknown; token?: string | null } = {},
  overrides: EnvOverrides = {},
): Promise<Response> {
  const headers = new Headers();
  const token = init.token === undefined ? ADMIN_KEY : init.token;
  if (token !== null) headers.set("Authorization", `Bearer ${token}`);
  let body: string | undefined;
  if (init.body !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.body);
  }
  return call(
    `/api/admin/webhooks${path}`,
    { method: init.method ?? (body ? "POST" : "GET"), headers, body },
    { WEBHOOK_QUEUE: webhookQueue, ...overrides },
  );
}

/** POST with a JSON body. */
export const postHook = (path: string, body: unknown, overrides: EnvOverrides = {}) => hooks(path, { method: "POST", body }, overrides);

let seq = 0;
/** Stores an event and its delivery to the endpoint, with the given status: the delivery's id. */
export async function storeDelivery(
  endpointId: number,
  status: "pending" | "delivered" | "dead",
  type = "waitlist.joined",
): Promise<number> {
  seq += 1;
  const uid = `${Date.now().toString(36)}${seq}${Math.random().toString(36).slice(2, 8)}`;
  const now = new Date().toISOString();
  const event = await env.DB.prepare(
    "insert into hwh_webhook_events (key, uid, type, person, payload, created_at) values (?, ?, ?, null, '{}', ?) returning id",
  )
    .bind(`test:${uid}`, uid, type, now)
    .first<{ id: number }>();
  const delivery = await env.DB.prepare(
    `insert into hwh_webhook_deliveries (webhook_id, event_id, endpoint_id, person, status, attempts, next_at, last_status, last_error, created_at)
     values (?, ?, ?, null, ?, ?, ?, ?, ?, ?) returning id`,
  )
    .bind(
      `msg_${uid}_${endpointId}`,
      event?.id,
      endpointId,
      status,
      status === "dead" ? 10 : 1,
      now,
      status === "dead" ? 500 : 200,
      status === "dead" ? "HTTP 500" : null,
      now,
    )
    .first<{ id: number }>();
  return Number(delivery?.id);
}

/** A stored delivery's row. */
export function deliveryRow(id: number) {
  return env.DB.prepare("select status, attempts, next_at, claim from hwh_webhook_deliveries where id = ?").bind(id).first<{
    status: string;
    attempts: number;
    next_at: string;
    claim: string | null;
  }>();
}

/** The stored endpoint row, as the database holds it. */
export function endpointRow(id: number) {
  return env.DB.prepare("select * from hwh_webhook_endpoints where id = ?").bind(id).first<Record<string, unknown>>();
}

/** The audit trail's webhook rows, as text. */
export async function auditText(): Promise<string> {
  const { results } = await env.DB.prepare("select * from hwh_audit_log where action like 'webhook.%'").all();
  return JSON.stringify(results);
}
