// The storage of the address backfill (worker/features/addresses/queries.ts), shared by the D1 and libSQL test files.
import { describe, expect, it } from "vitest";
import {
  auditLog,
  authCodes,
  authRefreshTokens,
  authSessions,
  authUsers,
  formSubmissions,
  joinerMail,
  referralCredits,
  subscriptionEvents,
  suppressions,
  waitlist,
} from "../../worker/platform/db/schema";
import type { TestRepository } from "./records";

/**
 * What the backfill's moves guarantee, on D1 in workerd and on libSQL in Node: which rows it
 * reads, that a move takes everything keyed by the old key along in one batch, and that a move
 * made on a read that no longer holds changes nothing. `fresh()` gives a repository on an empty,
 * migrated database.
 */
export function addressesRepositorySuite(driver: string, fresh: () => Promise<TestRepository>) {
  const t0 = new Date("2026-11-25T10:00:00.000Z");
  const at = t0.toISOString();
  /** The audit fields of a move: the record of a merge names the address by this, at this time. */
  const audit = { subject: "subject-hash", at };
  const key = () => [...crypto.getRandomValues(new Uint8Array(32))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const entry = (email: string, more: Partial<typeof waitlist.$inferInsert> = {}) => ({ email, createdAt: at, updatedAt: at, ...more });
  const user = (id: string, email: string, createdAt = at) => ({
    id,
    email,
    emailConfirmedAt: createdAt,
    userMetadata: {},
    createdAt,
    updatedAt: createdAt,
  });
  const idOf = async (repo: TestRepository, email: string) => (await repo.findWaitlistEntry(email))!.id;

  describe(`address backfill repository (${driver})`, () => {
    it("progress: none is cursor 0 and not finished; what is saved is read back", async () => {
      const repo = await fresh();
      expect(await repo.addresses.progress("test:a")).toEqual({ cursor: 0, finished: false });
      await repo.addresses.saveProgress("test:a", 7, false, t0);
      expect(await repo.addresses.progress("test:a")).toEqual({ cursor: 7, finished: false });
      await repo.addresses.saveProgress("test:a", 9, true, t0);
      expect(await repo.addresses.progress("test:a")).toEqual({ cursor: 9, finished: true });
      expect(await repo.addresses.progress("test:b")).toEqual({ cursor: 0, finished: false });
    });

    it("reads only addresses with a character outside ASCII, after the cursor, in rowid order, at most the limit", async () => {
      const repo = await fresh();
      await repo.seed(waitlist, [
        entry("plain@example.org"),
        entry("ｊane@example.org"),
        entry("ünal@example.org"),
        entry("ｂob@example.org"),
      ]);
      const all = await repo.addresses.entriesToCheck(0, 10);
      expect(all.map((row) => row.email)).toEqual(["ｊane@example.org", "ünal@example.org", "ｂob@example.org"]);
      expect(all[0]).toMatchObject({ confirmed: false, key: "", order: all[0]!.position, id: String(all[0]!.position) });
      expect((await repo.addresses.entriesToCheck(all[0]!.position, 1)).map((row) => row.email)).toEqual(["ünal@example.org"]);
      expect(await repo.addresses.entriesToCheck(all[2]!.position, 10)).toEqual([]);

      await repo.seed(authUsers, [user("u1", "plain@example.org"), user("u2", "ｊane@example.org")]);
      expect((await repo.addresses.usersToCheck(0, 10)).map((row) => [row.id, row.email, row.confirmed])).toEqual([
        ["u2", "ｊane@example.org", true],
      ]);
      await repo.seed(authCodes, [
        { email: "plain@example.org", sentAt: at, expiresAt: at },
        { email: "ｊane@example.org", sentAt: at, expiresAt: at },
      ]);
      expect((await repo.addresses.codesToCheck(0, 10)).map((row) => row.email)).toEqual(["ｊane@example.org"]);
    });

    it("a move: the entry takes its address and key, and everything keyed by its former key moves with it", async () => {
      const repo = await fresh();
      const [former, next] = [key(), key()];
      await repo.seed(waitlist, [entry("ｊane@example.org", { mailboxKey: former }), entry("ｊane+2@example.org", { mailboxKey: former })]);
      await repo.seed(suppressions, [{ mailboxKey: former, reason: "unsubscribed", source: "page", createdAt: at }]);
      await repo.seed(subscriptionEvents, [{ mailboxKey: former, event: "unsubscribed", source: "page", createdAt: at }]);
      await repo.seed(referralCredits, [{ referralCode: "ABCDEFGH", mailboxKey: former, createdAt: at }]);
      const row = (await repo.addresses.entriesToCheck(0, 1))[0]!;
      const move = { row, to: "jane@example.org", key: next, other: null, keep: "row" as const, ...audit, formerKeys: [former, ""] };
      expect(await repo.addresses.moveEntry(move)).toBe(true);

      expect(await repo.findWaitlistEntry("jane@example.org")).toMatchObject({ id: Number(row.id), mailboxKey: next });
      // The other spelling still carrying the former key is re-keyed in the same batch (its own move comes later).
      expect(await repo.findWaitlistEntry("ｊane+2@example.org")).toMatchObject({ mailboxKey: next });
      expect(await repo.rowsOf(suppressions)).toEqual([expect.objectContaining({ mailboxKey: next, reason: "unsubscribed" })]);
      expect((await repo.rowsOf(subscriptionEvents)).map((event) => event.mailboxKey)).toEqual([next]);
      expect(await repo.rowsOf(referralCredits)).toEqual([expect.objectContaining({ referralCode: "ABCDEFGH", mailboxKey: next })]);
      // The same move again: the row is no longer as it was read, and nothing changes.
      expect(await repo.addresses.moveEntry(move)).toBe(false);
    });

    it("a suppression or a credit already under the new key stays, and the former one goes: no pair is credited twice", async () => {
      const repo = await fresh();
      const [former, next] = [key(), key()];
      await repo.seed(waitlist, [entry("ｊo@example.org", { mailboxKey: former })]);
      await repo.seed(suppressions, [
        { mailboxKey: former, reason: "bounced", source: "transport", createdAt: at },
        { mailboxKey: next, reason: "unsubscribed", source: "me", createdAt: at },
      ]);
      await repo.seed(referralCredits, [
        { referralCode: "ABCDEFGH", mailboxKey: former, createdAt: at },
        { referralCode: "ABCDEFGH", mailboxKey: next, createdAt: at },
        { referralCode: "HGFEDCBA", mailboxKey: former, createdAt: at },
      ]);
      const row = (await repo.addresses.entriesToCheck(0, 1))[0]!;
      expect(
        await repo.addresses.moveEntry({ row, to: "jo@example.org", key: next, other: null, keep: "row", ...audit, formerKeys: [former] }),
      ).toBe(true);
      expect(await repo.rowsOf(suppressions)).toEqual([expect.objectContaining({ mailboxKey: next, reason: "unsubscribed" })]);
      expect((await repo.rowsOf(referralCredits)).map((credit) => `${credit.referralCode}:${credit.mailboxKey === next}`).sort()).toEqual([
        "ABCDEFGH:true",
        "HGFEDCBA:true",
      ]);
    });

    it("two spellings of one address: the one that does not stay goes with its joiner mails, only while it is as it was read", async () => {
      const repo = await fresh();
      const next = key();
      await repo.seed(waitlist, [
        entry("ｋim@example.org", { mailboxKey: key() }),
        entry("kim@example.org", { confirmedAt: at, mailboxKey: next }),
      ]);
      const [odd, kept] = [await idOf(repo, "ｋim@example.org"), await idOf(repo, "kim@example.org")];
      await repo.seed(joinerMail, [
        { entryId: odd, kind: "confirm", createdAt: at },
        { entryId: kept, kind: "welcome", createdAt: at },
      ]);
      const row = (await repo.addresses.entriesToCheck(0, 1))[0]!;
      const other = (await repo.addresses.entryAt("kim@example.org"))!;
      expect(other).toEqual({ id: String(kept), confirmed: true, order: kept });

      // Read as confirmed, pending in truth: the decision does not hold, and nothing is deleted.
      const stale = {
        row: { ...row, confirmed: true },
        to: "kim@example.org",
        key: next,
        other,
        keep: "other" as const,
        ...audit,
        formerKeys: [],
      };
      expect(await repo.addresses.moveEntry(stale)).toBe(false);
      expect(await repo.findWaitlistEntry("ｋim@example.org")).toBeDefined();
      expect((await repo.rowsOf(joinerMail)).map((mail) => mail.entryId).sort()).toEqual([odd, kept].sort());
      expect(await repo.rowsOf(auditLog)).toEqual([]);

      expect(await repo.addresses.moveEntry({ ...stale, row })).toBe(true);
      expect(await repo.findWaitlistEntry("ｋim@example.org")).toBeUndefined();
      expect(await repo.findWaitlistEntry("kim@example.org")).toMatchObject({ id: kept, confirmedAt: at });
      expect((await repo.rowsOf(joinerMail)).map((mail) => mail.entryId)).toEqual([kept]);
      // Not lost silently: the audit trail records the merge and what the dropped entry carried, never an address.
      const records = await repo.rowsOf(auditLog);
      expect(records).toEqual([
        expect.objectContaining({ action: "address.merged", operator: "backfill", subjectHash: "subject-hash", createdAt: at }),
      ]);
      expect(records[0]!.details).toMatchObject({ table: "waitlist", kept_id: kept, dropped_id: odd, confirmed_at: null, created_at: at });
      expect(JSON.stringify(records[0]!.details)).not.toContain("@");
    });

    it("keeping the row: the other entry goes, and the row takes the address; a failed batch changes nothing", async () => {
      const repo = await fresh();
      const next = key();
      await repo.seed(waitlist, [entry("ｌee@example.org", { confirmedAt: at }), entry("lee@example.org")]);
      const row = (await repo.addresses.entriesToCheck(0, 1))[0]!;
      const other = (await repo.addresses.entryAt("lee@example.org"))!;
      // Read as confirmed, pending in truth: the other is not deleted, so the row cannot take the address.
      const stale = {
        row,
        to: "lee@example.org",
        key: next,
        other: { ...other, confirmed: true },
        keep: "row" as const,
        ...audit,
        formerKeys: [],
      };
      await expect(repo.addresses.moveEntry(stale)).rejects.toThrow();
      expect((await repo.rowsOf(waitlist)).map((stored) => stored.email).sort()).toEqual(["lee@example.org", "ｌee@example.org"]);
      expect(await repo.rowsOf(auditLog)).toEqual([]);
      expect(await repo.addresses.moveEntry({ ...stale, other })).toBe(true);
      expect(await repo.rowsOf(waitlist)).toEqual([
        expect.objectContaining({ id: Number(row.id), email: "lee@example.org", mailboxKey: next }),
      ]);
    });

    it("users: the user takes the address and the old spelling's code goes; the user that does not stay goes with its sessions and tokens", async () => {
      const repo = await fresh();
      await repo.seed(authUsers, [user("old", "ｍia@example.org", "2026-01-01T00:00:00.000Z"), user("new", "mia@example.org")]);
      await repo.seed(authSessions, [
        { id: "s-old", userId: "old", createdAt: at, updatedAt: at },
        { id: "s-new", userId: "new", createdAt: at, updatedAt: at },
      ]);
      await repo.seed(authRefreshTokens, [
        { tokenHash: "t-old", sessionId: "s-old", createdAt: at },
        { tokenHash: "t-new", sessionId: "s-new", createdAt: at },
      ]);
      await repo.seed(authCodes, [{ email: "ｍia@example.org", sentAt: at, expiresAt: at }]);
      const row = (await repo.addresses.usersToCheck(0, 1))[0]!;
      const other = (await repo.addresses.userAt("mia@example.org"))!;
      expect(row.order < other.order).toBe(true);
      expect(await repo.addresses.moveUser({ row, to: "mia@example.org", key: key(), other, keep: "row", ...audit, formerKeys: [] })).toBe(
        true,
      );
      expect(await repo.rowsOf(authUsers)).toEqual([expect.objectContaining({ id: "old", email: "mia@example.org" })]);
      expect((await repo.rowsOf(authSessions)).map((session) => session.id)).toEqual(["s-old"]);
      expect((await repo.rowsOf(authRefreshTokens)).map((token) => token.tokenHash)).toEqual(["t-old"]);
      expect(await repo.rowsOf(authCodes)).toEqual([]);
      const [record] = await repo.rowsOf(auditLog);
      expect(record).toMatchObject({ action: "address.merged", operator: "backfill" });
      expect(record!.details).toMatchObject({ table: "users", kept_id: "old", dropped_id: "new", sessions: 1 });
    });

    it("submissions: reads those whose e-mail field is not ASCII, and writes the canonical address only while the field is as read", async () => {
      const repo = await fresh();
      const submission = (email: string) => ({ formName: "contact", formData: { name: "Ada", email, message: "Hi" }, createdAt: at });
      await repo.seed(formSubmissions, [submission("plain@example.org"), submission("Ｏla@ｅxample.org"), submission("ünal@example.org")]);
      const rows = await repo.addresses.submissionsToCheck(0, 10);
      expect(rows.map((row) => row.addresses)).toEqual([{ email: "Ｏla@ｅxample.org" }, { email: "ünal@example.org" }]);
      expect(await repo.addresses.submissionsToCheck(rows[0]!.position, 10)).toEqual([rows[1]]);

      const to = { email: "ola@example.org" };
      expect(await repo.addresses.moveSubmission(rows[0]!.position, { email: "someone@else.org" }, to)).toBe(false);
      expect(await repo.addresses.moveSubmission(rows[0]!.position, rows[0]!.addresses, to)).toBe(true);
      expect(await repo.addresses.moveSubmission(rows[1]!.position, rows[1]!.addresses, {})).toBe(true);
      const stored = await repo.rowsOf(formSubmissions);
      expect(stored.map((row) => row.formData)).toEqual([
        { name: "Ada", email: "plain@example.org", message: "Hi" },
        { name: "Ada", email: "ola@example.org", message: "Hi" },
        { name: "Ada", email: "ünal@example.org", message: "Hi" },
      ]);
    });

    it("deleteCodes deletes exactly the rows named", async () => {
      const repo = await fresh();
      await repo.seed(authCodes, [
        { email: "ｎed@example.org", sentAt: at, expiresAt: at },
        { email: "ned@example.org", sentAt: at, expiresAt: at },
      ]);
      await repo.addresses.deleteCodes(["ｎed@example.org"]);
      await repo.addresses.deleteCodes([]);
      expect((await repo.rowsOf(authCodes)).map((code) => code.email)).toEqual(["ned@example.org"]);
    });
  });
}
