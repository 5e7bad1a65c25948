/**
 * Issue 25 §2-3: the waitlist's webhook events (waitlist.joined, waitlist.confirmed,
 * referral.confirmed), each stored in the same batch as the change that causes it, with one
 * pending delivery per endpoint that wants its type, once however often the change repeats.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { confirmEntry } from "../../worker/features/waitlist/confirm";
import { confirmationToken } from "../../worker/features/waitlist/tokens";
import { journeyOf } from "../../worker/features/waitlist";
import { ADULT_ANSWER } from "../support/age";
import { capturingQueue, countingDatabase } from "../support/joins";
import { addEndpoint, eventsAbout, kicks, rows, theEvent } from "../support/webhook-events";
import { postJson, testRepository, uniqueEmail } from "../support/worker";

const repo = testRepository();
let everything: number;
let joinsOnly: number;
let paused: number;
let unsubscribed: number;

beforeAll(async () => {
  everything = await addEndpoint("crm", ["waitlist.joined", "waitlist.confirmed", "referral.confirmed"]);
  joinsOnly = await addEndpoint("sheet", ["waitlist.joined"]);
  // Disabled: its deliveries are stored and wait for it.
  paused = await addEndpoint("paused", ["waitlist.confirmed"], false);
  unsubscribed = await addEndpoint("slack-ish", ["contact.received", "campaign.finished"]);
});

/** Joins through the API (the mail queue and the webhooks queue captured): the response, the entry, the kick. */
async function join(body: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
  const hooks = kicks({ MAIL_QUEUE: capturingQueue().binding, ...overrides });
  const response = await postJson("/api/waitlist", { ...ADULT_ANSWER, ...body }, hooks.env);
  const entry = await repo.findWaitlistEntry(String(body.email));
  return { response, entry: entry!, kicked: hooks.queue.sent };
}

/** Confirms an entry through its link's token, as the confirmation page does, with the webhooks queue captured. */
async function confirm(entry: { id: number; referralJoin: string | null }) {
  const hooks = kicks();
  const token = await confirmationToken(hooks.deps(), entry.id, entry.referralJoin);
  const outcome = await confirmEntry(hooks.deps(), token, null);
  return { outcome, kicked: hooks.queue.sent };
}

describe("waitlist.joined", () => {
  it("a new entry stores its event (the payload as stored) and one delivery per endpoint that wants it, in the join's one database call, then kicks the queue", async () => {
    const email = uniqueEmail("joined");
    const counting = countingDatabase();
    const { response, entry, kicked } = await join(
      { email, source: "hero", utm_source: "tiktok", utm_campaign: "launch" },
      { DB: counting.db },
    );
    expect(response.status).toBe(201);
    expect(counting.calls()).toBe(1);
    const { event, data, deliveries } = await theEvent("waitlist.joined", entry.id);
    expect(event).toMatchObject({ type: "waitlist.joined", person: email });
    expect(event.uid).toMatch(/^[0-9a-f]{24}$/);
    expect(data).toEqual({
      email,
      status: "pending",
      place: null,
      joined_at: entry.createdAt,
      confirmed_at: null,
      source: "hero",
      utm_source: "tiktok",
      utm_medium: null,
      utm_campaign: "launch",
      referrer_host: null,
    });
    expect(deliveries.map((d) => d.endpoint_id)).toEqual([everything, joinsOnly]);
    expect(deliveries.map((d) => d.endpoint_id)).not.toContain(unsubscribed);
    for (const delivery of deliveries) {
      expect(delivery).toMatchObject({ status: "pending", attempts: 0, person: email, next_at: event.created_at });
      expect(delivery.webhook_id).toBe(`msg_${event.uid}_${delivery.endpoint_id}`);
    }
    expect(kicked).toEqual([{ type: "due" }]);
  });

  it("the event rides in the join's own batch: when its delivery cannot be stored, the join is not stored either", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await env.DB.exec(
      "create trigger test_refuse_delivery before insert on hwh_webhook_deliveries begin select raise(abort, 'refused'); end",
    );
    try {
      const email = uniqueEmail("all-or-nothing");
      const { response } = await join({ email, source: "hero" });
      expect(response.status).toBe(500);
      expect(await repo.findWaitlistEntry(email)).toBeUndefined();
      expect(await eventsAbout(email)).toEqual([]);
    } finally {
      await env.DB.exec("drop trigger test_refuse_delivery");
    }
    expect(errors).toHaveBeenCalled();
  });

  it("a re-join of the same address (the 409 duplicate, or an entry not notified yet) stores nothing twice", async () => {
    const email = uniqueEmail("rejoin");
    const first = await join({ email, source: "hero" });
    expect(first.response.status).toBe(201);
    await join({ email, source: "footer" });
    await join({ email, source: "footer" });
    const events = await eventsAbout(email);
    expect(events.map((e) => e.type)).toEqual(["waitlist.joined"]);
    expect(await rows("select id from hwh_webhook_deliveries where event_id = ?", events[0]!.id)).toHaveLength(2);
  });

  it("no endpoint wants it: nothing is stored (no copy of the person for nobody)", async () => {
    await rows("update hwh_webhook_endpoints set events = '[\"contact.received\"]' where id in (?, ?)", everything, joinsOnly);
    try {
      const email = uniqueEmail("nobody");
      await join({ email, source: "hero" });
      expect(await eventsAbout(email)).toEqual([]);
    } finally {
      await rows(
        "update hwh_webhook_endpoints set events = case id when ? then ? else ? end where id in (?, ?)",
        everything,
        JSON.stringify(["waitlist.joined", "waitlist.confirmed", "referral.confirmed"]),
        JSON.stringify(["waitlist.joined"]),
        everything,
        joinsOnly,
      );
    }
  });
});

describe("waitlist.confirmed and referral.confirmed", () => {
  it("a confirmation stores waitlist.confirmed with the place GET /api/me shows, for the endpoints that want it (a disabled one's waits), once however often it is confirmed", async () => {
    const email = uniqueEmail("confirmed");
    const { entry } = await join({ email, source: "cta" });
    const first = await confirm(entry);
    expect(first.outcome.outcome).toBe("confirmed");
    expect(first.kicked).toEqual([{ type: "due" }]);
    const after = (await repo.findWaitlistEntry(email))!;
    const { event, data, deliveries } = await theEvent("waitlist.confirmed", entry.id);
    expect(event.person).toBe(email);
    const journey = await journeyOf(kicks().deps(), email);
    expect(data).toMatchObject({ email, status: "confirmed", place: journey.position, confirmed_at: after.confirmedAt, source: "cta" });
    expect(typeof data.place).toBe("number");
    expect(deliveries.map((d) => [d.endpoint_id, d.status])).toEqual([
      [everything, "pending"],
      [paused, "pending"],
    ]);
    expect((await confirm(entry)).outcome.outcome).toBe("already");
    expect((await eventsAbout(email)).map((e) => e.type)).toEqual(["waitlist.joined", "waitlist.confirmed"]);
  });

  it("a friend's confirmation that credits the referrer stores referral.confirmed: the referrer's address, code, new place and confirmed referrals", async () => {
    const referrerEmail = uniqueEmail("referrer");
    const { entry: referrerEntry } = await join({ email: referrerEmail });
    await confirm(referrerEntry);
    const referrer = (await repo.findWaitlistEntry(referrerEmail))!;
    const friendEmail = uniqueEmail("friend");
    const { entry: friend } = await join({ email: friendEmail, ref: referrer.referralCode });
    await confirm(friend);
    const moved = (await repo.findWaitlistEntry(referrerEmail))!;
    expect(moved.referralsConfirmed).toBe(1);
    const { event, data, deliveries } = await theEvent("referral.confirmed", friend.id);
    expect(event.person).toBe(referrerEmail);
    expect(data).toEqual({
      referrer: {
        email: referrerEmail,
        referral_code: referrer.referralCode,
        place: (await journeyOf(kicks().deps(), referrerEmail)).position,
        referrals_confirmed: 1,
      },
    });
    expect(deliveries.map((d) => d.endpoint_id)).toEqual([everything]);
    // The friend's events name the friend only.
    expect((await eventsAbout(friendEmail)).map((e) => e.type)).toEqual(["waitlist.joined", "waitlist.confirmed"]);
  });

  it("a confirmation that credits nobody (no referral) stores no referral.confirmed", async () => {
    const email = uniqueEmail("alone");
    const { entry } = await join({ email });
    await confirm(entry);
    expect(await rows("select id from hwh_webhook_events where key = ?", `referral.confirmed:${entry.id}`)).toEqual([]);
  });

  it("with double opt-in off, a join confirmed at once stores waitlist.joined then waitlist.confirmed (both as the batch left the entry), in the join's one batch", async () => {
    const email = uniqueEmail("at-once");
    const counting = countingDatabase();
    const { response, entry, kicked } = await join({ email, source: "hero" }, { DB: counting.db, WAITLIST_DOUBLE_OPT_IN: "false" });
    expect(response.status).toBe(201);
    // The join's one batch, then the consent's renewal a join confirmed here makes after it (as before issue 25).
    expect(counting.calls()).toBe(2);
    const joined = await theEvent("waitlist.joined", entry.id);
    const confirmed = await theEvent("waitlist.confirmed", entry.id);
    expect(joined.event.id).toBeLessThan(confirmed.event.id);
    for (const { data } of [joined, confirmed]) expect(data).toMatchObject({ email, status: "confirmed", confirmed_at: entry.confirmedAt });
    expect(typeof confirmed.data.place).toBe("number");
    expect(kicked).toEqual([{ type: "due" }]);
  });
});
