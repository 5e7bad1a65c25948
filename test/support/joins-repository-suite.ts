import { describe, expect, it } from "vitest";
import type { WaitingJoin } from "../../worker/features/waitlist/queries/join";
import type { TestRepository } from "./records";

/**
 * Waiting joins stored in one batch (issue 24 §3; worker/features/waitlist/queries/join.ts
 * joinWaiting), run once against D1 inside workerd and once against libSQL in Node.
 * `fresh()` must give a repository on an empty, migrated database.
 */
export function joinsRepositorySuite(driver: string, fresh: () => Promise<TestRepository>) {
  const t0 = new Date("2026-03-01T10:00:00.000Z");
  const window = { start: Math.floor(t0.getTime() / 86_400_000) * 86_400, end: Math.floor(t0.getTime() / 86_400_000) * 86_400 + 86_400 };
  const batch = (claim = "mail-claim-1", max = 3) => ({
    claim: { now: t0, lockMs: 60_000, budget: { key: "notify-single-test", window: { start: window.start, end: window.end } } },
    mail: { claim, now: t0, lockMs: 60_000 },
    cap: { window, max },
  });
  const waiting = (email: string, extra: Partial<WaitingJoin> = {}): WaitingJoin => ({
    email,
    source: "hero",
    utm_source: "tiktok",
    utm_medium: null,
    utm_campaign: null,
    referrer_host: null,
    ageBand: "18_plus",
    country: "GB",
    at: new Date(t0.getTime() - 5_000),
    mailboxKey: `key-${email}`,
    capKey: `waitlist-confirm-day:key-${email}`,
    ref: null,
    referralJoin: `join-${email}`,
    origin: "https://example.test",
    ...extra,
  });

  describe(`waiting joins on ${driver}`, () => {
    it("stores a batch as joins store them: the entry with its time, claim, band, country and key; a confirmation each; the budget counted in order", async () => {
      const repo = await fresh();
      const stored = await repo.waitlist.joinWaiting([waiting("a@example.com"), waiting("b@example.com", { country: null })], batch());
      expect(stored.map(({ entry }) => entry.email)).toEqual(["a@example.com", "b@example.com"]);
      expect(stored[0]!.entry).toMatchObject({
        source: "hero",
        utmSource: "tiktok",
        ageBand: "18_plus",
        country: "GB",
        mailboxKey: "key-a@example.com",
        createdAt: new Date(t0.getTime() - 5_000).toISOString(),
        notifyAttempts: 1,
        notifyLockedUntil: new Date(t0.getTime() + 60_000).toISOString(),
        onBehalfOfChild: false,
        confirmedAt: null,
        referredBy: null,
        referralJoin: null,
      });
      expect(stored[1]!.entry.country).toBeNull();
      expect(stored.map(({ budgetUsed }) => budgetUsed)).toEqual([1, 2]);
      for (const { entry, joinerMail, claimed } of stored) {
        expect(claimed).toBe(true);
        expect(entry.notifyClaim).toMatch(/^[0-9a-f-]{36}$/);
        expect(joinerMail).toMatchObject({
          entryId: entry.id,
          kind: "confirm",
          origin: "https://example.test",
          claim: "mail-claim-1",
          attempts: 1,
        });
      }
    });

    it("an address already listed, or twice in the batch, or stored by an earlier delivery, is dropped quietly", async () => {
      const repo = await fresh();
      await repo.waitlist.join({ email: "listed@example.com", source: "cta" }, { now: t0, lockMs: 60_000 });
      const first = await repo.waitlist.joinWaiting(
        [waiting("listed@example.com"), waiting("new@example.com"), waiting("new@example.com", { source: "footer" })],
        batch(),
      );
      expect(first.map(({ entry }) => [entry.email, entry.source])).toEqual([["new@example.com", "hero"]]);
      expect(await repo.findWaitlistEntry("listed@example.com")).toMatchObject({ source: "cta" });
      const again = await repo.waitlist.joinWaiting([waiting("new@example.com")], batch("mail-claim-2"));
      expect(again).toEqual([]);
    });

    it("keeps a referral only when its code is known, with the join's value; queues no confirmation past the mailbox's cap", async () => {
      const repo = await fresh();
      const [referrer] = await repo.waitlist.joinWaiting([waiting("referrer@example.com")], batch());
      expect(referrer).toBeDefined();
      const stored = await repo.waitlist.joinWaiting(
        [waiting("unknown@example.com", { ref: "NOSUCHCD" }), waiting("capped@example.com", { capKey: "waitlist-confirm-day:full" })],
        batch("mail-claim-2", 0),
      );
      expect(stored[0]!.entry).toMatchObject({ referredBy: null, referralJoin: null });
      expect(stored.every(({ joinerMail }) => joinerMail === null)).toBe(true);
    });

    it("nothing to store is no call", async () => {
      const repo = await fresh();
      expect(await repo.waitlist.joinWaiting([], batch())).toEqual([]);
    });
  });
}
