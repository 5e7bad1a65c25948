import { and, asc, count, eq, gte, inArray, isNotNull, isNull, lt, max, sql, type SQLWrapper } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../platform/db/database";
import { formSubmissions, joinerMail, parentalRequests, retentionDeletions, waitlist } from "../../platform/db/schema";
import { iso } from "../../platform/db/sql";
import { CONTACT_FORM } from "../../shared/forms";
import type { RetentionKind } from "../../shared/retention";
import { erasureEventStatements, redactContactEventsStatement } from "../webhooks/queries/record-erasure";

/** One sweep: rows older than `before`, at most `limit` of them, counted under `day` (YYYY-MM-DD, UTC), at `now` (the time webhook events carry). */
export type SweepOptions = { before: Date; limit: number; day: string; now?: Date };

/**
 * The retention schedule's storage (the rules are sweep.ts's). Each kind names the rows due (a
 * select of ids, oldest first, at most `limit`) and what is done to them; a sweep is one batch:
 * the count of the rows due, their count added to the day's, then the deletion, so each
 * statement reads the same rows (a batch is one transaction on D1 and on libSQL) and the count is
 * exactly what went. The ids stay inside the statements (a subquery), never bound one by one.
 */
type Due = {
  ids: SQLWrapper & { toSQL: () => { sql: string; params: unknown[] } };
  /** The rows of `ids`, counted (one row: n). */
  counted: (ids: SQLWrapper) => BatchItem<"sqlite">;
  act: (ids: SQLWrapper) => BatchItem<"sqlite">[];
};

const n = count().as("n");

/** What each kind of the schedule deletes; the kinds are worker/shared/retention.ts's. */
const DUE: Record<RetentionKind, (db: Database, options: SweepOptions) => Due> = {
  // Entries never confirmed whose last join is past the cut-off (updated_at, which a join moves,
  // as does the team's notification once delivered; created_at is never later: read through its
  // index), with their e-mails not sent yet. Deleting one is erasing that person here: the webhook
  // endpoints ever sent their address get person.erased, as an erasure's (issue 25; record-erasure.ts).
  unconfirmed_entries: (db, { before, limit, now }) => ({
    ids: db
      .select({ id: waitlist.id })
      .from(waitlist)
      .where(and(isNull(waitlist.confirmedAt), lt(waitlist.createdAt, iso(before)), lt(waitlist.updatedAt, iso(before))))
      .orderBy(asc(waitlist.createdAt), asc(waitlist.id))
      .limit(limit),
    counted: (ids) => db.select({ n }).from(waitlist).where(inArray(waitlist.id, ids)),
    act: (ids) => [
      ...erasureEventStatements(db, sql`select e.email as email from ${waitlist} e where e.id in ${ids}`, now ?? new Date()),
      db.delete(joinerMail).where(inArray(joinerMail.entryId, ids)),
      db.delete(waitlist).where(inArray(waitlist.id, ids)),
    ],
  }),
  // The client network's keyed hash, written when a referred entry confirmed: cleared, the entry stays.
  referral_networks: (db, { before, limit }) => ({
    ids: db
      .select({ id: waitlist.id })
      .from(waitlist)
      .where(and(isNotNull(waitlist.referralNetwork), lt(waitlist.confirmedAt, iso(before))))
      .orderBy(asc(waitlist.confirmedAt), asc(waitlist.id))
      .limit(limit),
    counted: (ids) => db.select({ n }).from(waitlist).where(inArray(waitlist.id, ids)),
    act: (ids) => [db.update(waitlist).set({ referralNetwork: null }).where(inArray(waitlist.id, ids))],
  }),
  // The contact form's messages only (another form's are not in the schedule).
  contact_messages: (db, { before, limit }) => ({
    ids: db
      .select({ id: formSubmissions.id })
      .from(formSubmissions)
      .where(and(eq(formSubmissions.formName, CONTACT_FORM.name), lt(formSubmissions.createdAt, iso(before))))
      .orderBy(asc(formSubmissions.createdAt), asc(formSubmissions.id))
      .limit(limit),
    counted: (ids) => db.select({ n }).from(formSubmissions).where(inArray(formSubmissions.id, ids)),
    // Their contact.received webhook events (issue 25) lose the message once nothing waits to send them.
    act: (ids) => [
      redactContactEventsStatement(db, sql`select i.id from ${ids} i`),
      db.delete(formSubmissions).where(inArray(formSubmissions.id, ids)),
    ],
  }),
  // A child's request no parent answered (its link expired with it, worker/features/parents/token.ts):
  // the parent's address, the band and the country go, sent or not (its e-mail is the row itself).
  parental_requests: (db, { before, limit }) => ({
    ids: db
      .select({ id: parentalRequests.id })
      .from(parentalRequests)
      .where(lt(parentalRequests.createdAt, iso(before)))
      .orderBy(asc(parentalRequests.createdAt), asc(parentalRequests.id))
      .limit(limit),
    counted: (ids) => db.select({ n }).from(parentalRequests).where(inArray(parentalRequests.id, ids)),
    act: (ids) => [db.delete(parentalRequests).where(inArray(parentalRequests.id, ids))],
  }),
};

/** The ids a sweep of `kind` would take (test/node/retention-plan.test.ts reads its query plan). */
export const dueIds = (db: Database, kind: RetentionKind, options: SweepOptions) => DUE[kind](db, options).ids;

export function createRetentionRepository(db: Database) {
  return {
    /** Deletes (or clears) what `kind` names past the cut-off, at most `limit`, and counts it under the day: one batch. How many. */
    async sweep(kind: RetentionKind, options: SweepOptions): Promise<number> {
      const { ids, counted, act } = DUE[kind](db, options);
      const [due] = await db.batch([
        counted(ids),
        db
          .insert(retentionDeletions)
          .select(sql`select ${options.day}, ${kind}, n from (select count(*) as n from (${ids})) where n > 0`)
          .onConflictDoUpdate({
            target: [retentionDeletions.day, retentionDeletions.kind],
            set: { count: sql`${retentionDeletions.count} + excluded.count` },
          }),
        ...act(ids),
      ]);
      return Number((due as { n: number }[])[0]?.n ?? 0);
    },

    /** What the schedule deleted per day and kind, from `since` (YYYY-MM-DD) on. */
    deletions: (since: string) =>
      db
        .select({ day: retentionDeletions.day, kind: retentionDeletions.kind, count: retentionDeletions.count })
        .from(retentionDeletions)
        .where(gte(retentionDeletions.day, since)),

    /** The last day anything was deleted, or null. */
    async lastDeletionDay(): Promise<string | null> {
      const [row] = await db.select({ day: max(retentionDeletions.day) }).from(retentionDeletions);
      return row?.day ?? null;
    },
  };
}
