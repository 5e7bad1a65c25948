// What the two webhooks repository suites share: endpoints added through the operator's query,
// and the events and deliveries stored, read back on either driver.
import { webhookDeliveries, webhookEvents } from "../../worker/platform/db/schema";
import type { WebhookEventType } from "../../worker/shared/webhooks";
import type { TestRepository } from "./records";

export const t0 = new Date("2026-11-02T10:00:00.000Z");
export const at = (ms: number) => new Date(t0.getTime() + ms);

/** An endpoint wanting `events` (its secret a stand-in: never opened here), disabled when `enabled` is false. */
export async function endpoint(repo: TestRepository, name: string, events: WebhookEventType[], enabled = true): Promise<number> {
  const row = await repo.webhooks.addEndpoint(
    { name, url: `https://${name}.example/hook`, kind: "standard", events, secret: "sealed" },
    t0,
  );
  if (!enabled) await repo.webhooks.changeEndpoint(row.id, { enabled: false, disabledReason: "operator" }, t0);
  return row.id;
}

/** Every stored event, oldest first, with its payload parsed. */
export async function events(repo: TestRepository) {
  const rows = await repo.rowsOf(webhookEvents);
  return rows.sort((a, b) => a.id - b.id).map((row) => ({ ...row, data: JSON.parse(row.payload) as Record<string, unknown> }));
}

/** The one event of `type`, or a failure naming how many there were. */
export async function only(repo: TestRepository, type: WebhookEventType) {
  const found = (await events(repo)).filter((row) => row.type === type);
  if (found.length !== 1) throw new Error(`expected one ${type} event, found ${found.length}`);
  return found[0]!;
}

/** Every stored delivery, by id. */
export async function deliveries(repo: TestRepository) {
  return (await repo.rowsOf(webhookDeliveries)).sort((a, b) => a.id - b.id);
}

/** The endpoints an event's deliveries go to, in endpoint order, and their webhook ids. */
export async function fanOut(repo: TestRepository, eventId: number) {
  const rows = (await deliveries(repo)).filter((row) => row.eventId === eventId).sort((a, b) => a.endpointId - b.endpointId);
  return rows.map((row) => ({ endpoint: row.endpointId, webhookId: row.webhookId, status: row.status }));
}
