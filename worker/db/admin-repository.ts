import { and, count, desc, eq, gte, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { NO_VALUE, STATS_DAYS, type AdminStats } from "../shared/admin";
import { FORMS, formSlugOf } from "../shared/forms";
import type { Database } from "./database";
import { auditLog, authCodes, authRefreshTokens, authSessions, authUsers, formSubmissions, waitlist } from "./schema";
import type { AuthSession, AuthUser, FormSubmission, WaitlistEntry } from "./schema";

/**
 * What the operator API (worker/routes/admin.ts) reads and erases: lists newest first with keyset
 * pagination, the stats in one batch, everything stored about one address, and its erasure in
 * one batch together with its audit record.
 */

/** Where a page of a list starts: after the row with this created_at and id (newest first). */
export type ListCursor = { createdAt: string; id: number };
export type ListQuery = { q: string; limit: number; after: ListCursor | null };

const DAY_MS = 24 * 60 * 60 * 1000;
const iso = (date: Date) => date.toISOString();

/** Rows older than the cursor, in the list's order (created_at, then id, both descending). */
function olderThan(t: typeof waitlist | typeof formSubmissions, after: ListCursor | null): SQL | undefined {
  if (!after) return undefined;
  return or(lt(t.createdAt, after.createdAt), and(eq(t.createdAt, after.createdAt), lt(t.id, after.id)));
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

/** Per value of a column, how many rows have it; rows without one are counted under NO_VALUE. */
function countsBy(rows: { key: string | null; count: number }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { key, count } of rows) {
    const name = key ?? NO_VALUE;
    counts[name] = (counts[name] ?? 0) + count;
  }
  return counts;
}

export type PersonData = {
  waitlist: WaitlistEntry | null;
  submissions: FormSubmission[];
  user: (AuthUser & { sessions: AuthSession[] }) | null;
  /** The address's sign-in code record; `live` while its code has not been used or worn out. */
  signInCode: { sentAt: string; expiresAt: string; live: boolean } | null;
};

export function createAdminRepository(db: Database) {
  const groupCount = (column: SQLiteColumn) =>
    db
      .select({ key: sql<string | null>`${column}`, count: count() })
      .from(waitlist)
      .groupBy(column);

  return {
    /** Everything the console's overview shows, in one database call. */
    async stats(now: Date): Promise<AdminStats> {
      const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      const firstDay = new Date(today - (STATS_DAYS - 1) * DAY_MS);
      const day = sql<string>`substr(${waitlist.createdAt}, 1, 10)`;
      const undelivered = (t: typeof waitlist | typeof formSubmissions) =>
        db
          .select({ count: count(), oldest: sql<string | null>`min(${t.createdAt})` })
          .from(t)
          .where(eq(t.emailSent, false));
      const [totals, bySource, byUtmSource, byUtmMedium, byUtmCampaign, byReferrerHost, byDay, byForm, waitingW, waitingF] = await db.batch(
        [
          db
            .select({
              total: count(),
              // Named: D1 returns a batch's rows by column name, and the two expressions differ only in a parameter.
              last24h: sql<number>`coalesce(sum(${waitlist.createdAt} >= ${iso(new Date(now.getTime() - DAY_MS))}), 0)`.as("last_24h"),
              last7d: sql<number>`coalesce(sum(${waitlist.createdAt} >= ${iso(new Date(now.getTime() - 7 * DAY_MS))}), 0)`.as("last_7d"),
            })
            .from(waitlist),
          groupCount(waitlist.source),
          groupCount(waitlist.utmSource),
          groupCount(waitlist.utmMedium),
          groupCount(waitlist.utmCampaign),
          groupCount(waitlist.referrerHost),
          db
            .select({ date: day, count: count() })
            .from(waitlist)
            .where(gte(waitlist.createdAt, iso(firstDay)))
            .groupBy(day),
          db.select({ key: formSubmissions.formName, count: count() }).from(formSubmissions).groupBy(formSubmissions.formName),
          undelivered(waitlist),
          undelivered(formSubmissions),
        ],
      );
      const perDay = new Map(byDay.map((row) => [row.date, row.count]));
      const days = Array.from({ length: STATS_DAYS }, (_, i) => iso(new Date(firstDay.getTime() + i * DAY_MS)).slice(0, 10));
      const oldest = [waitingW[0]?.oldest, waitingF[0]?.oldest].filter((at): at is string => typeof at === "string").sort()[0] ?? null;
      const formsByName = countsBy(byForm);
      return {
        waitlist: {
          total: totals[0]?.total ?? 0,
          last24h: Number(totals[0]?.last24h ?? 0),
          last7d: Number(totals[0]?.last7d ?? 0),
          bySource: countsBy(bySource),
          byUtmSource: countsBy(byUtmSource),
          byUtmMedium: countsBy(byUtmMedium),
          byUtmCampaign: countsBy(byUtmCampaign),
          byReferrerHost: countsBy(byReferrerHost),
          byDay: days.map((date) => ({ date, count: perDay.get(date) ?? 0 })),
        },
        submissions: {
          total: Object.values(formsByName).reduce((sum, n) => sum + n, 0),
          // By slug, as the API's routes name forms; a stored name no form has any more keeps its name.
          byForm: Object.fromEntries(Object.entries(formsByName).map(([name, n]) => [formSlugOf(name), n])),
        },
        notifications: { undelivered: (waitingW[0]?.count ?? 0) + (waitingF[0]?.count ?? 0), oldestUndeliveredAt: oldest },
      };
    },

    /** One page of the waitlist, newest first; `q` a case-insensitive part of the address ("" for all). */
    async listWaitlist({ q, limit, after }: ListQuery): Promise<WaitlistEntry[]> {
      return db
        .select()
        .from(waitlist)
        .where(and(q === "" ? undefined : sql`instr(${waitlist.email}, ${q.toLowerCase()}) > 0`, olderThan(waitlist, after)))
        .orderBy(desc(waitlist.createdAt), desc(waitlist.id))
        .limit(limit);
    },

    /** One page of a form's submissions (by its stored name), newest first; `q` a part of any field, ASCII letters in any case. */
    async listSubmissions(formName: string, { q, limit, after }: ListQuery): Promise<FormSubmission[]> {
      return db
        .select()
        .from(formSubmissions)
        .where(
          and(
            eq(formSubmissions.formName, formName),
            q === "" ? undefined : sql`instr(lower(${formSubmissions.formData}), ${q.toLowerCase()}) > 0`,
            olderThan(formSubmissions, after),
          ),
        )
        .orderBy(desc(formSubmissions.createdAt), desc(formSubmissions.id))
        .limit(limit);
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

    /** Everything stored about one (normalised) address. */
    async person(email: string): Promise<PersonData> {
      const [entries, submissions, users, sessions, codes] = await db.batch([
        db.select().from(waitlist).where(eq(waitlist.email, email)).limit(1),
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
      ]);
      const user = users[0];
      return {
        waitlist: entries[0] ?? null,
        submissions,
        user: user ? { ...user, sessions: sessions.map((row) => row.session) } : null,
        signInCode: codes[0] ? { sentAt: codes[0].sentAt, expiresAt: codes[0].expiresAt, live: Boolean(codes[0].live) } : null,
      };
    },

    /**
     * Erases everything stored about one (normalised) address in one batch: its waitlist entry,
     * the submissions it sent, its sign-in user with the sessions and refresh tokens, its code.
     * The batch's first statement writes the audit record, with the counts of what the rest
     * deletes, so an erasure is never done without its record nor recorded without being done.
     */
    async erasePerson(email: string, audit: { operator: string; subjectHash: string; now: Date }) {
      const userIds = db.select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.email, email));
      const sessionIds = db.select({ id: authSessions.id }).from(authSessions).where(inArray(authSessions.userId, userIds));
      const counted = (statement: SQL) => sql`(${statement})`;
      const [, entries, submissions, , , users] = await db.batch([
        db.insert(auditLog).values({
          action: "person.erased",
          operator: audit.operator,
          subjectHash: audit.subjectHash,
          details: sql`json_object(
            'waitlist', ${counted(sql`select count(*) from ${waitlist} where ${waitlist.email} = ${email}`)},
            'submissions', ${counted(sql`select count(*) from ${formSubmissions} where ${submittedBy(email)}`)},
            'users', ${counted(sql`select count(*) from ${authUsers} where ${authUsers.email} = ${email}`)})`,
          createdAt: iso(audit.now),
        }),
        db.delete(waitlist).where(eq(waitlist.email, email)).returning({ id: waitlist.id }),
        db.delete(formSubmissions).where(submittedBy(email)).returning({ id: formSubmissions.id }),
        db.delete(authRefreshTokens).where(inArray(authRefreshTokens.sessionId, sessionIds)),
        db.delete(authSessions).where(inArray(authSessions.userId, userIds)),
        db.delete(authUsers).where(eq(authUsers.email, email)).returning({ id: authUsers.id }),
        db.delete(authCodes).where(eq(authCodes.email, email)),
      ]);
      return { waitlist: entries.length, submissions: submissions.length, users: users.length };
    },

    /** Records an operator's action that changed data but named no person. */
    async recordAction(action: string, operator: string, details: Record<string, unknown>, now: Date): Promise<void> {
      await db.insert(auditLog).values({ action, operator, subjectHash: null, details, createdAt: iso(now) });
    },

    /** The audit trail, newest first. */
    async auditTrail(limit = 100) {
      return db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(limit);
    },
  };
}

export type AdminRepository = ReturnType<typeof createAdminRepository>;
