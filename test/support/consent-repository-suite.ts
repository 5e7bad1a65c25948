import { describe, expect, it } from "vitest";
import type { TestRepository } from "./records";

/**
 * The suppression list and its consent trail (worker/features/campaigns/unsubscribe/queries.ts), run once on D1
 * inside workerd and once on libSQL in Node: each change writes its row and its event in one
 * batch, and only when something changes. Keys are random, so the cases never meet.
 */
export function consentRepositorySuite(driver: string, fresh: () => Promise<TestRepository>) {
  const t0 = new Date("2026-11-25T10:00:00.000Z");
  const key = () => [...crypto.getRandomValues(new Uint8Array(32))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const trail = async (repo: TestRepository, mailbox: string) =>
    (await repo.consent.events(mailbox)).map(({ event, source, campaignId, createdAt }) => ({ event, source, campaignId, createdAt }));

  describe(`consent repository (${driver})`, () => {
    it("suppress: the first time writes the row and its event; again (any reason) writes nothing and the first reason stays", async () => {
      const repo = await fresh();
      const mailbox = key();
      const unsubscribe = { mailboxKey: mailbox, reason: "unsubscribed" as const, source: "one-click" as const, campaignId: 4, now: t0 };
      expect(await repo.consent.suppress(unsubscribe)).toBe(true);
      expect(await repo.consent.suppress({ ...unsubscribe, source: "page", now: new Date(t0.getTime() + 1000) })).toBe(false);
      expect(await repo.consent.suppress({ ...unsubscribe, reason: "bounced", source: "transport" })).toBe(false);
      expect(await repo.consent.statusOf(mailbox)).toEqual({
        mailboxKey: mailbox,
        reason: "unsubscribed",
        source: "one-click",
        campaignId: 4,
        createdAt: t0.toISOString(),
      });
      expect(await trail(repo, mailbox)).toEqual([
        { event: "unsubscribed", source: "one-click", campaignId: 4, createdAt: t0.toISOString() },
      ]);
    });

    it("resubscribe: takes the row off and records why; a mailbox not on the list writes nothing", async () => {
      const repo = await fresh();
      const mailbox = key();
      expect(await repo.consent.resubscribe({ mailboxKey: mailbox, event: "rejoined", source: "join", now: t0 })).toBe(false);
      expect(await trail(repo, mailbox)).toEqual([]);
      await repo.consent.suppress({ mailboxKey: mailbox, reason: "bounced", source: "transport", campaignId: 2, now: t0 });
      const later = new Date(t0.getTime() + 60_000);
      expect(await repo.consent.resubscribe({ mailboxKey: mailbox, event: "resubscribed", source: "me", now: later })).toBe(true);
      expect(await repo.consent.statusOf(mailbox)).toBeNull();
      expect(await trail(repo, mailbox)).toEqual([
        { event: "bounced", source: "transport", campaignId: 2, createdAt: t0.toISOString() },
        { event: "resubscribed", source: "me", campaignId: null, createdAt: later.toISOString() },
      ]);
    });

    it("an erasure with the address's mailbox key deletes its row and trail, nobody else's", async () => {
      const repo = await fresh();
      const [mine, theirs] = [key(), key()];
      for (const mailbox of [mine, theirs]) {
        await repo.consent.suppress({ mailboxKey: mailbox, reason: "unsubscribed", source: "me", campaignId: null, now: t0 });
      }
      await repo.operator.erasePerson("gone@x.test", { operator: "op@x.test", subjectHash: "h".repeat(64), now: t0 }, mine);
      expect(await repo.consent.statusOf(mine)).toBeNull();
      expect(await trail(repo, mine)).toEqual([]);
      expect(await repo.consent.statusOf(theirs)).not.toBeNull();
      expect(await trail(repo, theirs)).toHaveLength(1);
    });
  });
}
