import { and, count, desc, eq, getTableColumns, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import type { BatchResponse } from "drizzle-orm/batch";
import type { AdminStats } from "../../../shared/admin";
import { FORMS, type FormDefinition } from "../../../shared/forms";
import { pagePlaces, placeColumn, type PlacedEntry, withPlaces } from "./journey";
import { adminStats, type StatsOptions } from "./stats";
import { ATTRIBUTION_COLUMNS } from "../../waitlist/queries/join";
import { eraseConsent } from "../../campaigns/queries/consent";
import type { Database } from "../../../platform/db/database";
import {
  auditLog,
  authCodes,
  authRefreshTokens,
  authSessions,
  authUsers,
  formSubmissions,
  joinerMail,
  waitlist,
} from "../../../platform/db/schema";
import type { AuthSession, AuthUser, FormSubmission } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";

/**
 * What the operator API (worker/features/operator/routes.ts) reads and erases: lists newest first with keyset
 * pagination, the stats in one batch, everything stored about one address, and its erasure in
 * one batch together with its audit record.
 */

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

/** The names of the e-mail fields of every form: where a submission names its sender. */
const EMAIL_FIELDS = [
  ...new Set(FORMS.flatMap((form) => form.fields.filter((field) => field.type === "email").map((field) => field.name))),
];

/** Submissions whose e-mail field (of any form) is `email` (stored addresses compared lower-cased). */
function submittedBy(email: string): SQL {
  const matches = EMAIL_FIELDS.map((name) => sql`lower(json_extract(${formSubmissions.formData}, ${`$.${name}`})) = ${email}`);
  return matches.length === 0 ? sql`0` : or(...matches)!;
}

export type PersonData = {
  waitlist: PlacedEntry | null;
  submissions: FormSubmission[];
  user: (AuthUser & { sessions: AuthSession[] }) | null;
  /** The address's sign-in code record; `live` while its code has not been used or worn out. */
  signInCode: { sentAt: string; expiresAt: string; live: boolean } | null;
};

/** Who did an audited action to whom (a keyed hash of the address, never the address), and when. */
export type AuditOf = { operator: string; subjectHash: string; now: Date };

/** The counts of what is stored about one address, as one SQL json_object (for an audit record). */
function storedCounts(email: string): SQL {
  const counted = (statement: SQL) => sql`(${statement})`;
  return sql`json_object(
    'waitlist', ${counted(sql`select count(*) from ${waitlist} where ${waitlist.email} = ${email}`)},
    'submissions', ${counted(sql`select count(*) from ${formSubmissions} where ${submittedBy(email)}`)},
    'users', ${counted(sql`select count(*) from ${authUsers} where ${authUsers.email} = ${email}`)})`;
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

  /** An audit record about one address, its details the counts of what is stored about it (read as the batch runs). */
  const auditPerson = (action: string, email: string, audit: AuditOf) =>
    db.insert(auditLog).values({
      action,
      operator: audit.operator,
      subjectHash: audit.subjectHash,
      details: storedCounts(email),
      createdAt: iso(audit.now),
    });

  return {
    /** Everything the console's overview shows, in one database call (admin-stats.ts). */
    stats: (now: Date, options: StatsOptions): Promise<AdminStats> => adminStats(db, now, options),

    /**
     * One page of the waitlist, newest first, each entry with its place (admin-journey.ts
     * pagePlaces, in the same batch); `q` a case-insensitive part of the address, campaign or
     * referral codes (waitlistMatches; "" for all).
     */
    async listWaitlist(query: ListQuery): Promise<PlacedEntry[]> {
      const [rows, places] = await db.batch([waitlistPage(query), pagePlaces(db, waitlistPage(query).getSQL())]);
      return withPlaces(rows, places);
    },

    /** listWaitlist's page, and how many entries match `q` in all: one COUNT in the same batch (the console's "26-50 of 60"). */
    async searchWaitlist(query: ListQuery): Promise<Listed<PlacedEntry>> {
      const [rows, places, [counted]] = await db.batch([
        waitlistPage(query),
        pagePlaces(db, waitlistPage(query).getSQL()),
        db.select({ total: count() }).from(waitlist).where(waitlistMatches(query.q)),
      ]);
      return { rows: withPlaces(rows, places), total: counted?.total ?? 0 };
    },

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

    /**
     * Everything stored about one (normalised) address. With `audit` (the operator API always
     * gives it), the batch's first statement records the look-up in the audit trail
     * (`person.looked_up`, with the counts it found), so no look-up goes unrecorded.
     */
    async person(email: string, audit?: AuditOf): Promise<PersonData> {
      const reads = [
        db
          .select({ ...getTableColumns(waitlist), place: placeColumn })
          .from(waitlist)
          .where(eq(waitlist.email, email))
          .limit(1),
        db.select().from(formSubmissions).where(submittedBy(email)).orderBy(desc(formSubmissions.createdAt), desc(formSubmissions.id)),
        db.select().from(authUsers).where(eq(authUsers.email, email)).limit(1),
        db
          .select({ session: authSessions })
          .from(authSessions)
          .innerJoin(authUsers, eq(authUsers.id, authSessions.userId))
          .where(eq(authUsers.email, email))
          .orderBy(desc(authSessions.createdAt)),
        db
          .select({ sentAt: authCodes.sentAt, expiresAt: authCodes.expiresAt, live: sql<number>`${authCodes.codeHash} is not null` })
          .from(authCodes)
          .where(eq(authCodes.email, email))
          .limit(1),
      ] as const;
      type Read = BatchResponse<typeof reads>;
      const [entries, submissions, users, sessions, codes] = audit
        ? ((await db.batch([auditPerson("person.looked_up", email, audit), ...reads])).slice(1) as unknown as Read)
        : await db.batch(reads);
      const user = users[0];
      return {
        waitlist: entries[0] ?? null,
        submissions,
        user: user ? { ...user, sessions: sessions.map((row) => row.session) } : null,
        signInCode: codes[0] ? { sentAt: codes[0].sentAt, expiresAt: codes[0].expiresAt, live: Boolean(codes[0].live) } : null,
      };
    },

    /**
     * Erases everything stored about one (normalised) address in one batch: its waitlist entry
     * with its joiner e-mails (queued or sent), the submissions it sent, its sign-in user with the sessions and refresh tokens, its code,
     * and its mailbox's suppression and consent trail (`mailboxKey`: the address's, which finds them after the entry left).
     * The batch's first statement writes the audit record, with the counts of what the rest
     * deletes, so an erasure is never done without its record nor recorded without being done.
     */
    async erasePerson(email: string, audit: AuditOf, mailboxKey?: string) {
      const userIds = db.select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.email, email));
      const sessionIds = db.select({ id: authSessions.id }).from(authSessions).where(inArray(authSessions.userId, userIds));
      const [, , , , entries, submissions, , , users] = await db.batch([
        auditPerson("person.erased", email, audit),
        ...eraseConsent(db, email, mailboxKey),
        db
          .delete(joinerMail)
          .where(inArray(joinerMail.entryId, db.select({ id: waitlist.id }).from(waitlist).where(eq(waitlist.email, email)))),
        db.delete(waitlist).where(eq(waitlist.email, email)).returning({ id: waitlist.id }),
        db.delete(formSubmissions).where(submittedBy(email)).returning({ id: formSubmissions.id }),
        db.delete(authRefreshTokens).where(inArray(authRefreshTokens.sessionId, sessionIds)),
        db.delete(authSessions).where(inArray(authSessions.userId, userIds)),
        db.delete(authUsers).where(eq(authUsers.email, email)).returning({ id: authUsers.id }),
        db.delete(authCodes).where(eq(authCodes.email, email)),
      ]);
      return { waitlist: entries.length, submissions: submissions.length, users: users.length };
    },

    /** Records an operator's action that named no person. */
    async recordAction(action: string, operator: string, details: Record<string, unknown>, now: Date): Promise<void> {
      await db.insert(auditLog).values({ action, operator, subjectHash: null, details, createdAt: iso(now) });
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
