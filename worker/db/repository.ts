import { and, desc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";
import { devMailbox, formSubmissions, waitlist } from "./schema";
import type { DevMail, FormSubmission, WaitlistEntry } from "./schema";

/**
 * The only code that talks to the database. It takes a drizzle database of either driver
 * (D1 in the worker by default, libSQL/Turso when configured), so both run the same queries.
 * Every write is one statement: D1 has no interactive transactions, and single statements
 * with a unique index and conditional updates are what make joins and claims race-free.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the driver's run-result type differs (D1Result vs ResultSet) and is never read here.
export type Database = BaseSQLiteDatabase<"async", any, typeof schema>;

export type NotificationKind = "waitlist" | "form";
export type NotifiedRecord<K extends NotificationKind> = K extends "waitlist" ? WaitlistEntry : FormSubmission;

export type JoinResult = { outcome: "joined"; entry: WaitlistEntry } | { outcome: "duplicate" };

export type ClaimOptions = {
  now: Date;
  /** How long a claimed notification stays reserved for the sender that claimed it. */
  lockMs: number;
  /** Records that have been tried this many times are left alone. */
  maxAttempts: number;
};

const iso = (date: Date) => date.toISOString();

/** Both notified tables have the same delivery columns; this lets one query serve both. */
function tableFor(kind: NotificationKind) {
  // The cast is sound for the delivery columns used below, which both tables define identically.
  return (kind === "waitlist" ? waitlist : formSubmissions) as unknown as typeof formSubmissions;
}

/** A record may be claimed when undelivered, under its attempt cap, past its backoff and unclaimed. */
function claimable(kind: NotificationKind, { now, maxAttempts }: ClaimOptions) {
  const t = tableFor(kind);
  const at = iso(now);
  return and(
    eq(t.emailSent, false),
    lt(t.notifyAttempts, maxAttempts),
    or(isNull(t.notifyNextAttemptAt), lte(t.notifyNextAttemptAt, at)),
    or(isNull(t.notifyLockedUntil), lte(t.notifyLockedUntil, at)),
  );
}

export function createRepository(db: Database) {
  return {
    /** Throws when the database cannot be reached. */
    async ping(): Promise<void> {
      await db.run(sql`select 1`);
    },

    /**
     * Adds an e-mail to the waitlist in one upsert. An entry whose notification was delivered is
     * a duplicate and is left untouched; an undelivered one is joined again: updated_at moves,
     * its backoff is cleared and its attempts start over, so its notification is retried now.
     */
    async joinWaitlist(input: { email: string; source: string | null }, now: Date): Promise<JoinResult> {
      const at = iso(now);
      const rows = await db
        .insert(waitlist)
        .values({ email: input.email, source: input.source, createdAt: at, updatedAt: at })
        .onConflictDoUpdate({
          target: waitlist.email,
          set: {
            updatedAt: at,
            source: sql`coalesce(excluded.source, ${waitlist.source})`,
            notifyAttempts: 0,
            notifyNextAttemptAt: null,
          },
          setWhere: eq(waitlist.emailSent, false),
        })
        .returning();
      const entry = rows[0];
      return entry ? { outcome: "joined", entry } : { outcome: "duplicate" };
    },

    async findWaitlistEntry(email: string): Promise<WaitlistEntry | undefined> {
      const rows = await db.select().from(waitlist).where(eq(waitlist.email, email)).limit(1);
      return rows[0];
    },

    /** Spec §7: all entries, newest first. */
    async listWaitlist(): Promise<WaitlistEntry[]> {
      return db.select().from(waitlist).orderBy(desc(waitlist.createdAt), desc(waitlist.id));
    },

    async insertFormSubmission(formName: string, data: Record<string, unknown>, now: Date): Promise<FormSubmission> {
      const rows = await db
        .insert(formSubmissions)
        .values({ formName, formData: data, createdAt: iso(now) })
        .returning();
      return rows[0]!;
    },

    async findFormSubmission(id: number): Promise<FormSubmission | undefined> {
      const rows = await db.select().from(formSubmissions).where(eq(formSubmissions.id, id)).limit(1);
      return rows[0];
    },

    /**
     * Reserves one record's notification for the caller and counts the attempt. Returns the
     * record, or undefined when it is delivered, capped, backing off or reserved by someone else.
     */
    async claimNotification<K extends NotificationKind>(
      kind: K,
      id: number,
      options: ClaimOptions,
    ): Promise<NotifiedRecord<K> | undefined> {
      const t = tableFor(kind);
      const rows = await db
        .update(t)
        .set({
          notifyLockedUntil: iso(new Date(options.now.getTime() + options.lockMs)),
          notifyAttempts: sql`${t.notifyAttempts} + 1`,
        })
        .where(and(eq(t.id, id), claimable(kind, options)))
        .returning();
      return rows[0] as NotifiedRecord<K> | undefined;
    },

    /** Reserves up to `limit` due notifications, oldest first, in one statement. */
    async claimDueNotifications<K extends NotificationKind>(
      kind: K,
      options: ClaimOptions & { limit: number },
    ): Promise<NotifiedRecord<K>[]> {
      const t = tableFor(kind);
      const due = db
        .select({ id: t.id })
        .from(t)
        .where(claimable(kind, options))
        .orderBy(t.createdAt, t.id)
        .limit(options.limit);
      const rows = await db
        .update(t)
        .set({
          notifyLockedUntil: iso(new Date(options.now.getTime() + options.lockMs)),
          notifyAttempts: sql`${t.notifyAttempts} + 1`,
        })
        .where(and(inArray(t.id, due), claimable(kind, options)))
        .returning();
      return rows as NotifiedRecord<K>[];
    },

    async markNotificationSent(kind: NotificationKind, id: number, now: Date): Promise<void> {
      const delivered = {
        emailSent: true,
        emailSentAt: iso(now),
        notifyLastError: null,
        notifyNextAttemptAt: null,
        notifyLockedUntil: null,
      };
      if (kind === "waitlist") {
        await db.update(waitlist).set({ ...delivered, updatedAt: iso(now) }).where(eq(waitlist.id, id));
      } else {
        await db.update(formSubmissions).set(delivered).where(eq(formSubmissions.id, id));
      }
    },

    async markNotificationFailed(
      kind: NotificationKind,
      id: number,
      failure: { error: string; nextAttemptAt: Date | null },
    ): Promise<void> {
      const t = tableFor(kind);
      await db
        .update(t)
        .set({
          emailSent: false,
          emailSentAt: null,
          notifyLastError: failure.error.slice(0, 500),
          notifyNextAttemptAt: failure.nextAttemptAt ? iso(failure.nextAttemptAt) : null,
          notifyLockedUntil: null,
        })
        .where(eq(t.id, id));
    },

    async saveDevMail(mail: { receivers: string[]; title: string; bodyHtml: string }, now: Date): Promise<DevMail> {
      const rows = await db
        .insert(devMailbox)
        .values({ ...mail, createdAt: iso(now) })
        .returning();
      return rows[0]!;
    },

    /** Newest first. */
    async listDevMail(limit = 100): Promise<DevMail[]> {
      return db.select().from(devMailbox).orderBy(desc(devMailbox.id)).limit(limit);
    },
  };
}

export type Repository = ReturnType<typeof createRepository>;
