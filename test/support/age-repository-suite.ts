import { describe, expect, it } from "vitest";
import { newReferralCode } from "../../worker/features/referrals/code";
import type { ConfirmWrite, ReferralProof } from "../../worker/features/waitlist/queries/journey";
import type { AgeOfEntry } from "../../worker/features/waitlist/queries/join";
import type { WaitlistEntry } from "../../worker/platform/db/schema";
import type { TestRepository } from "./records";

/**
 * Issue 23's rules in the journey's queries, run once on D1 inside workerd and once on libSQL in
 * Node: an entry keeps its age band and country; a minor's referrals are counted but move nobody
 * unless MINOR_REFERRAL_REWARDS (the rank key, and the credit's boost, so voiding stays exact);
 * an entry on behalf of a child never gets a referral code and never counts a referral.
 */
export function ageRepositorySuite(driver: string, fresh: () => Promise<TestRepository>) {
  const t0 = new Date("2026-03-01T10:00:00.000Z");
  const claim = () => ({ now: t0, lockMs: 60_000 });
  const write = (key: string, minorRewards: boolean, referral: ReferralProof = "join"): ConfirmWrite => ({
    claim: crypto.randomUUID(),
    at: t0,
    referralCode: newReferralCode(),
    boost: 5,
    minorRewards,
    mailboxKey: key,
    pairKey: `pair:${key}`,
    network: "net",
    referral,
  });

  /** A join confirmed at once (double opt-in off), with the age fields given and the referral code `ref`. */
  async function confirmed(
    repo: TestRepository,
    email: string,
    age: Partial<AgeOfEntry>,
    options: { ref?: string | null; minorRewards?: boolean; referral?: ReferralProof } = {},
  ): Promise<WaitlistEntry> {
    const journey = {
      kind: "welcome" as const,
      mailboxKey: email,
      ref: options.ref ?? null,
      referralJoin: crypto.randomUUID(),
      mail: { claim: crypto.randomUUID(), now: t0, lockMs: 60_000, origin: "http://site.test" },
      cap: { key: `welcome:${crypto.randomUUID()}`, window: { start: 0, end: 4_102_444_800 }, max: 10 },
      confirm: write(email, options.minorRewards ?? false, options.referral),
    };
    const result = await repo.waitlist.join({ email, source: null, ...age }, claim(), journey);
    return result.current!;
  }
  const entry = async (repo: TestRepository, email: string) => (await repo.waitlist.entryByEmail(email))!;

  describe(`age rules in the journey's queries on ${driver} (issue 23)`, () => {
    it("an entry keeps its band and country; one made without them is 'unknown', and a re-join fills in only what is unknown", async () => {
      const repo = await fresh();
      const kept = await confirmed(repo, "teen@example.com", { ageBand: "13_15", country: "FR" });
      expect(kept).toMatchObject({ ageBand: "13_15", country: "FR", onBehalfOfChild: false, parentalConsentAt: null });
      const before = await confirmed(repo, "old@example.com", {});
      expect(before).toMatchObject({ ageBand: "unknown", country: null });
      await repo.waitlist.join({ email: "old@example.com", source: null, ageBand: "18_plus", country: "DE" }, claim());
      await repo.waitlist.join({ email: "teen@example.com", source: null, ageBand: "18_plus", country: "DE" }, claim());
      expect(await entry(repo, "old@example.com")).toMatchObject({ ageBand: "18_plus", country: "DE" });
      expect(await entry(repo, "teen@example.com")).toMatchObject({ ageBand: "13_15", country: "FR" });
    });

    it("a minor's confirmed referral is counted but moves them no place (rank key unchanged, credit of 0 places)", async () => {
      const repo = await fresh();
      const minor = await confirmed(repo, "minor@example.com", { ageBand: "16_17", country: "US" });
      const keyBefore = minor.rankKey;
      await confirmed(repo, "friend@example.com", { ageBand: "18_plus" }, { ref: minor.referralCode });
      const after = await entry(repo, "minor@example.com");
      expect(after.referralsConfirmed).toBe(1);
      expect(after.rankKey).toBe(keyBefore);
      for (const band of ["under_13", "13_15"] as const) {
        const other = await confirmed(repo, `${band}@example.com`, { ageBand: band });
        await confirmed(repo, `friend-of-${band}@example.com`, { ageBand: "18_plus" }, { ref: other.referralCode });
        expect(await entry(repo, `${band}@example.com`)).toMatchObject({ referralsConfirmed: 1, rankKey: other.rankKey });
      }
    });

    it("with MINOR_REFERRAL_REWARDS a minor's referral moves them up like anyone's; an adult's always does", async () => {
      const repo = await fresh();
      const minor = await confirmed(repo, "minor@example.com", { ageBand: "13_15" });
      await confirmed(repo, "friend@example.com", {}, { ref: minor.referralCode, minorRewards: true });
      expect((await entry(repo, "minor@example.com")).rankKey).toBe(minor.rankKey! - 2 * 5 - 1);
      const adult = await confirmed(repo, "adult@example.com", { ageBand: "18_plus" });
      await confirmed(repo, "friend2@example.com", {}, { ref: adult.referralCode });
      expect((await entry(repo, "adult@example.com")).rankKey).toBe(adult.rankKey! - 2 * 5 - 1);
    });

    it("an entry on behalf of a child gets no referral code, and the referral its join carried is dropped, never counted", async () => {
      const repo = await fresh();
      const referrer = await confirmed(repo, "referrer@example.com", { ageBand: "18_plus" });
      const consentAt = new Date("2026-03-01T09:00:00.000Z");
      const parent = await confirmed(
        repo,
        "parent@example.com",
        { ageBand: "under_13", country: "US", onBehalfOfChild: true, parentalConsentAt: consentAt },
        { ref: referrer.referralCode },
      );
      expect(parent).toMatchObject({
        onBehalfOfChild: true,
        parentalConsentAt: consentAt.toISOString(),
        ageBand: "under_13",
        referralCode: null,
        referredBy: null,
      });
      expect(parent.confirmedAt).not.toBeNull();
      expect(await entry(repo, "referrer@example.com")).toMatchObject({ referralsConfirmed: 0, rankKey: referrer.rankKey });
    });
  });
}
