// The mail queue's storage (worker/features/mail-queue/queries.ts), shared by the D1 and libSQL test files.
import { describe, expect, it } from "vitest";
import { formSubmissions } from "../../worker/platform/db/schema";
import type { TestRepository } from "./records";

/**
 * What a batch of the mail queue relies on, on D1 in workerd and on libSQL in Node: a row is
 * claimed by a batch only while it holds the job's claim (or is free and due), once; outcomes are
 * recorded only by the batch that holds the row; the cron claims due rows whose lease lapsed; dead
 * letters are kept one per row and retried with a fresh claim. `fresh()` gives a repository on an
 * empty, migrated database.
 */
export function mailQueueRepositorySuite(driver: string, fresh: () => Promise<TestRepository>) {
  const now = new Date("2026-12-04T12:00:00.000Z");
  const at = (ms: number) => new Date(now.getTime() + ms);
  const lockMs = 60_000;
  const budget = { key: "visitor-mail-day", window: { start: 1_764_806_400, end: 1_764_892_800 }, max: 10 };
  const batch = (claim: string, ms = 0) => ({ claim, now: at(ms), lockMs, budget });

  describe(`mail queue repository (${driver})`, () => {
    it("claims a job's row once, records its outcome only for its holder, and the cron takes it up when due", async () => {
      const repo = await fresh();
      const { submission } = await repo.contact.insert("Contact Form", { name: "A", message: "hi" }, { now, lockMs });
      const ref = { kind: "form" as const, id: submission.id, claim: submission.notifyClaim! };

      const first = await repo.mailQueue.claimBatch([ref], batch("batch-1"));
      expect(first.form.map((row) => row.notifyClaim)).toEqual(["batch-1"]);
      expect(first.budgetTaken).toBe(0);
      // The same job again (redelivered): the row holds another claim under a live lease.
      expect((await repo.mailQueue.claimBatch([ref], batch("batch-2"))).form).toEqual([]);

      // Only the holder records: batch-2's failure is ignored, batch-1's counts.
      const failure = {
        kind: "form" as const,
        id: submission.id,
        outcome: "failed" as const,
        error: "HTTP 500",
        nextAttemptAt: at(300_000),
      };
      await repo.mailQueue.recordBatch([failure], { claim: "batch-2", now, giveBack: 0, budget });
      expect((await repo.rowsOf(formSubmissions))[0]).toMatchObject({ notifyClaim: "batch-1", notifyLastError: null });
      await repo.mailQueue.recordBatch([failure], { claim: "batch-1", now, giveBack: 0, budget });
      expect((await repo.rowsOf(formSubmissions))[0]).toMatchObject({ notifyClaim: null, notifyLastError: "HTTP 500" });

      // Due only after its backoff; then the cron's claim (the attempt counted).
      expect(await repo.mailQueue.claimDue({ joiner: 0, parent: 0, waitlist: 10, form: 10 }, { now: at(1000), lockMs })).toEqual([]);
      const [due] = await repo.mailQueue.claimDue({ joiner: 0, parent: 0, waitlist: 10, form: 10 }, { now: at(301_000), lockMs });
      expect(due).toMatchObject({ kind: "form", id: submission.id, attempts: 2 });
      // The old job's claim is no longer the row's, and the cron's lease is live.
      expect((await repo.mailQueue.claimBatch([ref], batch("batch-3", 302_000))).form).toEqual([]);
      const cronBatch = await repo.mailQueue.claimBatch(
        [{ kind: "form", id: submission.id, claim: due!.claim }],
        batch("batch-4", 302_000),
      );
      expect(cronBatch.form).toHaveLength(1);
      await repo.mailQueue.recordBatch([{ kind: "form", id: submission.id, outcome: "sent" }], {
        claim: "batch-4",
        now: at(303_000),
        giveBack: 0,
        budget,
      });
      expect((await repo.rowsOf(formSubmissions))[0]).toMatchObject({ emailSent: true, notifyClaim: null });
      expect(await repo.mailQueue.claimDue({ joiner: 0, parent: 0, waitlist: 10, form: 10 }, { now: at(DAY), lockMs })).toEqual([]);
    });

    it("keeps one dead letter per row, lists them, and a retry claims the unsent rows afresh and clears them", async () => {
      const repo = await fresh();
      const { submission } = await repo.contact.insert("Contact Form", { name: "A", message: "hi" }, { now, lockMs });
      const letter = { kind: "form" as const, id: submission.id, error: "down" };
      await repo.mailQueue.recordDeadLetters([letter, { kind: "joiner", id: 999, error: "down" }], now);
      await repo.mailQueue.recordDeadLetters([{ ...letter, error: "still down" }], at(1000));
      const listed = await repo.mailQueue.deadLetters(10);
      expect(listed.total).toBe(2);
      expect(listed.items[0]).toMatchObject({ kind: "form", rowId: submission.id, error: "still down" });
      const refs = await repo.mailQueue.retryDeadLetters("all", { now: at(2000), lockMs });
      // The joiner row 999 does not exist: only its dead letter goes.
      expect(refs).toEqual([{ kind: "form", id: submission.id, claim: expect.any(String) }]);
      expect((await repo.rowsOf(formSubmissions))[0]!.notifyClaim).toBe(refs[0]!.claim);
      expect((await repo.mailQueue.deadLetters(10)).total).toBe(0);
    });
  });
}

const DAY = 86_400_000;
