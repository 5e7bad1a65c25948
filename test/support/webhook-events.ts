// What the webhook-events*.test.ts files share (issue 25 §2): endpoints inserted directly, the
// events and deliveries stored about a person, and a capturing webhooks queue (the kick).
import { env } from "cloudflare:workers";
import { createDeps } from "../../worker/deps";
import type { WebhookEventType } from "../../worker/shared/webhooks";
import { capturingQueue } from "./joins";
import { type EnvOverrides, testEnv } from "./worker";

/** An endpoint wanting `events`, inserted as the operator API stores one (its secret never read here). */
export async function addEndpoint(name: string, events: WebhookEventType[], enabled = true): Promise<number> {
  const now = new Date().toISOString();
  const row = await env.DB.prepare(
    `insert into hwh_webhook_endpoints (name, url, kind, events, secret, enabled, created_at, updated_at)
     values (?, ?, 'standard', ?, 'sealed', ?, ?, ?) returning id`,
  )
    .bind(name, `https://${name}.example/hook`, JSON.stringify(events), enabled ? 1 : 0, now, now)
    .first<{ id: number }>();
  return row!.id;
}

export type StoredEvent = {
  id: number;
  key: string;
  uid: string;
  type: string;
  person: string | null;
  payload: string;
  created_at: string;
};
export type StoredDelivery = {
  id: number;
  webhook_id: string;
  event_id: number;
  endpoint_id: number;
  person: string | null;
  status: string;
  attempts: number;
  next_at: string;
  created_at: string;
};

export const rows = async <T = Record<string, unknown>>(sql: string, ...bind: unknown[]): Promise<T[]> =>
  (
    await env.DB.prepare(sql)
      .bind(...bind)
      .all<T>()
  ).results;

/** The events of one type whose key names `id` (e.g. the entry's), oldest first. */
export const eventsOf = (type: WebhookEventType, id: number | string) =>
  rows<StoredEvent>("select * from hwh_webhook_events where key = ? order by id", `${type}:${id}`);

/** Every event carrying `person`, oldest first. */
export const eventsAbout = (person: string) => rows<StoredEvent>("select * from hwh_webhook_events where person = ? order by id", person);

/** The deliveries of an event, by endpoint. */
export const deliveriesOf = (eventId: number) =>
  rows<StoredDelivery>("select * from hwh_webhook_deliveries where event_id = ? order by endpoint_id", eventId);

/** The one event of a type and key, with its parsed payload and its deliveries. */
export async function theEvent(type: WebhookEventType, id: number | string) {
  const events = await eventsOf(type, id);
  if (events.length !== 1) throw new Error(`expected one ${type} event for ${id}, found ${events.length}`);
  const event = events[0]!;
  return { event, data: JSON.parse(event.payload) as Record<string, unknown>, deliveries: await deliveriesOf(event.id) };
}

/** A capturing webhooks queue, and Deps (or env overrides) that kick it. */
export function kicks(overrides: EnvOverrides = {}) {
  const queue = capturingQueue();
  const env = { WEBHOOK_QUEUE: queue.binding, ...overrides };
  return { queue, env, deps: (now?: () => Date) => createDeps(testEnv(env), now) };
}
