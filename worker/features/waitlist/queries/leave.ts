import { eq, sql } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { joinerMail, waitlist } from "../../../platform/db/schema";
import { erasureEventStatements } from "../../webhooks/queries/record-erasure";

/**
 * Leaves the waitlist (DELETE /api/me/waitlist): the entry and its joiner mails, in one batch,
 * carried downstream as the retention sweep's deletion of an entry is (README "Erasure, carried
 * downstream"): before the rows go, person.erased to the endpoints the entry's data reached, and
 * the rest of its deliveries cancelled and its events redacted. False when there was no entry
 * (then nothing is stored). The caller kicks the webhooks queue after it.
 */
export async function leaveEntry(db: Database, email: string, now: Date): Promise<boolean> {
  const entry = sql`select e.email as email from ${waitlist} e where e.email = ${email}`;
  const erasure = erasureEventStatements(db, entry, now);
  const results = await db.batch([
    ...erasure,
    db.delete(joinerMail).where(eq(joinerMail.entryId, sql`(select id from ${waitlist} where email = ${email})`)),
    db.delete(waitlist).where(eq(waitlist.email, email)).returning({ id: waitlist.id }),
  ]);
  return (results[results.length - 1] as { id: number }[]).length > 0;
}
