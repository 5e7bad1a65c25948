/**
 * Issue 25 §2: person.erased goes to every endpoint ever sent the person's data (whatever events it
 * chose, enabled or not) and to no other, stored in the erasure's own batch; the person's other
 * pending deliveries are cancelled and their events' payloads redacted. An erasure of someone no
 * endpoint was ever sent stores no event at all. The operator's erasure, the self-erasure of
 * /api/me and the retention sweep's deletion of unconfirmed entries all do it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eraseMe } from "../../worker/features/me/account";
import { erasePerson } from "../../worker/features/operator";
import { runRetention } from "../../worker/features/retention";
import { joinOnBehalfOfChild } from "../../worker/features/waitlist";
import type { AuthUser } from "../../worker/platform/db/schema";
import { ADULT_ANSWER } from "../support/age";
import { capturingQueue } from "../support/joins";
import { addEndpoint, eventsAbout, kicks, rows, type StoredDelivery, theEvent } from "../support/webhook-events";
import { postJson, testRepository, uniqueEmail } from "../support/worker";

const repo = testRepository();
let crm: number;
let sheet: number;
let inbox: number;
let erasuresOnly: number;

beforeAll(async () => {
  crm = await addEndpoint("crm", ["waitlist.joined"]);
  sheet = await addEndpoint("sheet", ["waitlist.joined"]);
  // Disabled now, but it was sent contact messages before: it still hears of the erasure.
  inbox = await addEndpoint("inbox", ["contact.received"]);
  erasuresOnly = await addEndpoint("erasures", ["person.erased"]);
});

const quiet = { MAIL_QUEUE: capturingQueue().binding };

/** A person who joined and wrote a contact message: their entry, and their events' deliveries by endpoint. */
async function person(tag: string) {
  const email = uniqueEmail(tag);
  expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, quiet)).status).toBe(201);
  const message = { name: "Ada", email, message: "Hello" };
  expect((await postJson("/api/forms/contact", message, quiet)).status).toBe(201);
  const entry = (await repo.findWaitlistEntry(email))!;
  const joined = await theEvent("waitlist.joined", entry.id);
  const contact = (await eventsAbout(email)).find((event) => event.type === "contact.received")!;
  return { email, entry, joined, contactId: contact.id };
}

const deliveryAt = async (eventId: number, endpoint: number) =>
  (await rows<StoredDelivery>("select * from hwh_webhook_deliveries where event_id = ? and endpoint_id = ?", eventId, endpoint))[0]!;

const setDelivery = (eventId: number, endpoint: number, set: string) =>
  rows(`update hwh_webhook_deliveries set ${set} where event_id = ? and endpoint_id = ?`, eventId, endpoint);

const erasedEvents = (email: string) =>
  rows<{ id: number; payload: string; person: string }>(
    "select id, payload, person from hwh_webhook_events where type = 'person.erased' and person = ?",
    email,
  );

describe("person.erased", () => {
  it("goes only to the endpoints ever sent the person's data (delivered, or attempted), in the erasure's batch; the rest is cancelled and redacted", async () => {
    const { email, entry, joined, contactId } = await person("erased");
    // The CRM got the sign-up; the inbox was attempted once (retrying); the sheet was never tried.
    await setDelivery(joined.event.id, crm, "status = 'delivered', attempts = 1, delivered_at = created_at");
    await setDelivery(contactId, inbox, "attempts = 1, last_status = 500, last_at = created_at");
    await rows("update hwh_webhook_endpoints set enabled = 0 where id = ?", inbox);
    const hooks = kicks();
    await erasePerson(hooks.deps(), email, "operator@example.com");
    expect(await repo.findWaitlistEntry(email)).toBeUndefined();
    const [erased] = await erasedEvents(email);
    expect(JSON.parse(erased!.payload)).toEqual({ email, erased_at: expect.any(String) });
    const deliveries = await rows<StoredDelivery>(
      "select * from hwh_webhook_deliveries where event_id = ? order by endpoint_id",
      erased!.id,
    );
    expect(deliveries.map((d) => [d.endpoint_id, d.status, d.attempts])).toEqual([
      [crm, "pending", 0],
      [inbox, "pending", 0],
    ]);
    expect(deliveries.map((d) => d.endpoint_id)).not.toContain(erasuresOnly);
    expect(deliveries.map((d) => d.endpoint_id)).not.toContain(sheet);
    // The pending ones are cancelled (attempted or not), the settled one keeps its outcome; none names the person any more.
    expect(await deliveryAt(joined.event.id, sheet)).toMatchObject({ status: "cancelled", person: null });
    expect(await deliveryAt(contactId, inbox)).toMatchObject({ status: "cancelled", person: null });
    expect(await deliveryAt(joined.event.id, crm)).toMatchObject({ status: "delivered", person: null });
    // Every other event about them is redacted; only person.erased names them (until delivered).
    const left = await rows<{ type: string; payload: string; person: string | null }>(
      "select type, payload, person from hwh_webhook_events where id in (?, ?)",
      joined.event.id,
      contactId,
    );
    expect(left).toEqual([
      { type: "waitlist.joined", payload: "{}", person: null },
      { type: "contact.received", payload: "{}", person: null },
    ]);
    expect((await eventsAbout(email)).map((event) => event.type)).toEqual(["person.erased"]);
    expect(entry.id).toBeGreaterThan(0);
    expect(hooks.queue.sent).toEqual([{ type: "due" }]);
  });

  it("nobody was ever sent the person's data: no person.erased at all, the pending deliveries cancelled, the payloads redacted", async () => {
    const { email, joined } = await person("never-sent");
    await erasePerson(kicks().deps(), email, "operator@example.com");
    expect(await erasedEvents(email)).toEqual([]);
    expect(
      (await rows<StoredDelivery>("select * from hwh_webhook_deliveries where event_id = ?", joined.event.id)).map((d) => d.status),
    ).toEqual(["cancelled", "cancelled"]);
    expect(await eventsAbout(email)).toEqual([]);
  });

  it("the self-erasure of /api/me does the same", async () => {
    const { email, joined } = await person("self");
    await setDelivery(joined.event.id, sheet, "status = 'delivered', attempts = 1");
    const hooks = kicks();
    await eraseMe(hooks.deps(), { id: "self-user", email } as unknown as AuthUser, email);
    const [erased] = await erasedEvents(email);
    expect(
      (await rows<StoredDelivery>("select * from hwh_webhook_deliveries where event_id = ?", erased!.id)).map((d) => d.endpoint_id),
    ).toEqual([sheet]);
    expect(hooks.queue.sent).toEqual([{ type: "due" }]);
  });

  it("an entry a parent made on behalf of a child was never sent, so its erasure sends nothing either", async () => {
    const parent = uniqueEmail("parent");
    const deps = kicks(quiet).deps();
    expect(
      await joinOnBehalfOfChild(deps, parent, { band: "under_13", country: "US", consentAt: new Date(), origin: "http://localhost" }),
    ).toBe("joined");
    await erasePerson(deps, parent, "operator@example.com");
    expect(await eventsAbout(parent)).toEqual([]);
    expect(await rows("select id from hwh_webhook_deliveries where person = ?", parent)).toEqual([]);
  });

  it("the retention sweep's deletion of an unconfirmed entry erases it downstream too: person.erased to the endpoints sent its sign-up", async () => {
    const { email, joined } = await person("expired");
    await setDelivery(joined.event.id, crm, "status = 'delivered', attempts = 1");
    const later = new Date(Date.now() + 3650 * 86_400_000);
    const hooks = kicks();
    const report = await runRetention(hooks.deps(() => later));
    expect(report.unconfirmed_entries).toBeGreaterThan(0);
    expect(await repo.findWaitlistEntry(email)).toBeUndefined();
    const [erased] = await erasedEvents(email);
    expect(JSON.parse(erased!.payload)).toEqual({ email, erased_at: later.toISOString() });
    expect(
      (await rows<StoredDelivery>("select * from hwh_webhook_deliveries where event_id = ?", erased!.id)).map((d) => d.endpoint_id),
    ).toEqual([crm]);
    // Its contact message went with the contact retention: that event's message is redacted once nothing waits to send it.
    expect(
      await rows("select id from hwh_webhook_events where type = 'contact.received' and payload <> '{}' and person = ?", email),
    ).toEqual([]);
    expect(hooks.queue.sent).toEqual([{ type: "due" }]);
  });
});
