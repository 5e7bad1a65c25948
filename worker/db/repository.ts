import { and, desc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { createAuthRepository } from "./auth-repository";
import { devMailbox, formSubmissions, waitlist } from "./schema";
import type { DevMail, FormSubmission, WaitlistEntry } from "./schema";

/**
 * The only code that talks to the database. It takes a drizzle database of either driver
 * (D1 in the worker by default, libSQL/Turso when configured), so both run the same queries.
 * Every write is one statement: D1 has no interactive transactions, and single statements
 * with a unique index and conditional updates are what make joins and claims race-free.
 */
// The run-result type differs by driver (D1Result vs ResultSet) and is never read here; both
// drivers' batch() has the signature of libSQL's.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Database = BaseSQLiteDatabase<"async", any> & Pick<LibSQLDatabase, "batch">;

export type NotificationKind = "waitlist" | "form";
export type NotifiedRecord<K extends NotificationKind> = K extends "waitlist" ? WaitlistEntry : FormSubmission;

export type JoinResult =
  | { outcome: "joined"; entry: WaitlistEntry; claimed: boolean }
  | { outcome: "duplicate" };

/** What the writes that store a record need to know to also claim its first notification. */
export type FirstClaim = { now: Date; lockMs: number };

export type ClaimOptions = FirstClaim & {
  /** Records that have been tried this many times are left alone. */
  maxAttempts: number;
};

export type DevMailInput = { receivers: string[]; title: string; bodyHtml: string };

const iso = (date: Date) => date.toISOString();

/** A fresh claim: a random token only its holder knows, and the lease it holds until. */
function newClaim({ now, lockMs }: FirstClaim) {
  return { notifyClaim: crypto.randomUUID(), notifyLockedUntil: iso(new Date(now.getTime() + lockMs)) };
}

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
    /** Users, codes, sessions, refresh tokens and rate-limit counters of sign-in. */
    auth: createAuthRepository(db),

    /** Throws when the database cannot be reached. */
    async ping(): Promise<void> {
      await db.run(sql`select 1`);
    },

    /**
     * Adds an e-mail to the waitlist in one upsert, which also claims its notification for the
     * caller (claimed: true) unless another sender holds it. An entry whose notification was
     * delivered is a duplicate and is left untouched; an undelivered one is joined again:
     * updated_at moves, its backoff is cleared and, when nobody is sending it right now, its
     * attempts start over with this one.
     */
    async joinWaitlist(input: { email: string; source: string | null }, claim: FirstClaim): Promise<JoinResult> {
      const at = iso(claim.now);
      const mine = newClaim(claim);
      // SQLite evaluates every SET expression against the row as it was, so all three agree.
      const free = sql`(${waitlist.notifyLockedUntil} is null or ${waitlist.notifyLockedUntil} <= ${at})`;
      const rows = await db
        .insert(waitlist)
        .values({ email: input.email, source: input.source, createdAt: at, updatedAt: at, notifyAttempts: 1, ...mine })
        .onConflictDoUpdate({
          target: waitlist.email,
          set: {
            updatedAt: at,
            source: sql`coalesce(excluded.source, ${waitlist.source})`,
            notifyNextAttemptAt: null,
            notifyAttempts: sql`case when ${free} then 1 else ${waitlist.notifyAttempts} end`,
            notifyLockedUntil: sql`case when ${free} then excluded.notify_locked_until else ${waitlist.notifyLockedUntil} end`,
            notifyClaim: sql`case when ${free} then excluded.notify_claim else ${waitlist.notifyClaim} end`,
          },
          setWhere: eq(waitlist.emailSent, false),
        })
        .returning();
      const entry = rows[0];
      return entry ? { outcome: "joined", entry, claimed: entry.notifyClaim === mine.notifyClaim } : { outcome: "duplicate" };
    },

    async findWaitlistEntry(email: string): Promise<WaitlistEntry | undefined> {
      const rows = await db.select().from(waitlist).where(eq(waitlist.email, email)).limit(1);
      return rows[0];
    },

    /** Spec §7: all entries, newest first. */
    async listWaitlist(): Promise<WaitlistEntry[]> {
      return db.select().from(waitlist).orderBy(desc(waitlist.createdAt), desc(waitlist.id));
    },

    /** Stores a submission with its notification claimed by the caller. */
    async insertFormSubmission(formName: string, data: Record<string, unknown>, claim: FirstClaim): Promise<FormSubmission> {
      const rows = await db
        .insert(formSubmissions)
        .values({ formName, formData: data, createdAt: iso(claim.now), notifyAttempts: 1, ...newClaim(claim) })
        .returning();
      return rows[0]!;
    },

    async findFormSubmission(id: number): Promise<FormSubmission | undefined> {
      const rows = await db.select().from(formSubmissions).where(eq(formSubmissions.id, id)).limit(1);
      return rows[0];
    },

    /**
     * Claims up to `limit` due notifications, oldest first, in one statement, and counts the
     * attempt. A record another sender holds, or that is delivered, backing off or capped, is
     * not returned.
     */
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
        .set({ ...newClaim(options), notifyAttempts: sql`${t.notifyAttempts} + 1` })
        .where(and(inArray(t.id, due), claimable(kind, options)))
        .returning();
      return rows as NotifiedRecord<K>[];
    },

    /**
     * Records a delivered notification: sent is a fact whoever holds the claim, so it is not
     * checked. The dev mailbox's copy of the message, when given, is written in the same batch,
     * so the mailbox and the sent flag never disagree.
     */
    async markNotificationSent(kind: NotificationKind, id: number, now: Date, devMail?: DevMailInput): Promise<void> {
      const delivered = {
        emailSent: true,
        emailSentAt: iso(now),
        notifyLastError: null,
        notifyNextAttemptAt: null,
        notifyLockedUntil: null,
        notifyClaim: null,
      };
      const mark =
        kind === "waitlist"
          ? db.update(waitlist).set({ ...delivered, updatedAt: iso(now) }).where(eq(waitlist.id, id))
          : db.update(formSubmissions).set(delivered).where(eq(formSubmissions.id, id));
      if (devMail) await db.batch([db.insert(devMailbox).values({ ...devMail, createdAt: iso(now) }), mark]);
      else await mark;
    },

    /**
     * Records a failed attempt and when to try again. Only the holder of the current claim may,
     * so a sender whose lease lapsed cannot overwrite a later attempt's outcome.
     */
    async markNotificationFailed(
      kind: NotificationKind,
      record: { id: number; notifyClaim: string | null },
      failure: { error: string; nextAttemptAt: Date | null },
    ): Promise<void> {
      const t = tableFor(kind);
      await db
        .update(t)
        .set({
          notifyLastError: failure.error.slice(0, 500),
          notifyNextAttemptAt: failure.nextAttemptAt ? iso(failure.nextAttemptAt) : null,
          notifyLockedUntil: null,
          notifyClaim: null,
        })
        .where(and(eq(t.id, record.id), eq(t.emailSent, false), eq(t.notifyClaim, record.notifyClaim ?? "")));
    },

    /** Keeps an e-mail that has no delivery record of its own (a sign-in code) in the dev mailbox. */
    async insertDevMail(mail: DevMailInput, now: Date): Promise<void> {
      await db.insert(devMailbox).values({ ...mail, createdAt: iso(now) });
    },

    /** Newest first. */
    async listDevMail(limit = 100): Promise<DevMail[]> {
      return db.select().from(devMailbox).orderBy(desc(devMailbox.id)).limit(limit);
    },
  };
}

export type Repository = ReturnType<typeof createRepository>;
