import { countOne } from "../../platform/db/counters";
import type { Database } from "../../platform/db/database";
import { type FirstClaim, newClaim } from "../notifications/queries";
import { iso } from "../../platform/db/sql";
import { formSubmissions } from "../../platform/db/schema";
import type { FormSubmission } from "../../platform/db/schema";

export function createSubmissionRepository(db: Database) {
  return {
    /** Stores a submission with its notification claimed by the caller (and counted, see FirstClaim). */
    async insert(
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
