import { countOne } from "../../platform/db/counters";
import type { Database } from "../../platform/db/database";
import { type FirstClaim, newClaim } from "../notifications/queries";
import { iso } from "../../platform/db/sql";
import { formSubmissions } from "../../platform/db/schema";
import type { FormSubmission } from "../../platform/db/schema";
import { type ContactSender, contactEventStatements } from "../webhooks/queries/record";

export function createSubmissionRepository(db: Database) {
  return {
    /**
     * Stores a submission with its notification claimed by the caller (and counted, see FirstClaim).
     * `event`: the form's slug when the submission is a contact message, whose contact.received
     * webhook event (issue 25) is stored in the same batch, and its sender (canonical address and
     * mailbox key, computed before the batch) for the children's rule.
     */
    async insert(
      formName: string,
      data: Record<string, unknown>,
      claim: FirstClaim,
      event?: { slug: string; sender: ContactSender },
    ): Promise<{ submission: FormSubmission; budgetUsed: number | null }> {
      const mine = newClaim(claim);
      const insert = db
        .insert(formSubmissions)
        .values({ formName, formData: data, createdAt: iso(claim.now), notifyAttempts: 1, ...mine })
        .returning();
      const events = event ? contactEventStatements(db, { ...event, name: formName }, mine.notifyClaim, claim.now) : [];
      if (!claim.budget && events.length === 0) return { submission: (await insert)[0]!, budgetUsed: null };
      const budget = claim.budget ? [countOne(db, claim.budget.key, claim.budget.window)] : [];
      const results = (await db.batch([insert, ...budget, ...events] as unknown as [typeof insert])) as unknown[];
      const counts = claim.budget ? (results[1] as { count: number }[]) : null;
      return { submission: (results[0] as FormSubmission[])[0]!, budgetUsed: counts ? counts[0]!.count : null };
    },
  };
}
