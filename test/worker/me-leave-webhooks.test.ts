/**
 * Issue 25 §2 (README "Erasure, carried downstream"): leaving the waitlist (DELETE /api/me/waitlist)
 * deletes the entry here and is carried downstream as the retention sweep's deletion of an entry
 * is, in the leave's own batch: person.erased to the endpoints its data reached, the rest of its
 * deliveries cancelled and its events redacted; then the webhooks queue is kicked.
 */
import { describe, expect, it } from "vitest";
import { ME_ROUTES } from "../../worker/shared/me";
import { ADULT_ANSWER } from "../support/age";
import { signIn } from "../support/auth";
import { capturingQueue } from "../support/joins";
import { addEndpoint, eventsAbout, kicks, rows, type StoredDelivery, theEvent } from "../support/webhook-events";
import { call, postJson, testRepository, uniqueEmail } from "../support/worker";

const repo = testRepository();

describe("DELETE /api/me/waitlist carries the deletion downstream", () => {
  it("person.erased to the endpoint that got the sign-up, the other delivery cancelled, the event redacted, the queue kicked", async () => {
    const crm = await addEndpoint("leave-crm", ["waitlist.joined"]);
    const sheet = await addEndpoint("leave-sheet", ["waitlist.joined"]);
    const email = uniqueEmail("leaver");
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, { MAIL_QUEUE: capturingQueue().binding })).status).toBe(201);
    const entry = (await repo.findWaitlistEntry(email))!;
    const { event } = await theEvent("waitlist.joined", entry.id);
    await rows(
      "update hwh_webhook_deliveries set status = 'delivered', attempts = 1, last_at = created_at where event_id = ? and endpoint_id = ?",
      event.id,
      crm,
    );
    const { access_token: token } = await signIn(email);
    const hooks = kicks();
    const left = await call(ME_ROUTES.waitlist, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } }, hooks.env);
    expect(left.status, await left.clone().text()).toBe(200);
    expect(await repo.findWaitlistEntry(email)).toBeUndefined();

    const about = await eventsAbout(email);
    expect(about.map((row) => [row.type, JSON.parse(row.payload)])).toEqual([["person.erased", { email, erased_at: expect.any(String) }]]);
    const erased = await rows<StoredDelivery>("select * from hwh_webhook_deliveries where event_id = ?", about[0]!.id);
    expect(erased.map((row) => [row.endpoint_id, row.status])).toEqual([[crm, "pending"]]);
    const earlier = await rows<StoredDelivery>("select * from hwh_webhook_deliveries where event_id = ? order by endpoint_id", event.id);
    expect(earlier.map((row) => [row.endpoint_id, row.status, row.person])).toEqual([
      [crm, "delivered", null],
      [sheet, "cancelled", null],
    ]);
    expect(await rows("select payload, person from hwh_webhook_events where id = ?", event.id)).toEqual([{ payload: "{}", person: null }]);
    expect(hooks.queue.sent).toEqual([{ type: "due" }]);
  });

  it("leaving when not on the list stores nothing and kicks nothing", async () => {
    const email = uniqueEmail("never-joined");
    const { access_token: token } = await signIn(email);
    const hooks = kicks();
    const left = await call(ME_ROUTES.waitlist, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } }, hooks.env);
    expect(left.status).toBeLessThan(500);
    expect(await eventsAbout(email)).toEqual([]);
    expect(hooks.queue.sent).toEqual([]);
  });
});
