import { describe, expect, it } from "vitest";
import { confirmedJoin as join } from "./confirmed-join";
import type { TestRepository } from "./records";
import { parentalOutcomes, parentalRequests, retentionDeletions, waitlist } from "../../worker/platform/db/schema";

/**
 * The operator's side of the joiner's journey (worker/features/operator/queries/journey.ts), run on D1 in workerd
 * and on libSQL in Node like the repository suite: the stats' confirmation and referral figures,
 * each listed entry's place (one statement per page, agreeing with the journey's own placeOf),
 * the person look-up's place, and the erasure of the joiner mails with the entry.
 */
export function adminJourneySuite(driver: string, fresh: () => Promise<TestRepository>) {
  const t0 = new Date("2026-03-01T10:00:00.000Z");
  const at = (ms: number) => new Date(t0.getTime() + ms);
  const LOCK_MS = 60_000;
  const BOOST = 5;
  const claim = () => crypto.randomUUID();

  type Joiner = { email: string; code?: string; ref?: string; network?: string; mailbox?: string };

  /** A join confirmed at once (test/support/confirmed-join.ts), keyed by its address unless told. */
  async function confirmedJoin(repo: TestRepository, ms: number, joiner: Joiner) {
    const { email, ref, network } = joiner;
    const referralCode = joiner.code ?? `C${String(ms).padStart(7, "0")}`;
    await join(repo, at(ms), { email, ref, network, referralCode, boost: BOOST, mailboxKey: joiner.mailbox ?? email });
  }

  /**
   * A line with boosts, a tie and a self-referral. Confirmed in this order (confirm_seq):
   * 1 a, 2 b, 3-7 f1..f5 (a's friends from net-1), 8 h, 9 f6 (a's friend from net-2),
   * 10 s (a's own mailbox through a's link, from net-1: never counts), 11 g (h's friend, net-1);
   * then p1 (with a's code) and p2 join and stay pending. a: 6 referrals, rank 2 - 11 - 50; h: 1,
   * rank 2 x 8 - 11 = 5: moved up exactly 5 places, just before f1 (rank 6), whose standing it reached.
   */
  async function seed(repo: TestRepository) {
    const A = "AAAA2222";
    await confirmedJoin(repo, 1000, { email: "a@x.test", code: A });
    await confirmedJoin(repo, 2000, { email: "b@x.test", code: "BBBB2222" });
    for (let i = 1; i <= 5; i++) await confirmedJoin(repo, 2000 + i * 1000, { email: `f${i}@x.test`, ref: A, network: "net-1" });
    await confirmedJoin(repo, 8000, { email: "h@x.test", code: "HHHH2222" });
    await confirmedJoin(repo, 9000, { email: "f6@x.test", ref: A, network: "net-2" });
    await confirmedJoin(repo, 10_000, { email: "s@x.test", ref: A, network: "net-1", mailbox: "a@x.test" });
    await confirmedJoin(repo, 11_000, { email: "g@x.test", ref: "HHHH2222", network: "net-1" });
    await repo.waitlist.join(
      { email: "p1@x.test", source: null },
      { now: at(12_000), lockMs: LOCK_MS },
      {
        kind: "confirm",
        mailboxKey: "p1@x.test",
        ref: A,
        referralJoin: claim(),
        mail: { claim: claim(), now: at(12_000), lockMs: LOCK_MS, origin: "https://x.test" },
        cap: { key: "confirm-mail:p1", window: { start: t0.getTime() / 1000, end: t0.getTime() / 1000 + 86_400 }, max: 3 },
      },
    );
    await repo.waitlist.join({ email: "p2@x.test", source: null }, { now: at(13_000), lockMs: LOCK_MS });
  }

  /** Every entry's place as the journey computes it for one person (two counts each). */
  const LINE = ["a", "b", "h", "f1", "f2", "f3", "f4", "f5", "f6", "s", "g"].map((name) => `${name}@x.test`);

  describe(`operator journey figures on ${driver}`, () => {
    it("stats: pending and confirmed, the confirmation rate, confirmed referrals, the viral coefficient, top and flagged referrers", async () => {
      const repo = await fresh();
      const empty = await repo.operator.stats(t0, { networkFlag: 5 });
      expect(empty.waitlist).toMatchObject({ total: 0, pending: 0, confirmed: 0, confirmationRate: 0 });
      expect(empty.referrals).toEqual({ confirmed: 0, viralCoefficient: 0, top: [], flagged: [], flagAt: 5 });

      await seed(repo);
      const stats = await repo.operator.stats(at(20_000), { networkFlag: 5 });
      expect(stats.waitlist).toMatchObject({ total: 13, pending: 2, confirmed: 11, confirmationRate: 11 / 13 });
      // a's six (its own mailbox's confirmation never counted) and h's one.
      expect(stats.referrals.confirmed).toBe(7);
      expect(stats.referrals.viralCoefficient).toBeCloseTo(7 / 11, 10);
      expect(stats.referrals.top).toEqual([
        { email: "a@x.test", code: "AAAA2222", referrals: 6 },
        { email: "h@x.test", code: "HHHH2222", referrals: 1 },
      ]);
      // Five of a's confirmed friends came from net-1 (s, its own mailbox, is not counted there
      // either); g on net-1 is h's only one. The network itself is never in the answer.
      expect(stats.referrals.flagged).toEqual([{ email: "a@x.test", code: "AAAA2222", referrals: 6, fromOneNetwork: 5 }]);
      expect(JSON.stringify(stats)).not.toContain("net-1");
      expect((await repo.operator.stats(at(20_000), { networkFlag: 6 })).referrals).toMatchObject({ flagged: [], flagAt: 6 });
      expect((await repo.operator.stats(at(20_000), { networkFlag: 1 })).referrals.flagged).toEqual([
        { email: "a@x.test", code: "AAAA2222", referrals: 6, fromOneNetwork: 5 },
        { email: "h@x.test", code: "HHHH2222", referrals: 1, fromOneNetwork: 1 },
      ]);
    });

    it("lists each entry with its place (boosts of exactly REFERRAL_BOOST places; pending none), the same on every page and as placeOf", async () => {
      const repo = await fresh();
      await seed(repo);
      const all = await repo.operator.listWaitlist({ q: "", limit: 50, after: null });
      expect(all.map((e) => e.email)).toEqual(["p2@x.test", "p1@x.test", ...[...LINE].sort((x, y) => order(y) - order(x))]);
      const placeOf = new Map(all.map((e) => [e.email, e.place]));
      expect(LINE.map((email) => placeOf.get(email))).toEqual(LINE.map((_, i) => i + 1));
      expect(placeOf.get("p1@x.test")).toBeNull();
      expect(placeOf.get("p2@x.test")).toBeNull();
      for (const entry of all) expect(entry.place).toBe(await repo.waitlist.placeOf(entry));

      // Pages of three: each page's places are the line's, whatever else the page holds.
      const paged: (number | null)[] = [];
      let after: { createdAt: string; id: number } | null = null;
      for (;;) {
        const rows = await repo.operator.listWaitlist({ q: "", limit: 3, after });
        paged.push(...rows.map((e) => e.place));
        const last = rows.at(-1);
        if (rows.length < 3 || !last) break;
        after = { createdAt: last.createdAt, id: last.id };
      }
      expect(paged).toEqual(all.map((e) => e.place));

      // The search (with its total) places its rows alike; a code finds its referrer and the friends it brought.
      const found = await repo.operator.searchWaitlist({ q: "aaaa2222", limit: 50, after: null });
      expect(found.total).toBe(9);
      expect(found.rows.map((e) => [e.email, e.place])).toEqual([
        ["p1@x.test", null],
        ["s@x.test", 10],
        ["f6@x.test", 9],
        ["f5@x.test", 8],
        ["f4@x.test", 7],
        ["f3@x.test", 6],
        ["f2@x.test", 5],
        ["f1@x.test", 4],
        ["a@x.test", 1],
      ]);
    });

    it("the funnel: joined -> confirmed -> inboxes -> can be written to -> invited, each difference counted, agreeing with the campaigns' audiences", async () => {
      const repo = await fresh();
      // Mailbox keys of this case only: D1 keeps suppressions from one case to the next.
      const key = (name: string) => `funnel-${driver}-${name}-${crypto.randomUUID()}`;
      const [inbox, unsubscribed, bounced] = [key("c"), key("u"), key("x")];
      const joins: [string, string][] = [
        ["a", key("a")],
        ["b", key("b")],
        ["c1", inbox],
        ["c2", inbox],
        ["u", unsubscribed],
        ["x", bounced],
        ["d", key("d")],
        ["e", key("e")],
      ];
      for (const [i, [name, mailbox]] of joins.entries()) await confirmedJoin(repo, 1000 * (i + 1), { email: `${name}@x.test`, mailbox });
      await repo.waitlist.join({ email: "p1@x.test", source: null }, { now: at(9000), lockMs: LOCK_MS });
      await repo.waitlist.join({ email: "p2@x.test", source: null }, { now: at(9500), lockMs: LOCK_MS });
      await repo.consent.suppress({ mailboxKey: unsubscribed, reason: "unsubscribed", source: "page", campaignId: null, now: at(10_000) });
      await repo.consent.suppress({ mailboxKey: bounced, reason: "bounced", source: "transport", campaignId: null, now: at(10_000) });
      // A wave of two draws a and b, the first two that can be written to.
      const draft = await repo.campaigns.create({ subject: "In", body: "Come in.", audience: { kind: "wave", size: 2 } }, "op", at(11_000));
      const wave = await repo.campaignDelivery.transition(draft.id, ["draft"], "sending", at(11_000));
      await repo.campaignDelivery.expandChunk(wave!, 10, at(11_000));

      const { funnel } = await repo.operator.stats(at(20_000), { networkFlag: 5 });
      expect(funnel).toEqual({
        joined: 10,
        pending: 2,
        confirmed: 8,
        inboxes: 7,
        sharedInbox: 1,
        unsubscribed: 1,
        undeliverable: 1,
        reachable: 5,
        invited: 2,
        held: 0,
        waiting: 3,
      });
      // The campaigns' own definition of who can be written to, and of who a wave draws next.
      expect(await repo.campaigns.audienceSize({ kind: "all" })).toBe(funnel.reachable);
      expect(await repo.campaigns.audienceSize({ kind: "wave", size: 1000 })).toBe(funnel.waiting);
      const empty = await (await fresh()).operator.stats(at(20_000), { networkFlag: 5 });
      expect(Object.values(empty.funnel).every((n) => n === 0)).toBe(true);
    });

    it("the person look-up carries the place; the erasure deletes the entry's joiner mails with it", async () => {
      const repo = await fresh();
      await seed(repo);
      expect((await repo.operator.person("h@x.test")).waitlist).toMatchObject({ email: "h@x.test", place: 3, referralsConfirmed: 1 });
      expect((await repo.operator.person("p1@x.test")).waitlist).toMatchObject({ place: null, referredBy: "AAAA2222" });

      const erased = (await repo.findWaitlistEntry("a@x.test"))!;
      const kept = (await repo.findWaitlistEntry("b@x.test"))!;
      await repo.operator.erasePerson("a@x.test", { operator: "op", subjectHash: "hash", now: at(30_000) });
      // Every unsent mail is due once its first lease lapsed: b's welcome is, a's is gone.
      const due = await repo.waitlist.claimDueMail({ claim: claim(), now: at(LOCK_MS * 10), lockMs: LOCK_MS, limit: 100 });
      expect(due.map((mail) => mail.entryId)).toContain(kept.id);
      expect(due.map((mail) => mail.entryId)).not.toContain(erased.id);
      // The rest of the line closes up: b is first now.
      expect((await repo.operator.person("b@x.test")).waitlist?.place).toBe(1);
    });

    it("stats (issue 23): entries per age band with those on behalf of a child apart, parental requests pending, agreed, declined and expired today and over the stats' days", async () => {
      const repo = await fresh();
      const now = new Date("2026-03-31T12:00:00.000Z");
      const entry = (email: string, ageBand: "13_15" | "16_17" | "18_plus" | "under_13" | "unknown", onBehalfOfChild = false) => ({
        email,
        ageBand,
        onBehalfOfChild,
        country: "DE",
        createdAt: t0.toISOString(),
        updatedAt: t0.toISOString(),
      });
      const { parents: before } = await repo.operator.stats(now, { networkFlag: 5 });
      await repo.seed(waitlist, [
        entry("t@x.test", "13_15"),
        entry("s1@x.test", "16_17"),
        entry("s2@x.test", "16_17"),
        entry("a@x.test", "18_plus"),
        entry("old@x.test", "unknown"),
        entry("p@x.test", "under_13", true),
      ]);
      await repo.seed(parentalRequests, [
        { parentEmail: "q@x.test", mailboxKey: "q", ageBand: "under_13", nonce: "n1", createdAt: "2026-03-30T08:00:00.000Z" },
        { parentEmail: "r@x.test", mailboxKey: "r", ageBand: "13_15", nonce: "n2", createdAt: "2026-03-31T08:00:00.000Z" },
      ]);
      await repo.seed(parentalOutcomes, [
        { day: "2026-03-31", outcome: "agreed", count: 2 },
        { day: "2026-03-20", outcome: "agreed", count: 1 },
        { day: "2026-03-31", outcome: "declined", count: 1 },
        { day: "2026-01-10", outcome: "declined", count: 9 },
      ]);
      await repo.seed(retentionDeletions, [
        { day: "2026-03-31", kind: "parental_requests", count: 4 },
        { day: "2026-03-02", kind: "parental_requests", count: 1 },
        { day: "2026-03-31", kind: "contact_messages", count: 7 },
      ]);
      const stats = await repo.operator.stats(now, { networkFlag: 5 });
      expect(stats.ages).toEqual({
        byBand: { under_13: 0, "13_15": 1, "16_17": 2, "18_plus": 1, unknown: 1 },
        onBehalfOfChild: { total: 1, byBand: { under_13: 1, "13_15": 0, "16_17": 0, "18_plus": 0, unknown: 0 } },
      });
      // (D1's suites share the parental tables between cases: the figures are read as this case's change.)
      const { parents } = stats;
      const change = { pending: parents.pending - before.pending, today: {}, lastDays: {} } as Record<string, unknown>;
      for (const span of ["today", "lastDays"] as const) {
        change[span] = Object.fromEntries(
          (["agreed", "declined", "expired"] as const).map((what) => [what, parents[span][what] - before[span][what]]),
        );
      }
      expect(change).toEqual({
        pending: 2,
        today: { agreed: 2, declined: 1, expired: 4 },
        lastDays: { agreed: 3, declined: 1, expired: 5 },
      });
      expect(parents.oldestPendingAt! <= "2026-03-30T08:00:00.000Z").toBe(true);
    });
  });

  /** When each of the line's entries joined (its confirmation order here). */
  function order(email: string): number {
    return ["a", "b", "f1", "f2", "f3", "f4", "f5", "h", "f6", "s", "g"].indexOf(email.split("@")[0]!);
  }
}
