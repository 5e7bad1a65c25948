// Webhook events stored by the writers' own batches (worker/features/webhooks/queries/record.ts),
// shared by the D1 and libSQL test files.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newReferralCode } from "../../worker/features/referrals/code";
import type { WaitingJoin } from "../../worker/features/waitlist/queries/join";
import type { JoinJourney } from "../../worker/repository";
import type { TestRepository } from "./records";
import { at, endpoint, events, fanOut, only, t0 } from "./webhooks-repository";

/**
 * Issue 25 §2-3 in the statements each writer adds to its batch, on D1 in workerd and on libSQL in
 * Node: an event is stored once per key however often its writer runs, with one pending delivery
 * per endpoint whose events name its type (enabled or not), webhook_id msg_<uid>_<endpoint id>;
 * the payload is worker/shared/webhooks.ts' WebhookData; nothing is stored for nobody, for an
 * entry on behalf of a child, or from a parent a child's request waits for.
 */
export function webhooksRepositorySuite(driver: string, fresh: () => Promise<TestRepository>) {
  const claim = (ms: number) => ({ now: at(ms), lockMs: 60_000 });
  const cap = (key: string) => ({ key: `cap:${key}`, window: { start: 0, end: 4_102_444_800 }, max: 9 });
  const journey = (key: string, ref: string | null, ms: number): JoinJourney => ({
    kind: "confirm",
    mailboxKey: key,
    ref,
    referralJoin: crypto.randomUUID(),
    mail: { claim: crypto.randomUUID(), now: at(ms), lockMs: 60_000, origin: "http://site.test" },
    cap: cap(key),
  });
  const confirmWrite = (key: string, ms: number) => ({
    claim: crypto.randomUUID(),
    at: at(ms),
    referralCode: newReferralCode(),
    boost: 5,
    mailboxKey: key,
    pairKey: `pair:${key}`,
    network: `net-${key}`,
    referral: "join" as const,
  });
  const attribution = { utm_source: "tiktok", utm_medium: "video", utm_campaign: "launch", referrer_host: "www.tiktok.com" };

  /** Joins `email` (pending), then confirms it at `ms + 1`: the entry as stored. */
  async function joinAndConfirm(repo: TestRepository, email: string, ref: string | null, ms: number) {
    const joined = await repo.waitlist.join(
      { email, source: "hero", ageBand: "18_plus", ...attribution },
      claim(ms),
      journey(email, ref, ms),
    );
    await repo.waitlist.confirm(joined.current!, confirmWrite(email, ms + 1));
    return (await repo.waitlist.entryByEmail(email))!;
  }

  describe(`webhook events stored with their change (${driver})`, () => {
    it("a join stores waitlist.joined once, however often it is joined again, delivered once to each endpoint wanting it, enabled or not", async () => {
      const repo = await fresh();
      const joins = await endpoint(repo, "joins", ["waitlist.joined"]);
      const paused = await endpoint(repo, "paused", ["waitlist.joined", "waitlist.confirmed"], false);
      await endpoint(repo, "contacts", ["contact.received"]);
      for (const ms of [0, 10, 20]) {
        await repo.waitlist.join(
          { email: "ada@example.com", source: "hero", ageBand: "18_plus", ...attribution },
          claim(ms),
          journey("ada", null, ms),
        );
      }
      const entry = (await repo.waitlist.entryByEmail("ada@example.com"))!;
      const event = await only(repo, "waitlist.joined");
      expect(event).toMatchObject({ key: `waitlist.joined:${entry.id}`, person: "ada@example.com", createdAt: t0.toISOString() });
      expect(event.uid).toMatch(/^[0-9a-f]{24}$/);
      expect(event.data).toEqual({
        email: "ada@example.com",
        status: "pending",
        place: null,
        joined_at: t0.toISOString(),
        confirmed_at: null,
        source: "hero",
        ...attribution,
      });
      expect(await fanOut(repo, event.id)).toEqual([
        { endpoint: joins, webhookId: `msg_${event.uid}_${joins}`, status: "pending" },
        { endpoint: paused, webhookId: `msg_${event.uid}_${paused}`, status: "pending" },
      ]);
      expect(await events(repo)).toHaveLength(1);
    });

    it("the joins queue's batch stores waitlist.joined (and, confirmed at once, waitlist.confirmed) once per entry, however often it is delivered", async () => {
      const repo = await fresh();
      const joins = await endpoint(repo, "joins", ["waitlist.joined", "waitlist.confirmed"]);
      const waiting = (email: string): WaitingJoin => ({
        email,
        source: "hero",
        ...attribution,
        ageBand: "18_plus",
        country: "GB",
        at: at(-5_000),
        mailboxKey: `key-${email}`,
        capKey: `cap:key-${email}`,
        ref: null,
        referralJoin: `join-${email}`,
        origin: "https://example.test",
      });
      const batch = (ms: number) => ({
        claim: { now: at(ms), lockMs: 60_000 },
        mail: { claim: crypto.randomUUID(), now: at(ms), lockMs: 60_000 },
        cap: { window: { start: 0, end: 4_102_444_800 }, max: 9 },
      });
      // b with double opt-in off: confirmed in the same batch (the redelivered message carries the same write).
      const b = { ...waiting("b@example.com"), confirm: confirmWrite("b@example.com", 0) };
      for (const ms of [0, 1_000]) await repo.waitlist.joinWaiting([waiting("a@example.com"), b], batch(ms));
      const joined = await events(repo);
      expect(joined.map((row) => [row.type, row.person, row.createdAt])).toEqual([
        ["waitlist.joined", "a@example.com", t0.toISOString()],
        ["waitlist.joined", "b@example.com", t0.toISOString()],
        ["waitlist.confirmed", "b@example.com", t0.toISOString()],
      ]);
      expect(joined[2]!.data).toMatchObject({ status: "confirmed", place: 1, confirmed_at: t0.toISOString() });
      expect(joined[0]!.data).toMatchObject({ status: "pending", place: null, joined_at: at(-5_000).toISOString(), source: "hero" });
      for (const event of joined) expect((await fanOut(repo, event.id)).map((row) => row.endpoint)).toEqual([joins]);
    });

    it("nothing is stored when no endpoint wants the type (a malformed events list names none)", async () => {
      const repo = await fresh();
      await endpoint(repo, "contacts", ["contact.received"]);
      const broken = await endpoint(repo, "broken", ["waitlist.joined"]);
      await repo.execute(sql`update hwh_webhook_endpoints set events = '["waitlist.joined"' where id = ${broken}`);
      await joinAndConfirm(repo, "ada@example.com", null, 0);
      expect(await events(repo)).toEqual([]);
      expect((await repo.webhooks.endpoints()).map((row) => [row.pending, row.dead])).toEqual([
        [0, 0],
        [0, 0],
      ]);
    });

    it("a confirmation stores waitlist.confirmed with its place, once; a friend's stores referral.confirmed with the referrer's new place", async () => {
      const repo = await fresh();
      const all = await endpoint(repo, "all", ["waitlist.joined", "waitlist.confirmed", "referral.confirmed"]);
      const referrals = await endpoint(repo, "referrals", ["referral.confirmed"]);
      await joinAndConfirm(repo, "first@example.com", null, 0);
      const referrer = await joinAndConfirm(repo, "referrer@example.com", null, 10);
      const friend = await joinAndConfirm(repo, "friend@example.com", referrer.referralCode, 20);
      // The same confirmation again (a second click): nothing more.
      await repo.waitlist.confirm(friend, confirmWrite("friend@example.com", 30));

      const confirmed = (await events(repo)).filter((row) => row.type === "waitlist.confirmed");
      expect(confirmed.map((row) => [row.person, row.data.status, row.data.place])).toEqual([
        ["first@example.com", "confirmed", 1],
        ["referrer@example.com", "confirmed", 2],
        ["friend@example.com", "confirmed", 3],
      ]);
      expect(confirmed[2]!.data).toMatchObject({ confirmed_at: at(21).toISOString(), joined_at: at(20).toISOString() });
      const credit = await only(repo, "referral.confirmed");
      const referrerNow = (await repo.waitlist.entryByEmail(referrer.email))!;
      expect(credit).toMatchObject({ key: `referral.confirmed:${friend.id}`, person: referrer.email });
      expect(credit.data).toEqual({
        referrer: { email: referrer.email, referral_code: referrer.referralCode, place: 1, referrals_confirmed: 1 },
      });
      expect(referrerNow.referralsConfirmed).toBe(1);
      expect((await fanOut(repo, credit.id)).map((row) => row.endpoint)).toEqual([all, referrals]);
      expect((await fanOut(repo, confirmed[2]!.id)).map((row) => row.endpoint)).toEqual([all]);
      expect(await events(repo)).toHaveLength(7);
    });

    it("a contact message stores contact.received (form, address, name, message, time) for each submission", async () => {
      const repo = await fresh();
      const contacts = await endpoint(repo, "contacts", ["contact.received"]);
      const data = { name: "Ada Lovelace", email: "ada@example.com", message: "When do you launch?" };
      const { submission } = await repo.contact.insert("Contact Form", data, claim(5), {
        slug: "contact",
        sender: { email: data.email, mailbox: "" },
      });
      // A form that is no contact message (no slug): no event.
      await repo.contact.insert("Other Form", data, claim(6));
      const event = await only(repo, "contact.received");
      expect(event).toMatchObject({ key: `contact.received:${submission.id}`, person: "ada@example.com" });
      expect(event.data).toEqual({
        form: "contact",
        email: "ada@example.com",
        name: "Ada Lovelace",
        message: "When do you launch?",
        received_at: at(5).toISOString(),
      });
      expect(await fanOut(repo, event.id)).toEqual([{ endpoint: contacts, webhookId: `msg_${event.uid}_${contacts}`, status: "pending" }]);
    });

    it("a campaign's finish stores campaign.finished with its counts, once however often finishIfDone runs", async () => {
      const repo = await fresh();
      const ops = await endpoint(repo, "ops", ["campaign.finished"]);
      await joinAndConfirm(repo, "a@example.com", null, 0);
      await joinAndConfirm(repo, "b@example.com", null, 10);
      const draft = await repo.campaigns.create({ subject: "News", body: "Hello.", audience: { kind: "all" } }, "ops@example.com", t0);
      const sending = (await repo.campaignDelivery.transition(draft.id, ["draft"], "sending", t0, { startedAt: t0.toISOString() }))!;
      expect((await repo.campaignDelivery.expandChunk(sending, 10, at(100))).done).toBe(true);
      const [first, second] = await repo.campaignDelivery.rowsOf(draft.id);
      const held = async (id: number) => (await repo.campaignDelivery.claim(id, draft.id, `c-${id}`, at(200), 60_000))!.recipient;
      await repo.campaignDelivery.markSent(await held(first!.id), at(300));
      await repo.campaignDelivery.markSkipped(await held(second!.id), "unsubscribed", at(300));
      expect(await repo.campaignDelivery.finishIfDone(draft.id, at(400))).toMatchObject({ status: "sent" });
      expect(await repo.campaignDelivery.finishIfDone(draft.id, at(500))).toBeNull();
      const event = await only(repo, "campaign.finished");
      expect(event).toMatchObject({ key: `campaign.finished:${draft.id}`, person: null });
      expect(event.data).toEqual({
        campaign_id: draft.id,
        name: "News",
        sent: 1,
        skipped: 1,
        failed: 0,
        finished_at: at(400).toISOString(),
      });
      expect((await fanOut(repo, event.id)).map((row) => row.endpoint)).toEqual([ops]);
    });

    it("nothing is stored for an entry on behalf of a child, nor for a parent a child's request waits for, whatever variant of the address writes", async () => {
      const repo = await fresh();
      await endpoint(repo, "all", ["waitlist.joined", "waitlist.confirmed", "referral.confirmed", "contact.received"]);
      const referrer = await joinAndConfirm(repo, "referrer@example.com", null, 0);
      const before = (await events(repo)).length;
      const child = { ageBand: "under_13" as const, country: "GB", onBehalfOfChild: true, parentalConsentAt: at(5) };
      await repo.waitlist.join({ email: "parent@example.com", source: "hero", ...child }, claim(10), {
        ...journey("parent", referrer.referralCode, 10),
        kind: "welcome",
        confirm: confirmWrite("parent", 10),
      });
      expect((await repo.waitlist.entryByEmail("parent@example.com"))!).toMatchObject({ onBehalfOfChild: true });
      expect(
        await repo.parents.ask(
          { parentEmail: "asked@example.com", mailboxKey: "asked", ageBand: "under_13", country: "GB", nonce: "n", origin: "" },
          cap("asked"),
          { claim: "ask-1", now: at(20), lockMs: 60_000 },
        ),
      ).not.toBeNull();
      const parentKey = (await repo.waitlist.entryByEmail("parent@example.com"))!.mailboxKey;
      expect(parentKey).not.toBe("");
      // The addresses themselves, then variants of them (a +tag, another case): their mailbox keys are the same.
      const writers = [
        { email: "parent@example.com", mailbox: "" },
        { email: "asked@example.com", mailbox: "" },
        { email: "Parent+kids@example.com", mailbox: parentKey },
        { email: "ASKED+x@example.com", mailbox: "asked" },
      ];
      for (const sender of writers) {
        const message = { name: "P", email: sender.email, message: "About my child" };
        await repo.contact.insert("Contact Form", message, claim(30), { slug: "contact", sender });
      }
      expect((await events(repo)).length).toBe(before);
      expect((await events(repo)).filter((row) => row.person !== referrer.email)).toEqual([]);
    });
  });
}
