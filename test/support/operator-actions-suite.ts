import { describe, expect, it } from "vitest";
import { confirmedJoin as join } from "./confirmed-join";
import type { TestRepository } from "./records";

/**
 * The operator's launch-day actions in the database (issue 22), run on D1 in workerd and on
 * libSQL in Node: the first of an invite wave as the wave would draw them, each flagged referrer
 * marked (the referrals' own network flag); holding an entry out of waves (and letting it back);
 * voiding a referral credit (the referrer loses exactly the places it gave, the credit stays
 * void so the same friend never credits again).
 */
export function operatorActionsSuite(driver: string, fresh: () => Promise<TestRepository>) {
  const t0 = new Date("2026-04-01T10:00:00.000Z");
  const at = (ms: number) => new Date(t0.getTime() + ms);
  const BOOST = 5;
  const FLAG_AT = 3;

  type Joiner = { email: string; code?: string; ref?: string; network?: string; mailbox?: string; boost?: number };

  /** A join confirmed at once (test/support/confirmed-join.ts), under a mailbox of its own unless told. */
  async function confirmedJoin(repo: TestRepository, ms: number, joiner: Joiner) {
    const { email, ref, network } = joiner;
    const mailboxKey = joiner.mailbox ?? `${driver}-${email}-${crypto.randomUUID()}`;
    const referralCode = joiner.code ?? `Q${String(ms).padStart(7, "0")}`;
    return join(repo, at(ms), { email, ref, network, referralCode, boost: joiner.boost ?? BOOST, mailboxKey });
  }

  const entry = async (repo: TestRepository, email: string) => (await repo.findWaitlistEntry(email))!;
  const placeOf = async (repo: TestRepository, email: string) => repo.waitlist.placeOf(await entry(repo, email));

  /**
   * A line of twelve: a, b, c, d confirm first; then r1..r4 (d's ring: four friends from one
   * network, ring-net), s1 (b's friend from another) and z1..z3. d has four referrals (flagged
   * at 3) and moves up to the front; b, with one, before a. The line: d, b, a, c, r1..r4, s1, z1..z3.
   */
  async function seed(repo: TestRepository) {
    for (const [i, name] of ["a", "b", "c", "d"].entries())
      await confirmedJoin(repo, 1000 * (i + 1), { email: `${name}@y.test`, code: `${name.toUpperCase()}CODE234` });
    for (let i = 1; i <= 4; i++)
      await confirmedJoin(repo, 10_000 + i * 60_000, { email: `r${i}@y.test`, ref: "DCODE234", network: "ring-net" });
    await confirmedJoin(repo, 400_000, { email: "s1@y.test", ref: "BCODE234", network: "other-net" });
    for (let i = 1; i <= 3; i++) await confirmedJoin(repo, 500_000 + i, { email: `z${i}@y.test` });
  }

  describe(`the operator's launch-day actions on ${driver}`, () => {
    it("a wave's first entries by place, exactly as the wave draws them, the flagged referrer and its friends marked", async () => {
      const repo = await fresh();
      await seed(repo);
      const preview = await repo.campaigns.wavePreview({ kind: "wave", size: 4 }, { limit: 20, flagAt: FLAG_AT });
      expect(preview.first.map((row) => [row.email, row.place, row.fromOneNetwork, row.referredByFlagged])).toEqual([
        ["d@y.test", 1, 4, false],
        ["b@y.test", 2, null, false],
        ["a@y.test", 3, null, false],
        ["c@y.test", 4, null, false],
      ]);
      expect(preview).toMatchObject({ flagged: 1, held: 0 });
      // Nobody of these four joined through a flagged referrer (b's friend's referrer is not flagged).
      expect(preview.flaggedFriends).toBe(0);
      // Every place is the line's own.
      for (const row of preview.first) expect(row.place).toBe(await placeOf(repo, row.email));
      // A longer wave reaches the ring's friends, each marked as referred by a flagged referrer.
      const longer = await repo.campaigns.wavePreview({ kind: "wave", size: 100 }, { limit: 20, flagAt: FLAG_AT });
      expect(longer.first.filter((row) => row.referredByFlagged).map((row) => row.email)).toEqual([
        "r1@y.test",
        "r2@y.test",
        "r3@y.test",
        "r4@y.test",
      ]);
      expect(longer.first).toHaveLength(12);
      expect(longer.flaggedFriends).toBe(4);
      // At most `limit` rows, yet the flagged count is of the whole wave, and so is the count of their friends.
      expect(await repo.campaigns.wavePreview({ kind: "wave", size: 100 }, { limit: 2, flagAt: FLAG_AT })).toMatchObject({ flagged: 1 });
      expect(await repo.campaigns.wavePreview({ kind: "wave", size: 100 }, { limit: 2, flagAt: FLAG_AT })).toMatchObject({
        flaggedFriends: 4,
      });
      expect((await repo.campaigns.wavePreview({ kind: "wave", size: 100 }, { limit: 2, flagAt: FLAG_AT })).first).toHaveLength(2);

      // The wave itself draws the same entries, with the same places.
      const draft = await repo.campaigns.create(
        { subject: "In", body: "Come in.", audience: { kind: "wave", size: 4 } },
        "op",
        at(600_000),
      );
      const wave = await repo.campaignDelivery.transition(draft.id, ["draft"], "sending", at(600_000));
      await repo.campaignDelivery.expandChunk(wave!, 10, at(600_000));
      const drawn = await repo.campaignDelivery.rowsOf(draft.id);
      expect(drawn.map((row) => [row.entryId, row.place])).toEqual(preview.first.map((row) => [row.id, row.place]));
      // The next wave: the flagged referrer was invited, its four friends are still in it, and counted.
      expect(await repo.campaigns.wavePreview({ kind: "wave", size: 100 }, { limit: 20, flagAt: FLAG_AT })).toMatchObject({
        flagged: 0,
        flaggedFriends: 4,
      });
    });

    it("an entry held out of waves is skipped by waves and their sizes, counted as held, and let back in", async () => {
      const repo = await fresh();
      await seed(repo);
      const d = await entry(repo, "d@y.test");
      const held = await repo.operator.setHeld(d.id, true, at(700_000));
      expect(held).toMatchObject({ changed: true, entry: { id: d.id, heldAt: at(700_000).toISOString() } });
      // Holding again changes nothing (the first time stays).
      expect(await repo.operator.setHeld(d.id, true, at(800_000))).toMatchObject({
        changed: false,
        entry: { heldAt: at(700_000).toISOString() },
      });
      const preview = await repo.campaigns.wavePreview({ kind: "wave", size: 2 }, { limit: 20, flagAt: FLAG_AT });
      expect(preview.first.map((row) => row.email)).toEqual(["b@y.test", "a@y.test"]);
      expect(preview).toMatchObject({ flagged: 0, held: 1 });
      expect(await repo.campaigns.audienceSize({ kind: "wave", size: 1000 })).toBe(11);
      // An announcement still reaches a held entry: holding is about invite waves only.
      expect(await repo.campaigns.audienceSize({ kind: "all" })).toBe(12);
      expect((await repo.operator.stats(at(800_000), { networkFlag: FLAG_AT })).funnel).toMatchObject({
        held: 1,
        waiting: 11,
        reachable: 12,
      });
      // Its place in line is unchanged.
      expect(await placeOf(repo, "d@y.test")).toBe(1);

      expect(await repo.operator.setHeld(d.id, false, at(900_000))).toMatchObject({ changed: true, entry: { heldAt: null } });
      expect(await repo.campaigns.audienceSize({ kind: "wave", size: 1000 })).toBe(12);
      expect(await repo.operator.setHeld(d.id, false, at(900_000))).toMatchObject({ changed: false });
      expect(await repo.operator.setHeld(999_999, true, at(900_000))).toBeNull();
    });

    it("voiding a credit takes back exactly the places it gave (its own boost), keeps it void, and the friend never credits again", async () => {
      const repo = await fresh();
      await seed(repo);
      // d's ring gave 4 x 5 places; a fifth friend credited when the boost was 2.
      await confirmedJoin(repo, 600_000, { email: "r5@y.test", ref: "DCODE234", network: "ring-net", boost: 2 });
      const before = await entry(repo, "d@y.test");
      expect(before).toMatchObject({ referralsConfirmed: 5, rankKey: 2 * 4 - 2 * (4 * 5 + 2) - 1 });

      const r5 = await entry(repo, "r5@y.test");
      const voided = await repo.operator.voidReferral(r5.id, { fallbackBoost: BOOST, now: at(700_000) });
      expect(voided).toMatchObject({ voided: true, boost: 2, referrerId: before.id });
      expect(await entry(repo, "d@y.test")).toMatchObject({ referralsConfirmed: 4, rankKey: 2 * 4 - 2 * 20 - 1 });
      // Again: nothing more to void, nothing changes.
      expect(await repo.operator.voidReferral(r5.id, { fallbackBoost: BOOST, now: at(710_000) })).toMatchObject({ voided: false });
      expect((await entry(repo, "d@y.test")).referralsConfirmed).toBe(4);

      // The other four, one by one: the last puts d exactly where its confirmation put it.
      for (let i = 1; i <= 4; i++) {
        const friend = await entry(repo, `r${i}@y.test`);
        expect(await repo.operator.voidReferral(friend.id, { fallbackBoost: BOOST, now: at(720_000 + i) })).toMatchObject({
          voided: true,
          boost: 5,
        });
      }
      expect(await entry(repo, "d@y.test")).toMatchObject({ referralsConfirmed: 0, rankKey: 2 * 4 });
      expect(await placeOf(repo, "d@y.test")).toBe(4);

      // r1 leaves and joins again through d's link, and confirms: the void credit never counts again.
      const r1 = await entry(repo, "r1@y.test");
      expect(await repo.waitlist.leave("r1@y.test")).toBe(true);
      await confirmedJoin(repo, 800_000, { email: "r1@y.test", ref: "DCODE234", network: "ring-net", mailbox: r1.mailboxKey });
      expect((await entry(repo, "d@y.test")).referralsConfirmed).toBe(0);
      // An entry that gave no credit (no referrer) has nothing to void.
      expect(
        await repo.operator.voidReferral((await entry(repo, "a@y.test")).id, { fallbackBoost: BOOST, now: at(900_000) }),
      ).toMatchObject({ voided: false });
      expect(await repo.operator.voidReferral(999_999, { fallbackBoost: BOOST, now: at(900_000) })).toBeNull();
    });

    it("a credit from before credits kept their boost is voided with the boost in force", async () => {
      const repo = await fresh();
      await seed(repo);
      const s1 = await entry(repo, "s1@y.test");
      await repo.forgetCreditBoosts();
      const b = await entry(repo, "b@y.test");
      expect(await repo.operator.voidReferral(s1.id, { fallbackBoost: 3, now: at(700_000) })).toMatchObject({ voided: true });
      // b's only referral: voiding it puts b back exactly where its confirmation put it, whatever the boost.
      expect(await entry(repo, "b@y.test")).toMatchObject({ referralsConfirmed: 0, rankKey: 2 * b.confirmSeq! });
    });

    it("lists an entry with whether its referral credit counts or was voided, and how many of its own were voided", async () => {
      const repo = await fresh();
      await seed(repo);
      const r2 = await entry(repo, "r2@y.test");
      await repo.operator.voidReferral(r2.id, { fallbackBoost: BOOST, now: at(700_000) });
      const page = await repo.operator.listWaitlist({ q: "y.test", limit: 50, after: null });
      const byEmail = new Map(page.map((row) => [row.email, row]));
      expect(byEmail.get("r1@y.test")).toMatchObject({ referralCredit: "counted" });
      expect(byEmail.get("r2@y.test")).toMatchObject({ referralCredit: "voided" });
      expect(byEmail.get("a@y.test")).toMatchObject({ referralCredit: null, referralsVoided: 0 });
      expect(byEmail.get("d@y.test")).toMatchObject({ referralsConfirmed: 3, referralsVoided: 1 });
      expect(await repo.operator.listedEntry(r2.id)).toMatchObject({
        email: "r2@y.test",
        referralCredit: "voided",
        place: await placeOf(repo, "r2@y.test"),
      });
      expect(await repo.operator.listedEntry(999_999)).toBeNull();
    });
  });
}
