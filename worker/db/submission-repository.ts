import { countOne } from "./counter-repository";
import type { Database } from "./database";
import { type FirstClaim, iso, newClaim } from "./outbox-repository";
import { formSubmissions } from "./schema";
import type { FormSubmission } from "./schema";

export function createSubmissionRepository(db: Database) {
  return {
    /** Stores a submission with its notification claimed by the caller (and counted, see FirstClaim). */
    async insertFormSubmission(
      formName: string,
      data: Record<string, unknown>,
      claim: FirstClaim,
    ): Promise<{ submission: FormSubmission; budgetUsed: number | null }> {
      const insert = db
        .insert(formSubmissions)
        .values({ formName, formData: data, createdAt: iso(claim.now), notifyAttempts: 1, ...newClaim(claim) })
        .returning();
      if (!claim.budget) return { submission: (await insert)[0]!, budgetUsed: null };
      const [rows, counts] = await db.batch([insert, countOne(db, claim.budget.key, claim.budget.window)]);
      return { submission: rows[0]!, budgetUsed: counts[0]!.count };
    },
  };
}
