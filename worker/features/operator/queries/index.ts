import { and, count, desc, eq, lt, or, sql, type SQL } from "drizzle-orm";
import type { AdminStats } from "../../../shared/admin";
import type { FormDefinition } from "../../../shared/forms";
import { createOperatorActions } from "./actions";
import { pagePlaces } from "./journey";
import { type ListedEntry, listed, listedEntry, pageCredits } from "./listed";
import { createPeopleQueries } from "./people";
import { adminStats, type StatsOptions } from "./stats";
import { ATTRIBUTION_COLUMNS } from "../../waitlist/queries/join";
import type { Database } from "../../../platform/db/database";
import { auditLog, formSubmissions, waitlist } from "../../../platform/db/schema";
import type { FormSubmission } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";

/**
 * What the operator API (worker/features/operator/routes.ts) reads and erases: lists newest first with keyset
 * pagination, the stats in one batch, the audit trail, and what names a person (people.ts:
 * everything stored about one address, and its erasure in one batch together with its audit record).
 */

export type { AuditOf, PersonData } from "./people";
export type { HeldResult, VoidResult } from "./actions";
export type { CreditState, ListedEntry } from "./listed";

/** Where a page of a list starts: after the row with this created_at and id (newest first). */
export type ListCursor = { createdAt: string; id: number };
export type ListQuery = { q: string; limit: number; after: ListCursor | null };

/** Rows older than the cursor, in the list's order (created_at, then id, both descending). */
function olderThan(t: typeof waitlist | typeof formSubmissions, after: ListCursor | null): SQL | undefined {
  if (!after) return undefined;
  return or(lt(t.createdAt, after.createdAt), and(eq(t.createdAt, after.createdAt), lt(t.id, after.id)));
}

/** A page of a list, and how many rows match its search in all (every page together). */
export type Listed<R> = { rows: R[]; total: number };

/**
 * Waitlist entries whose address or campaign (utm_source, utm_medium, utm_campaign,
 * referrer_host) holds `q`, in any case: all five are stored lower-cased, so `q` is lower-cased
 * (fully, as the values were) and compared as it is. Referral codes (its own and the one it
 * joined with) are stored upper-case and compared with `q` upper-cased: a code finds its
 * referrer and the friends it brought. "" matches every entry.
 */
function waitlistMatches(q: string): SQL | undefined {
  if (q === "") return undefined;
  const lower = [waitlist.email, ...ATTRIBUTION_COLUMNS.map(({ column }) => column)].map((column) => [column, q.toLowerCase()] as const);
  const upper = [waitlist.referralCode, waitlist.referredBy].map((column) => [column, q.toUpperCase()] as const);
  return or(...[...lower, ...upper].map(([column, needle]) => sql`coalesce(instr(${column}, ${needle}), 0) > 0`));
}

/** A form's submissions with `q` in any field (ASCII letters in any case; "" matches all). */
function submissionMatches(formName: string, q: string): SQL | undefined {
  return and(
    eq(formSubmissions.formName, formName),
    q === "" ? undefined : sql`instr(lower(${formSubmissions.formData}), ${q.toLowerCase()}) > 0`,
  );
}

export function createAdminRepository(db: Database) {
  const waitlistPage = ({ q, limit, after }: ListQuery) =>
    db
      .select()
      .from(waitlist)
      .where(and(waitlistMatches(q), olderThan(waitlist, after)))
      .orderBy(desc(waitlist.createdAt), desc(waitlist.id))
      .limit(limit);
  const submissionsPage = (formName: string, { q, limit, after }: ListQuery) =>
    db
      .select()
      .from(formSubmissions)
      .where(and(submissionMatches(formName, q), olderThan(formSubmissions, after)))
      .orderBy(desc(formSubmissions.createdAt), desc(formSubmissions.id))
      .limit(limit);

  return {
    ...createPeopleQueries(db),

    /** Everything the console's overview shows, in one database call (stats.ts). */
    stats: (now: Date, options: StatsOptions): Promise<Omit<AdminStats, "visitorMail" | "retention" | "mailDeadLetters">> =>
      adminStats(db, now, options),

    /**
     * One page of the waitlist, newest first, each entry with its place and its referral credits
     * (journey.ts pagePlaces, listed.ts pageCredits, in the same batch); `q` a case-insensitive
     * part of the address, campaign or referral codes (waitlistMatches; "" for all).
     */
    async listWaitlist(query: ListQuery): Promise<ListedEntry[]> {
      const [rows, places, credits] = await db.batch([
        waitlistPage(query),
        pagePlaces(db, waitlistPage(query).getSQL()),
        pageCredits(db, waitlistPage(query).getSQL()),
      ]);
      return listed(rows, places, credits);
    },

    /** listWaitlist's page, and how many entries match `q` in all: one COUNT in the same batch (the console's "26-50 of 60"). */
    async searchWaitlist(query: ListQuery): Promise<Listed<ListedEntry>> {
      const [rows, places, credits, [counted]] = await db.batch([
        waitlistPage(query),
        pagePlaces(db, waitlistPage(query).getSQL()),
        pageCredits(db, waitlistPage(query).getSQL()),
        db.select({ total: count() }).from(waitlist).where(waitlistMatches(query.q)),
      ]);
      return { rows: listed(rows, places, credits), total: counted?.total ?? 0 };
    },

    /** One entry as the list shows it (null: none). */
    listedEntry: (id: number): Promise<ListedEntry | null> => listedEntry(db, id),

    /** Holding an entry out of invite waves, and voiding the referral credit it gave (actions.ts). */
    ...createOperatorActions(db),

    /** One page of a form's submissions (by its stored name), newest first; `q` a part of any field, ASCII letters in any case. */
    listSubmissions: (formName: string, query: ListQuery): Promise<FormSubmission[]> => submissionsPage(formName, query),

    /** listSubmissions' page, and how many match in all (one COUNT in the same batch). */
    async searchSubmissions(formName: string, query: ListQuery): Promise<Listed<FormSubmission>> {
      const [rows, [counted]] = await db.batch([
        submissionsPage(formName, query),
        db.select({ total: count() }).from(formSubmissions).where(submissionMatches(formName, query.q)),
      ]);
      return { rows, total: counted?.total ?? 0 };
    },

    /**
     * Every undelivered notification becomes due now (its backoff cleared); one being sent at
     * this moment keeps its claim. Returns how many there are.
     */
    async requeueUndelivered(): Promise<number> {
      const requeue = (t: typeof waitlist | typeof formSubmissions) =>
        db.update(t).set({ notifyNextAttemptAt: null }).where(eq(t.emailSent, false)).returning({ id: t.id });
      const [w, f] = await db.batch([requeue(waitlist), requeue(formSubmissions)]);
      return w.length + f.length;
    },

    /** Records an operator's action: one that named no person, or one about a person named by `subjectHash` only. */
    async recordAction(
      action: string,
      operator: string,
      details: Record<string, unknown>,
      now: Date,
      subjectHash: string | null = null,
    ): Promise<void> {
      await db.insert(auditLog).values({ action, operator, subjectHash, details, createdAt: iso(now) });
    },

    /**
     * Records a CSV export (`waitlist.exported`, `submissions.exported` with the form's slug) with
     * how many rows it holds, counted by the same statement.
     */
    async recordExport(what: { table: "waitlist" } | { table: "submissions"; form: FormDefinition }, operator: string, now: Date) {
      const details =
        what.table === "waitlist"
          ? sql`json_object('rows', (select count(*) from ${waitlist}))`
          : sql`json_object('form', ${what.form.slug}, 'rows', (select count(*) from ${formSubmissions} where ${formSubmissions.formName} = ${what.form.name}))`;
      await db.insert(auditLog).values({ action: `${what.table}.exported`, operator, subjectHash: null, details, createdAt: iso(now) });
    },

    /** The audit trail, newest first. */
    async auditTrail(limit = 100) {
      return db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(limit);
    },
  };
}

export type AdminRepository = ReturnType<typeof createAdminRepository>;
