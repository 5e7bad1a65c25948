import { describe, expect, it } from "vitest";
import { newReferralCode } from "../../worker/features/referrals/code";
import { confirmedJoin } from "./confirmed-join";
import type { TestRepository } from "./records";

/**
 * Issue 24's live count in the pages' query (worker/features/pages/queries.ts), run once on D1
 * inside workerd and once on libSQL in Node: confirmed entries only, pending ones never.
 */
export function pagesRepositorySuite(driver: string, fresh: () => Promise<TestRepository>) {
  describe(`pages repository (${driver})`, () => {
    it("counts the confirmed entries, not the pending ones", async () => {
      const repo = await fresh();
      const now = new Date("2026-12-01T10:00:00.000Z");
      expect(await repo.pages.confirmedCount()).toBe(0);
      for (const n of [1, 2, 3]) {
        await confirmedJoin(repo, now, { email: `c${n}@example.com`, mailboxKey: `c${n}`, referralCode: newReferralCode(), boost: 5 });
      }
      const pending = await repo.waitlist.join(
        { email: "p@example.com", source: null },
        { now, lockMs: 60_000 },
        {
          kind: "confirm",
          mailboxKey: "p",
          ref: null,
          referralJoin: crypto.randomUUID(),
          mail: { claim: crypto.randomUUID(), now, lockMs: 60_000, origin: "http://site.test" },
          cap: { key: "waitlist-confirm-day:p", window: { start: 0, end: 4_102_444_800 }, max: 3 },
        },
      );
      expect(pending.outcome).toBe("joined");
      expect(await repo.pages.confirmedCount()).toBe(3);
    });
  });
}
