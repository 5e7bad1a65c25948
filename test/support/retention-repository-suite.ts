// The retention schedule's storage (worker/features/retention/queries.ts), shared by the D1 and libSQL test files.
import { describe, expect, it } from "vitest";
import { auditLog, formSubmissions, joinerMail, parentalRequests, retentionDeletions, waitlist } from "../../worker/platform/db/schema";
import type { TestRepository } from "./records";

/**
 * What one sweep of the retention schedule guarantees, on D1 in workerd and on libSQL in Node:
 * only what its kind names and is older than the cut-off goes, at most `limit` rows, oldest
 * first, and what went is counted per UTC day and kind in the same batch. `fresh()` gives a
 * repository on an empty, migrated database.
 */
export function retentionRepositorySuite(driver: string, fresh: () => Promise<TestRepository>) {
  const now = new Date("2026-11-28T12:00:00.000Z");
  const DAY = 86_400_000;
  /** The cut-off of a 30-day schedule. */
  const before = new Date(now.getTime() - 30 * DAY);
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const day = "2026-11-28";
  const entry = (email: string, createdMs: number, more: Partial<typeof waitlist.$inferInsert> = {}) => ({
    email,
    createdAt: ago(createdMs),
    updatedAt: ago(createdMs),
    ...more,
  });
  const emails = async (repo: TestRepository) => (await repo.rowsOf(waitlist)).map((row) => row.email).sort();
  const idOf = async (repo: TestRepository, email: string) => (await repo.findWaitlistEntry(email))!.id;
  const contact = (createdMs: number, formName = "Contact Form") => ({
    formName,
    formData: { name: "A", email: "a@example.org", message: "hi" },
    createdAt: ago(createdMs),
  });

  describe(`retention repository (${driver})`, () => {
    it("unconfirmed entries: past the cut-off since their last join they go with their e-mails; nothing else does", async () => {
      const repo = await fresh();
      await repo.seed(waitlist, [
        entry("old@example.org", 31 * DAY),
        // Joined again yesterday: its last join is inside the limit.
        entry("rejoined@example.org", 40 * DAY, { updatedAt: ago(DAY) }),
        // One second inside the limit.
        entry("inside@example.org", 30 * DAY - 1000),
        entry("confirmed@example.org", 400 * DAY, { confirmedAt: ago(399 * DAY), confirmSeq: 1, rankKey: 1, referralCode: "AAAAAAAA" }),
      ]);
      const [old, kept] = [await idOf(repo, "old@example.org"), await idOf(repo, "inside@example.org")];
      await repo.seed(joinerMail, [
        { entryId: old, kind: "confirm", createdAt: ago(31 * DAY) },
        { entryId: kept, kind: "confirm", createdAt: ago(DAY) },
      ]);
      await repo.seed(auditLog, [{ action: "person.erased", operator: "ops@example.org", details: {}, createdAt: ago(900 * DAY) }]);

      expect(await repo.retention.sweep("unconfirmed_entries", { before, limit: 100, day })).toBe(1);
      expect(await emails(repo)).toEqual(["confirmed@example.org", "inside@example.org", "rejoined@example.org"]);
      expect((await repo.rowsOf(joinerMail)).map((mail) => mail.entryId)).toEqual([kept]);
      expect(await repo.rowsOf(auditLog)).toHaveLength(1);
      expect(await repo.rowsOf(retentionDeletions)).toEqual([{ day, kind: "unconfirmed_entries", count: 1 }]);
    });

    it("a sweep takes at most `limit`, oldest first; the next adds to the day's count; nothing due counts nothing", async () => {
      const repo = await fresh();
      await repo.seed(waitlist, [entry("c@example.org", 31 * DAY), entry("a@example.org", 33 * DAY), entry("b@example.org", 32 * DAY)]);
      expect(await repo.retention.sweep("unconfirmed_entries", { before, limit: 2, day })).toBe(2);
      expect(await emails(repo)).toEqual(["c@example.org"]);
      expect(await repo.retention.sweep("unconfirmed_entries", { before, limit: 2, day })).toBe(1);
      expect(await repo.retention.sweep("unconfirmed_entries", { before, limit: 2, day })).toBe(0);
      expect(await repo.rowsOf(retentionDeletions)).toEqual([{ day, kind: "unconfirmed_entries", count: 3 }]);
      await repo.retention.sweep("contact_messages", { before, limit: 2, day: "2026-11-29" });
      expect(await repo.rowsOf(retentionDeletions)).toHaveLength(1);
    });

    it("referral networks: a hash written past the cut-off is cleared, the entry and the rest of it stay", async () => {
      const repo = await fresh();
      const confirmed = (email: string, ms: number, seq: number) =>
        entry(email, ms + DAY, {
          confirmedAt: ago(ms),
          confirmSeq: seq,
          rankKey: seq,
          referredBy: "REFERRER",
          referralNetwork: `net-${seq}`,
        });
      await repo.seed(waitlist, [confirmed("old@example.org", 31 * DAY, 1), confirmed("inside@example.org", 30 * DAY - 1000, 2)]);
      expect(await repo.retention.sweep("referral_networks", { before, limit: 100, day })).toBe(1);
      expect(await repo.retention.sweep("referral_networks", { before, limit: 100, day })).toBe(0);
      const rows = await repo.rowsOf(waitlist);
      expect(rows.map((row) => [row.email, row.referralNetwork, row.referredBy, row.confirmSeq]).sort()).toEqual([
        ["inside@example.org", "net-2", "REFERRER", 2],
        ["old@example.org", null, "REFERRER", 1],
      ]);
      expect(await repo.rowsOf(retentionDeletions)).toEqual([{ day, kind: "referral_networks", count: 1 }]);
    });

    it("contact messages: the contact form's past the cut-off go; another form's and newer ones stay", async () => {
      const repo = await fresh();
      await repo.seed(formSubmissions, [contact(31 * DAY), contact(30 * DAY - 1000), contact(400 * DAY, "Another Form")]);
      expect(await repo.retention.sweep("contact_messages", { before, limit: 100, day })).toBe(1);
      const rows = await repo.rowsOf(formSubmissions);
      expect(rows.map((row) => [row.formName, row.createdAt]).sort()).toEqual([
        ["Another Form", ago(400 * DAY)],
        ["Contact Form", ago(30 * DAY - 1000)],
      ]);
    });

    it("parental requests: one nobody answered past the cut-off goes, sent or not; a newer one stays; nothing else is touched", async () => {
      const repo = await fresh();
      const request = (email: string, createdMs: number, sent: boolean) => ({
        parentEmail: email,
        mailboxKey: `key-${email}`,
        ageBand: "under_13" as const,
        country: "US",
        nonce: `nonce-${email}`.padEnd(22, "x").slice(0, 22),
        createdAt: ago(createdMs),
        sentAt: sent ? ago(createdMs - 1000) : null,
        attempts: 1,
      });
      await repo.seed(parentalRequests, [
        request("old-sent@example.org", 8 * DAY, true),
        request("old-unsent@example.org", 9 * DAY, false),
        request("inside@example.org", 7 * DAY - 1000, true),
      ]);
      await repo.seed(waitlist, [entry("unconfirmed@example.org", 8 * DAY)]);
      const week = new Date(now.getTime() - 7 * DAY);
      expect(await repo.retention.sweep("parental_requests", { before: week, limit: 100, day })).toBe(2);
      expect(await repo.retention.sweep("parental_requests", { before: week, limit: 100, day })).toBe(0);
      expect((await repo.rowsOf(parentalRequests)).map((row) => row.parentEmail)).toEqual(["inside@example.org"]);
      expect(await emails(repo)).toEqual(["unconfirmed@example.org"]);
      expect(await repo.rowsOf(retentionDeletions)).toEqual([{ day, kind: "parental_requests", count: 2 }]);
    });

    it("the counts: per kind over the days since a given day", async () => {
      const repo = await fresh();
      await repo.seed(retentionDeletions, [
        { day: "2026-10-01", kind: "unconfirmed_entries", count: 9 },
        { day: "2026-11-27", kind: "unconfirmed_entries", count: 2 },
        { day: "2026-11-28", kind: "unconfirmed_entries", count: 3 },
        { day: "2026-11-28", kind: "contact_messages", count: 1 },
      ]);
      const counts = await repo.retention.deletions("2026-11-01");
      expect(counts.sort((a, b) => (a.day + a.kind).localeCompare(b.day + b.kind))).toEqual([
        { day: "2026-11-27", kind: "unconfirmed_entries", count: 2 },
        { day: "2026-11-28", kind: "contact_messages", count: 1 },
        { day: "2026-11-28", kind: "unconfirmed_entries", count: 3 },
      ]);
      expect(await repo.retention.lastDeletionDay()).toBe("2026-11-28");
    });
  });
}
