import { describe, expect, it } from "vitest";
import type { JoinJourney } from "../../worker/repository";
import type { Campaign, WaitlistEntry } from "../../worker/platform/db/schema";
import type { CampaignAudience } from "../../worker/shared/campaigns";
import { newReferralCode } from "../../worker/features/referrals/code";
import type { TestRepository } from "./records";

/**
 * Launch day's delivery queries (worker/features/campaigns/queries/delivery.ts and
 * campaign-state-repository.ts), run once on D1 inside workerd and once on libSQL in Node.
 * `fresh()` gives a repository on an empty waitlist; campaign rows may remain from other cases
 * (D1), so each case names its own campaign and its own mailbox keys.
 */
export function campaignRepositorySuite(driver: string, fresh: () => Promise<TestRepository>) {
  const t0 = new Date("2026-06-01T10:00:00.000Z");
  const at = (ms: number) => new Date(t0.getTime() + ms);
  let keys = 0;

  /** A confirmed entry (joined and confirmed at once), with a mailbox key of its own. */
  async function confirmed(
    repo: TestRepository,
    tag: string,
    utmSource: string | null = null,
    mailboxKey?: string,
  ): Promise<WaitlistEntry> {
    keys += 1;
    const key = mailboxKey ?? `${driver}-${tag}-${keys}-${crypto.randomUUID()}`;
    const journey: JoinJourney = {
      kind: "welcome",
      mailboxKey: key,
      ref: null,
      referralJoin: crypto.randomUUID(),
      mail: { claim: crypto.randomUUID(), now: t0, lockMs: 60_000, origin: "http://site.test" },
      cap: { key: `welcome:${key}`, window: { start: 0, end: 86_400 }, max: 3 },
      confirm: {
        claim: crypto.randomUUID(),
        at: t0,
        referralCode: newReferralCode(),
        boost: 5,
        mailboxKey: key,
        pairKey: `pair:${key}`,
        network: null,
        referral: "join",
      },
    };
    const result = await repo.waitlist.join(
      { email: `${tag}-${keys}@example.com`, source: null, utm_source: utmSource },
      { now: t0, lockMs: 60_000 },
      journey,
    );
    return result.current!;
  }

  async function pending(repo: TestRepository, tag: string): Promise<void> {
    await repo.waitlist.join({ email: `${tag}@example.com`, source: null }, { now: t0, lockMs: 60_000 });
  }

  /** A campaign, created as a draft and moved to sending as startCampaign does. */
  async function sending(repo: TestRepository, audience: CampaignAudience): Promise<Campaign> {
    const draft = await repo.campaigns.create({ subject: "Hello", body: "We open today.", audience }, "ops@example.com", t0);
    return (await repo.campaignDelivery.transition(draft.id, ["draft"], "sending", t0, { startedAt: t0.toISOString() }))!;
  }

  async function expandAll(repo: TestRepository, id: number, chunk: number): Promise<number[][]> {
    const steps: number[][] = [];
    for (let i = 0; i < 50; i += 1) {
      const campaign = (await repo.campaignDelivery.campaign(id))!;
      if (campaign.expandedAt) break;
      steps.push((await repo.campaignDelivery.expandChunk(campaign, chunk, at(i))).recipientIds);
    }
    return steps;
  }

  const claim = (repo: TestRepository, c: Campaign, recipientId: number, ms = 0) =>
    repo.campaignDelivery.claim(recipientId, c.id, crypto.randomUUID(), at(ms), 60_000);

  describe(`campaign delivery repository on ${driver}`, () => {
    it("expands 'all' to every confirmed entry in chunks from the cursor, then marks it expanded (pending entries are not in it)", async () => {
      const repo = await fresh();
      const entries = [];
      for (let i = 0; i < 5; i += 1) entries.push(await confirmed(repo, "all"));
      await pending(repo, `pending-${driver}-${keys}`);
      const c = await sending(repo, { kind: "all" });
      const steps = await expandAll(repo, c.id, 2);
      expect(steps.map((ids) => ids.length)).toEqual([2, 2, 1]);
      const after = (await repo.campaignDelivery.campaign(c.id))!;
      expect(after).toMatchObject({ audienceSize: 5, expandCursor: String(entries[4]!.id) });
      expect(after.expandedAt).not.toBeNull();
      // Announcements invite nobody.
      expect((await repo.waitlist.entryById(entries[0]!.id))!.invitedAt).toBeNull();
    });

    it("a step with a stale view of the campaign (a redelivered message, a racing consumer) writes nothing", async () => {
      const repo = await fresh();
      for (let i = 0; i < 3; i += 1) await confirmed(repo, "race");
      const c = await sending(repo, { kind: "all" });
      const first = await repo.campaignDelivery.expandChunk(c, 2, t0);
      const again = await repo.campaignDelivery.expandChunk(c, 2, t0);
      expect(first.recipientIds).toHaveLength(2);
      expect(again).toEqual({ recipientIds: [], done: false });
      expect((await repo.campaignDelivery.campaign(c.id))!.audienceSize).toBe(2);
      // The next step (fresh view) resumes after the cursor: the third entry, and done.
      const next = await repo.campaignDelivery.expandChunk((await repo.campaignDelivery.campaign(c.id))!, 2, t0);
      expect(next).toMatchObject({ done: true });
      expect(next.recipientIds).toHaveLength(1);
    });

    it("a wave takes the first N uninvited by place, stores each place, marks them invited; the next wave continues down the line", async () => {
      const repo = await fresh();
      const entries = [];
      for (let i = 0; i < 5; i += 1) entries.push(await confirmed(repo, "wave"));
      const first = await sending(repo, { kind: "wave", size: 2 });
      await expandAll(repo, first.id, 5);
      const second = await sending(repo, { kind: "wave", size: 2 });
      await expandAll(repo, second.id, 1);
      const placesOf = async (id: number) => (await repo.campaignDelivery.rowsOf(id)).map((row) => row.place);
      expect(await placesOf(first.id)).toEqual([1, 2]);
      expect(await placesOf(second.id)).toEqual([3, 4]);
      const third = await repo.waitlist.entryById(entries[2]!.id);
      expect(third).toMatchObject({ invitedCampaignId: second.id });
      expect(third!.invitedAt).not.toBeNull();
      expect((await repo.waitlist.entryById(entries[4]!.id))!.invitedAt).toBeNull();
      expect((await repo.campaignDelivery.campaign(second.id))!.audienceSize).toBe(2);
    });

    it("utm_source narrows a wave; places still count everyone ahead", async () => {
      const repo = await fresh();
      await confirmed(repo, "utm", "tiktok");
      await confirmed(repo, "utm", "school");
      await confirmed(repo, "utm", "tiktok");
      const c = await sending(repo, { kind: "wave", size: 10, utm_source: "tiktok" });
      await expandAll(repo, c.id, 10);
      expect((await repo.campaignDelivery.rowsOf(c.id)).map((row) => row.place)).toEqual([1, 3]);
    });

    it("claims a queued row once; a lapsed claim is claimed again; a sent row never; a paused campaign's rows not at all", async () => {
      const repo = await fresh();
      const entry = await confirmed(repo, "claim");
      const c = await sending(repo, { kind: "all" });
      const [id] = (await repo.campaignDelivery.expandChunk(c, 10, t0)).recipientIds;
      const mine = await claim(repo, c, id!);
      expect(mine).toMatchObject({
        recipient: { status: "sending", attempts: 1 },
        campaign: { id: c.id, subject: c.subject },
        entry: { id: entry.id },
        suppressed: null,
      });
      expect(await claim(repo, c, id!, 1_000)).toBeNull();
      const lapsed = await claim(repo, c, id!, 61_000);
      expect(lapsed).toMatchObject({ recipient: { attempts: 2 } });
      // The first holder's claim is gone: its mark changes nothing.
      expect(await repo.campaignDelivery.markSent(mine!.recipient, at(62_000))).toBe(false);
      expect(await repo.campaignDelivery.markSent(lapsed!.recipient, at(62_000))).toBe(true);
      expect(await claim(repo, c, id!, 200_000)).toBeNull();

      await confirmed(repo, "claim");
      const d = await sending(repo, { kind: "all" });
      const [other] = (await repo.campaignDelivery.expandChunk(d, 10, t0)).recipientIds;
      await repo.campaignDelivery.transition(d.id, ["sending"], "paused", t0);
      expect(await claim(repo, d, other!)).toBeNull();
      expect((await repo.campaignDelivery.rowsOf(d.id))[0]).toMatchObject({ status: "queued" });
    });

    it("reads the entry's suppression in the claim (it left after the expansion), and an erased entry as none", async () => {
      const repo = await fresh();
      const kept = await confirmed(repo, "supp");
      const gone = await confirmed(repo, "gone");
      const c = await sending(repo, { kind: "all" });
      const ids = (await repo.campaignDelivery.expandChunk(c, 10, t0)).recipientIds;
      expect(ids).toHaveLength(2);
      await repo.consent.suppress({ mailboxKey: kept.mailboxKey, reason: "unsubscribed", source: "one-click", campaignId: null, now: t0 });
      await repo.waitlist.leave(gone.email);
      expect(await claim(repo, c, ids[0]!)).toMatchObject({ suppressed: "unsubscribed", entry: { id: kept.id } });
      expect(await claim(repo, c, ids[1]!)).toMatchObject({ entry: null });
    });

    it("the audience draws no suppressed mailbox and one entry per inbox (its first by place); entries without a key are each their own", async () => {
      const repo = await fresh();
      const tag = `inbox-${crypto.randomUUID().slice(0, 8)}`;
      const inbox = `${driver}-${tag}-shared`;
      const first = await confirmed(repo, tag, tag, inbox);
      const left = await confirmed(repo, tag, tag);
      await confirmed(repo, tag, tag, inbox);
      const old1 = await confirmed(repo, tag, tag, "");
      const old2 = await confirmed(repo, tag, tag, "");
      await repo.consent.suppress({ mailboxKey: left.mailboxKey, reason: "unsubscribed", source: "page", campaignId: null, now: t0 });
      const expected = [first.id, old1.id, old2.id];
      for (const audience of [
        { kind: "all", utm_source: tag },
        { kind: "wave", size: 10, utm_source: tag },
      ] as const) {
        expect(await repo.campaigns.audienceSize(audience)).toBe(3);
        const c = await sending(repo, audience);
        await expandAll(repo, c.id, 2);
        expect((await repo.campaignDelivery.rowsOf(c.id)).map((row) => row.entryId)).toEqual(expected);
        expect((await repo.campaignDelivery.campaign(c.id))!.audienceSize).toBe(3);
      }
      // A wave of one takes the first sendable entry, not a suppressed one ahead of it.
      await repo.consent.suppress({ mailboxKey: inbox, reason: "unsubscribed", source: "page", campaignId: null, now: t0 });
      expect(await repo.campaigns.audienceSize({ kind: "all", utm_source: tag })).toBe(2);
    });

    it("a row skipped as unsubscribed takes back its wave's invitation, so the next wave draws the entry after Subscribe again", async () => {
      const repo = await fresh();
      const tag = `uninvite-${crypto.randomUUID().slice(0, 8)}`;
      const entry = await confirmed(repo, tag, tag);
      const c = await sending(repo, { kind: "wave", size: 1, utm_source: tag });
      const [id] = (await repo.campaignDelivery.expandChunk(c, 10, t0)).recipientIds;
      expect((await repo.waitlist.entryById(entry.id))!.invitedCampaignId).toBe(c.id);
      await repo.consent.suppress({ mailboxKey: entry.mailboxKey, reason: "unsubscribed", source: "page", campaignId: null, now: t0 });
      const held = await claim(repo, c, id!);
      expect(held).toMatchObject({ suppressed: "unsubscribed" });
      // Another holder's skip (a lost claim) changes nothing.
      await repo.campaignDelivery.markSkipped({ ...held!.recipient, claim: "not-mine" }, "unsubscribed", at(1_000));
      expect((await repo.waitlist.entryById(entry.id))!.invitedCampaignId).toBe(c.id);
      await repo.campaignDelivery.markSkipped(held!.recipient, "unsubscribed", at(1_000));
      expect(await repo.waitlist.entryById(entry.id)).toMatchObject({ invitedAt: null, invitedCampaignId: null });
      await repo.consent.resubscribe({ mailboxKey: entry.mailboxKey, now: at(2_000), event: "resubscribed", source: "me" });
      const next = await sending(repo, { kind: "wave", size: 5, utm_source: tag });
      await expandAll(repo, next.id, 10);
      expect((await repo.campaignDelivery.rowsOf(next.id)).map((row) => row.entryId)).toEqual([entry.id]);
    });

    it("a dead letter leaves a row held by a live claim alone (its send goes on, Retry finds nothing); a lapsed claim's row fails", async () => {
      const repo = await fresh();
      for (let i = 0; i < 2; i += 1) await confirmed(repo, "dlq");
      const c = await sending(repo, { kind: "all" });
      const [a, b] = (await repo.campaignDelivery.expandChunk(c, 10, t0)).recipientIds;
      const live = await claim(repo, c, a!);
      await repo.campaignDelivery.markDeadLettered(c.id, a!, at(1_000));
      expect((await repo.campaignDelivery.rowsOf(c.id))[0]).toMatchObject({ status: "sending", deadLetteredAt: null });
      expect(await repo.campaignDelivery.markSent(live!.recipient, at(2_000))).toBe(true);
      await repo.campaignDelivery.markDeadLettered(c.id, a!, at(3_000));
      expect(await repo.campaignDelivery.requeueDeadLetters(c.id, undefined, at(4_000))).toEqual([]);
      expect((await repo.campaignDelivery.rowsOf(c.id))[0]).toMatchObject({ status: "sent", deadLetteredAt: null });
      await claim(repo, c, b!);
      await repo.campaignDelivery.markDeadLettered(c.id, b!, at(61_000));
      expect((await repo.campaignDelivery.rowsOf(c.id))[1]).toMatchObject({ status: "failed" });
    });

    it("counts progress by status, the sent of the last minute and dead letters; ends the campaign once nothing is left", async () => {
      const repo = await fresh();
      for (let i = 0; i < 4; i += 1) await confirmed(repo, "progress");
      const c = await sending(repo, { kind: "all" });
      const ids = (await repo.campaignDelivery.expandChunk(c, 10, t0)).recipientIds;
      const [a, b, d] = await Promise.all(ids.slice(0, 3).map((id) => claim(repo, c, id)));
      await repo.campaignDelivery.markSent(a!.recipient, at(1_000));
      await repo.campaignDelivery.markSkipped(b!.recipient, "unsubscribed", at(1_000));
      // The dead letter arrives after the claim's lease lapsed (a live claim is left alone).
      await repo.campaignDelivery.markDeadLettered(c.id, d!.recipient.id, at(61_000));
      expect(await repo.campaignDelivery.progressCounts(c.id, at(30_000))).toEqual({
        counts: { queued: 1, sending: 0, sent: 1, failed: 1, skipped: 1 },
        sentLastMinute: 1,
        deadLettered: 1,
        cancelled: 0,
      });
      expect((await repo.campaignDelivery.progressCounts(c.id, at(90_000))).sentLastMinute).toBe(0);
      expect(await repo.campaignDelivery.finishIfDone(c.id, at(2_000))).toBeNull();
      const last = await claim(repo, c, ids[3]!);
      await repo.campaignDelivery.markSent(last!.recipient, at(3_000));
      expect(await repo.campaignDelivery.finishIfDone(c.id, at(3_000))).toMatchObject({
        status: "sent",
        finishedAt: at(3_000).toISOString(),
      });
      // Retry of the dead letter: back to queued, attempts start over.
      expect(await repo.campaignDelivery.requeueDeadLetters(c.id, undefined, at(4_000))).toEqual([d!.recipient.id]);
      expect((await repo.campaignDelivery.rowsOf(c.id)).find((row) => row.id === d!.recipient.id)).toMatchObject({
        status: "queued",
        attempts: 0,
        deadLetteredAt: null,
      });
    });

    it("cancel skips the queued rows and un-invites a wave's unsent entries, keeping the sent ones invited", async () => {
      const repo = await fresh();
      const entries = [];
      for (let i = 0; i < 3; i += 1) entries.push(await confirmed(repo, "cancel"));
      const c = await sending(repo, { kind: "wave", size: 3 });
      const ids = (await repo.campaignDelivery.expandChunk(c, 10, t0)).recipientIds;
      const sent = await claim(repo, c, ids[0]!);
      await repo.campaignDelivery.markSent(sent!.recipient, t0);
      expect(await repo.campaignDelivery.cancel(c.id, at(1_000))).toMatchObject({ status: "cancelled" });
      expect((await repo.campaignDelivery.rowsOf(c.id)).map((row) => [row.status, row.skipReason])).toEqual([
        ["sent", null],
        ["skipped", "cancelled"],
        ["skipped", "cancelled"],
      ]);
      expect((await repo.waitlist.entryById(entries[0]!.id))!.invitedCampaignId).toBe(c.id);
      expect((await repo.waitlist.entryById(entries[1]!.id))!.invitedAt).toBeNull();
      expect(await repo.campaignDelivery.cancel(c.id, at(2_000))).toBeNull();
    });
  });
}
