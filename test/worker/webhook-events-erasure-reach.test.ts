/**
 * Issue 25 §2, erasure carried downstream (README "Erasure, carried downstream"): a delivery in the
 * air at erasure time is cancelled (its run records what the call told of the endpoint, never a
 * retry of the delivery, so the person's data is never sent again), every earlier event is redacted at once, and person.erased to
 * that endpoint is due no earlier than the call's lease end. "Reached" means an attempt was made
 * (a 410 counts no attempt, but the data went); a Slack endpoint never got personal data and never
 * hears of an erasure.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { erasePerson } from "../../worker/features/operator";
import { ADULT_ANSWER } from "../support/age";
import { capturingQueue } from "../support/joins";
import { addEndpoint, eventsAbout, kicks, rows, type StoredDelivery, theEvent } from "../support/webhook-events";
import { postJson, testRepository, uniqueEmail } from "../support/worker";

const repo = testRepository();
let crm: number;
let sheet: number;
let slack: number;
const quiet = { MAIL_QUEUE: capturingQueue().binding };

beforeAll(async () => {
  crm = await addEndpoint("reach-crm", ["waitlist.joined"]);
  sheet = await addEndpoint("reach-sheet", ["waitlist.joined"]);
  slack = await addEndpoint("reach-slack", ["waitlist.joined"]);
  await rows("update hwh_webhook_endpoints set kind = 'slack' where id = ?", slack);
});

async function joined(tag: string) {
  const email = uniqueEmail(tag);
  expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, quiet)).status).toBe(201);
  const entry = (await repo.findWaitlistEntry(email))!;
  return { email, event: (await theEvent("waitlist.joined", entry.id)).event };
}

const deliveryAt = async (eventId: number, endpoint: number) =>
  (
    await rows<StoredDelivery & { claim: string | null; locked_until: string | null }>(
      "select * from hwh_webhook_deliveries where event_id = ? and endpoint_id = ?",
      eventId,
      endpoint,
    )
  )[0]!;

const setDelivery = (eventId: number, endpoint: number, set: string) =>
  rows(`update hwh_webhook_deliveries set ${set} where event_id = ? and endpoint_id = ?`, eventId, endpoint);

/** The person.erased deliveries of `email`, by endpoint. */
const erasedDeliveries = (email: string) =>
  rows<StoredDelivery>(
    `select d.* from hwh_webhook_deliveries d join hwh_webhook_events e on e.id = d.event_id
     where e.type = 'person.erased' and e.person = ? order by d.endpoint_id`,
    email,
  );

describe("erasure of a person with a delivery in the air", () => {
  it("cancels the in-flight delivery (its run records the endpoint's pause, no retry), redacts the event at once, and sends person.erased after the lease ends", async () => {
    const { email, event } = await joined("in-flight");
    const leaseEnd = new Date(Date.now() + 60_000).toISOString();
    await setDelivery(event.id, sheet, `claim = 'sender-1', locked_until = '${leaseEnd}'`);
    await erasePerson(kicks().deps(), email, "operator@example.com");
    expect(await deliveryAt(event.id, sheet)).toMatchObject({ status: "cancelled", claim: "sender-1", person: null });
    expect(await deliveryAt(event.id, crm)).toMatchObject({ status: "cancelled", person: null });
    // The run records its call (a 429 asking for an hour): the delivery stays cancelled (no retry
    // with the data), the endpoint is paused as the receiver asked.
    const now = new Date();
    const hour = new Date(now.getTime() + 3600_000);
    await repo.webhooks.recordRun({
      claim: "sender-1",
      now,
      deliveries: [
        { id: (await deliveryAt(event.id, sheet)).id, result: "failed", status: 429, error: null, answer: "", at: now, nextAt: hour },
      ],
      endpoints: [{ id: sheet, successAt: null, failures: 1, firstFailureAt: now, pausedUntil: hour, lastError: "429", disable: null }],
    });
    expect(await deliveryAt(event.id, sheet)).toMatchObject({ status: "cancelled", attempts: 0 });
    expect((await rows<{ paused_until: string }>("select paused_until from hwh_webhook_endpoints where id = ?", sheet))[0]).toEqual({
      paused_until: hour.toISOString(),
    });
    await rows("update hwh_webhook_endpoints set paused_until = null, failure_run = 0, failing_since = null where id = ?", sheet);
    const [stored] = await rows<{ payload: string; person: string | null }>(
      "select payload, person from hwh_webhook_events where id = ?",
      event.id,
    );
    expect(stored).toEqual({ payload: "{}", person: null });
    const erased = await erasedDeliveries(email);
    expect(erased.map((d) => d.endpoint_id)).toEqual([sheet]);
    expect(erased[0]!.next_at >= leaseEnd).toBe(true);
    expect(erased[0]!.status).toBe("pending");
  });

  it("a lease already over is no call in the air: that delivery is cancelled and nobody is told", async () => {
    const { email, event } = await joined("lease-over");
    await setDelivery(event.id, sheet, `claim = 'sender-2', locked_until = '${new Date(Date.now() - 60_000).toISOString()}'`);
    await erasePerson(kicks().deps(), email, "operator@example.com");
    expect(await erasedDeliveries(email)).toEqual([]);
    expect(await deliveryAt(event.id, sheet)).toMatchObject({ status: "cancelled" });
  });
});

describe("which endpoints were reached", () => {
  it("an endpoint that answered 410 (attempt made, none counted) gets person.erased, due now", async () => {
    const { email, event } = await joined("gone");
    await setDelivery(event.id, crm, "attempts = 0, last_status = 410, last_at = created_at");
    const before = new Date().toISOString();
    await erasePerson(kicks().deps(), email, "operator@example.com");
    const erased = await erasedDeliveries(email);
    expect(erased.map((d) => [d.endpoint_id, d.status])).toEqual([[crm, "pending"]]);
    expect(erased[0]!.next_at <= new Date().toISOString() && erased[0]!.next_at >= before.slice(0, 19)).toBe(true);
    expect(await deliveryAt(event.id, crm)).toMatchObject({ status: "cancelled", person: null });
  });

  it("a Slack endpoint, delivered or in flight, never got personal data: it never gets person.erased", async () => {
    const { email, event } = await joined("slack");
    await setDelivery(event.id, slack, "status = 'delivered', attempts = 1, last_at = created_at, delivered_at = created_at");
    await erasePerson(kicks().deps(), email, "operator@example.com");
    expect(await erasedDeliveries(email)).toEqual([]);
    expect(await eventsAbout(email)).toEqual([]);

    const other = await joined("slack-in-flight");
    await setDelivery(other.event.id, slack, `claim = 'sender-3', locked_until = '${new Date(Date.now() + 60_000).toISOString()}'`);
    await setDelivery(other.event.id, sheet, "status = 'delivered', attempts = 1, last_at = created_at");
    await erasePerson(kicks().deps(), other.email, "operator@example.com");
    expect((await erasedDeliveries(other.email)).map((d) => d.endpoint_id)).toEqual([sheet]);
    expect(await deliveryAt(other.event.id, slack)).toMatchObject({ status: "cancelled" });
  });
});
