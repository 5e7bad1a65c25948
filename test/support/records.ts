import { desc, eq } from "drizzle-orm";
import type { Database } from "../../worker/platform/db/database";
import { createRepository } from "../../worker/repository";
import { formSubmissions, referralCredits, waitlist, type FormSubmission, type WaitlistEntry } from "../../worker/platform/db/schema";

/**
 * The repository, plus the lookups only tests need to check what was stored (the worker itself
 * reads records through the operator API's lists, worker/features/operator/queries/index.ts). Used on D1 in
 * workerd and on libSQL in Node alike.
 */
export function repositoryWithLookups(db: Database) {
  return {
    ...createRepository(db),

    async findWaitlistEntry(email: string): Promise<WaitlistEntry | undefined> {
      const rows = await db.select().from(waitlist).where(eq(waitlist.email, email)).limit(1);
      return rows[0];
    },

    async findFormSubmission(id: number): Promise<FormSubmission | undefined> {
      const rows = await db.select().from(formSubmissions).where(eq(formSubmissions.id, id)).limit(1);
      return rows[0];
    },

    /** Referral credits as they were stored before they kept their boost (migration 0010). */
    async forgetCreditBoosts(): Promise<void> {
      await db.update(referralCredits).set({ boost: null });
    },

    /** Spec §7: all entries, newest first. */
    async listWaitlist(): Promise<WaitlistEntry[]> {
      return db.select().from(waitlist).orderBy(desc(waitlist.createdAt), desc(waitlist.id));
    },
  };
}

export type TestRepository = ReturnType<typeof repositoryWithLookups>;
