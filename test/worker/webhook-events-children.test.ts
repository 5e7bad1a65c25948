/**
 * Issue 25 §2 with issue 23's rule: nothing about an entry made on behalf of a child, and nothing
 * from a pending parental request, is ever stored as a webhook event (so nothing is ever sent):
 * the events' SELECTs leave them out. Also contact.received, campaign.finished (once, with its
 * counts), and the joins the joins queue stores (their events in the consumer's one call).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { WaitingJoinMessage } from "../../worker/features/joins/messages";
import { finishDone } from "../../worker/features/campaigns/consumer";
import { joinOnBehalfOfChild } from "../../worker/features/waitlist";
import { capturingQueue, countingDatabase, runQueue } from "../support/joins";
import { addEndpoint, eventsAbout, kicks, rows, theEvent } from "../support/webhook-events";
import { postJson, testRepository, uniqueEmail } from "../support/worker";
import { ask, press, requestOf, tokenOf } from "./parents-support";

const repo = testRepository();
let everything: number;
let slack: number;

beforeAll(async () => {
  everything = await addEndpoint("everything", ["waitlist.joined", "waitlist.confirmed", "referral.confirmed", "contact.received"]);
  slack = await addEndpoint("slack", ["campaign.finished"]);
});

const quiet = () => ({ MAIL_QUEUE: capturingQueue().binding });

describe("children's entries and parental requests are never events", () => {
  it("a child's join that asks a parent (a pending parental request) stores no event and no delivery", async () => {
    const parent = uniqueEmail("asked-parent");
    await ask(parent);
    await requestOf(parent);
    expect(await eventsAbout(parent)).toEqual([]);
    expect(await rows("select id from hwh_webhook_deliveries where person = ?", parent)).toEqual([]);
  });

  it("the parent's agreement makes an entry on behalf of the child, confirmed at once: no waitlist.joined, no waitlist.confirmed, no delivery", async () => {
    const parent = uniqueEmail("agreeing-parent");
    await ask(parent);
    expect((await press(await tokenOf(await requestOf(parent)), "agree")).status).toBe(200);
    const entry = (await repo.findWaitlistEntry(parent))!;
    expect(entry.onBehalfOfChild).toBe(true);
    expect(
      await rows("select id from hwh_webhook_events where key in (?, ?)", `waitlist.joined:${entry.id}`, `waitlist.confirmed:${entry.id}`),
    ).toEqual([]);
    expect(await eventsAbout(parent)).toEqual([]);
    expect(await rows("select id from hwh_webhook_deliveries where person = ?", parent)).toEqual([]);
  });

  it("an entry on behalf of a child made directly (joinOnBehalfOfChild) stores nothing either", async () => {
    const parent = uniqueEmail("direct-parent");
    const deps = kicks(quiet()).deps();
    expect(
      await joinOnBehalfOfChild(deps, parent, { band: "under_13", country: "GB", consentAt: new Date(), origin: "http://localhost" }),
    ).toBe("joined");
    expect(await eventsAbout(parent)).toEqual([]);
  });

  it("a contact message from a parent a child's request waits for, or from an entry on behalf of a child, is no contact.received", async () => {
    const waiting = uniqueEmail("waiting-parent");
    await ask(waiting);
    const onBehalf = uniqueEmail("behalf-parent");
    await joinOnBehalfOfChild(kicks(quiet()).deps(), onBehalf, {
      band: "13_15",
      country: "GB",
      consentAt: new Date(),
      origin: "http://localhost",
    });
    for (const email of [waiting, onBehalf]) {
      expect((await postJson("/api/forms/contact", { name: "P", email, message: "About my child" }, quiet())).status).toBe(201);
      expect(await eventsAbout(email)).toEqual([]);
    }
  });
});

describe('only an adult\'s own entry leaves (README "Never to a third party")', () => {
  it("a 16-year-old's own join (band 16_17, allowed without a parent where the consent age is 16) and their contact message store no event", async () => {
    const teen = uniqueEmail("teen");
    const sixteen = { birth_month: 1, birth_year: new Date().getUTCFullYear() - 16 };
    expect((await postJson("/api/waitlist", { email: teen, ...sixteen }, quiet())).status).toBe(201);
    expect((await repo.findWaitlistEntry(teen))?.ageBand).toBe("16_17");
    expect((await postJson("/api/forms/contact", { name: "T", email: teen, message: "Hi" }, quiet())).status).toBe(201);
    expect(await eventsAbout(teen)).toEqual([]);
    expect(await rows("select id from hwh_webhook_deliveries where person = ?", teen)).toEqual([]);
  });

  it("an entry whose band is unknown (made before the age question) stores no event; the same join of an adult does", async () => {
    const unknown = uniqueEmail("legacy");
    const adult = uniqueEmail("adult");
    const claim = { now: new Date(), lockMs: 60_000 };
    await repo.waitlist.join({ email: unknown, source: "cta" }, claim);
    await repo.waitlist.join({ email: adult, source: "cta", ageBand: "18_plus" }, claim);
    expect((await repo.findWaitlistEntry(unknown))?.ageBand).toBe("unknown");
    expect(await eventsAbout(unknown)).toEqual([]);
    expect((await eventsAbout(adult)).map((event) => event.type)).toEqual(["waitlist.joined"]);
  });
});

describe("contact.received", () => {
  it("a contact message stores its event (form, address, name, message, time) for the endpoints that want it, and kicks the queue", async () => {
    const email = uniqueEmail("writer");
    const hooks = kicks(quiet());
    const response = await postJson("/api/forms/contact", { name: "Ada Lovelace", email, message: "When do you launch?" }, hooks.env);
    expect(response.status).toBe(201);
    const [event] = await eventsAbout(email);
    expect(event).toMatchObject({ type: "contact.received", person: email });
    const { data, deliveries } = await theEvent("contact.received", event!.key.split(":")[1]!);
    const [submission] = await rows<{ created_at: string }>(
      "select created_at from hwh_form_submissions where id = ?",
      event!.key.split(":")[1],
    );
    expect(data).toEqual({
      form: "contact",
      email,
      name: "Ada Lovelace",
      message: "When do you launch?",
      received_at: submission!.created_at,
    });
    expect(deliveries.map((d) => d.endpoint_id)).toEqual([everything]);
    expect(hooks.queue.sent).toEqual([{ type: "due" }]);
  });
});

describe("campaign.finished", () => {
  it("a campaign that ends stores campaign.finished once, with its counts of sent, skipped and failed", async () => {
    const now = new Date().toISOString();
    const [campaign] = await rows<{ id: number }>(
      `insert into hwh_campaigns (subject, body, audience_kind, status, audience_size, expanded_at, created_by, created_at, updated_at)
       values ('Launch day', 'Hello', 'all', 'sending', 4, ?, 'admin-key', ?, ?) returning id`,
      now,
      now,
      now,
    );
    const id = campaign!.id;
    for (const [entry, status] of [
      [-1, "sent"],
      [-2, "sent"],
      [-3, "skipped"],
      [-4, "failed"],
    ] as const) {
      await rows(
        "insert into hwh_campaign_recipients (campaign_id, entry_id, status, updated_at) values (?, ?, ?, ?)",
        id,
        entry,
        status,
        now,
      );
    }
    const hooks = kicks();
    await finishDone(hooks.deps(), [id]);
    const { event, data, deliveries } = await theEvent("campaign.finished", id);
    const [finished] = await rows<{ finished_at: string }>("select finished_at from hwh_campaigns where id = ?", id);
    expect(event.person).toBeNull();
    expect(data).toEqual({ campaign_id: id, name: "Launch day", sent: 2, skipped: 1, failed: 1, finished_at: finished!.finished_at });
    expect(deliveries.map((d) => d.endpoint_id)).toEqual([slack]);
    expect(hooks.queue.sent).toEqual([{ type: "due" }]);
    // Ended again after a retried dead letter: still the one event.
    await rows("update hwh_campaigns set status = 'sending', finished_at = null where id = ?", id);
    await finishDone(kicks().deps(), [id]);
    expect(await rows("select id from hwh_webhook_events where key = ?", `campaign.finished:${id}`)).toHaveLength(1);
  });
});

describe("the joins the joins queue stores", () => {
  it("store each new entry's waitlist.joined in the consumer's one database call, and kick the queue", async () => {
    const emails = [uniqueEmail("waited-1"), uniqueEmail("waited-2"), uniqueEmail("waited-3")];
    const messages: WaitingJoinMessage[] = emails.map((email) => ({
      type: "join",
      id: crypto.randomUUID(),
      at: new Date().toISOString(),
      origin: "http://localhost",
      network: null,
      join: {
        email,
        source: "hero",
        ref: null,
        ageBand: "18_plus",
        country: "GB",
        utm_source: "tiktok",
        utm_medium: null,
        utm_campaign: null,
        referrer_host: null,
      },
    }));
    const counting = countingDatabase();
    const hooks = kicks({ ...quiet(), DB: counting.db });
    const outcomes = await runQueue(messages, hooks.env);
    expect(outcomes.every(({ acked }) => acked)).toBe(true);
    expect(counting.calls()).toBe(1);
    for (const email of emails) {
      const entry = (await repo.findWaitlistEntry(email))!;
      const { data, deliveries } = await theEvent("waitlist.joined", entry.id);
      expect(data).toMatchObject({ email, status: "pending", utm_source: "tiktok", joined_at: entry.createdAt });
      expect(deliveries.map((d) => d.endpoint_id)).toEqual([everything]);
    }
    expect(hooks.queue.sent).toEqual([{ type: "due" }]);
    // Delivered again (the queue's redelivery): the addresses are listed, nothing stored twice.
    await runQueue(messages, kicks(quiet()).env);
    for (const email of emails) expect(await eventsAbout(email)).toHaveLength(1);
  });

  it("with double opt-in off, each one confirmed at once also stores its waitlist.confirmed, after its waitlist.joined", async () => {
    const email = uniqueEmail("waited-at-once");
    const message: WaitingJoinMessage = {
      type: "join",
      id: crypto.randomUUID(),
      at: new Date().toISOString(),
      origin: "http://localhost",
      network: null,
      join: {
        email,
        source: null,
        ref: null,
        ageBand: "18_plus",
        country: null,
        utm_source: null,
        utm_medium: null,
        utm_campaign: null,
        referrer_host: null,
      },
    };
    await runQueue([message], kicks({ ...quiet(), WAITLIST_DOUBLE_OPT_IN: "false" }).env);
    const entry = (await repo.findWaitlistEntry(email))!;
    expect(entry.confirmedAt).not.toBeNull();
    const joined = await theEvent("waitlist.joined", entry.id);
    const confirmed = await theEvent("waitlist.confirmed", entry.id);
    expect(joined.event.id).toBeLessThan(confirmed.event.id);
    expect(confirmed.data).toMatchObject({ email, status: "confirmed", confirmed_at: entry.confirmedAt, place: expect.any(Number) });
  });
});
