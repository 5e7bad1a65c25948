import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { CounterWindow } from "../../../platform/db/counters";
import type { Database } from "../../../platform/db/database";
import { devMailbox, formSubmissions, waitlist } from "../../../platform/db/schema";
import type { DevMailInput, FormSubmission, WaitlistEntry } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";
import { type UndeliveredSummary, undeliveredQueries, undeliveredSummary } from "./undelivered";

/**
 * The notification outbox's side of the database: both notified tables (waitlist entries and
 * form submissions) carry the same delivery columns, and a notification is sent only by the
 * holder of its claim (a random token and a lease). Claims, outcomes and what is undelivered.
 */

export type NotificationKind = "waitlist" | "form";
export type NotifiedRecord<K extends NotificationKind> = K extends "waitlist" ? WaitlistEntry : FormSubmission;
/** A record of either kind, tagged with its kind. */
export type Notified = { kind: "waitlist"; record: WaitlistEntry } | { kind: "form"; record: FormSubmission };

/**
 * What the writes that store a record need to know to also claim its first notification, and,
 * when `budget` is given, the counter to count that notification against in the same batch
 * (the hour's single e-mails): one database call stores, claims and counts.
 */
export type FirstClaim = { now: Date; lockMs: number; budget?: { key: string; window: CounterWindow } };

/** A fresh claim: a random token only its holder knows, and the lease it holds until. */
export function newClaim({ now, lockMs }: Pick<FirstClaim, "now" | "lockMs">) {
  return { notifyClaim: crypto.randomUUID(), notifyLockedUntil: iso(new Date(now.getTime() + lockMs)) };
}

/**
 * Both notified tables have the same delivery columns. drizzle types each table separately, so
 * a query that serves both is written once per table through this switch.
 */
function tableFor(kind: NotificationKind): typeof waitlist | typeof formSubmissions {
  return kind === "waitlist" ? waitlist : formSubmissions;
}

/** A record may be claimed when undelivered, past its backoff and unclaimed (or its lease lapsed). */
function claimable(t: typeof waitlist | typeof formSubmissions, now: Date) {
  const at = iso(now);
  return and(
    eq(t.emailSent, false),
    or(isNull(t.notifyNextAttemptAt), lte(t.notifyNextAttemptAt, at)),
    or(isNull(t.notifyLockedUntil), lte(t.notifyLockedUntil, at)),
  );
}

/** The delivery columns of a delivered record. */
const delivered = (now: Date) => ({
  emailSent: true,
  emailSentAt: iso(now),
  notifyLastError: null,
  notifyNextAttemptAt: null,
  notifyLockedUntil: null,
  notifyClaim: null,
});

/** Only the holder of a record's current claim may report on it, and only while it is unsent. */
function heldBy(t: typeof waitlist | typeof formSubmissions, item: Notified) {
  return and(eq(t.id, item.record.id), eq(t.emailSent, false), eq(t.notifyClaim, item.record.notifyClaim ?? ""));
}

/** D1 binds at most 100 parameters per statement: long id lists are split. */
function chunks<T>(items: T[], size = 90): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

export function createOutboxRepository(db: Database) {
  return {
    /**
     * Claims up to `limit` due notifications, oldest first, in one statement, and counts the
     * attempt. A record another sender holds, or that is delivered or backing off, is not
     * returned. Nothing is ever given up: attempts only lengthen the wait.
     */
    async claimDue<K extends NotificationKind>(kind: K, options: FirstClaim & { limit: number }): Promise<NotifiedRecord<K>[]> {
      if (options.limit <= 0) return [];
      const t = tableFor(kind);
      const due = db.select({ id: t.id }).from(t).where(claimable(t, options.now)).orderBy(t.createdAt, t.id).limit(options.limit);
      const rows = await db
        .update(t)
        .set({ ...newClaim(options), notifyAttempts: sql`${t.notifyAttempts} + 1` })
        .where(and(inArray(t.id, due), claimable(t, options.now)))
        .returning();
      return rows as NotifiedRecord<K>[];
    },

    /**
     * Records delivered notifications: sent is a fact whoever holds the claim, so it is not
     * checked. The dev mailbox's copy of the message, when given, is written in the same
     * batch, so the mailbox and the sent flags never disagree.
     */
    async markSent(records: Notified[], now: Date, devMail?: DevMailInput): Promise<void> {
      const ids = (kind: NotificationKind) => chunks(records.filter((item) => item.kind === kind).map((item) => item.record.id));
      const statements = [
        ...(devMail ? [db.insert(devMailbox).values({ ...devMail, createdAt: iso(now) })] : []),
        ...ids("waitlist").map((chunk) =>
          db
            .update(waitlist)
            .set({ ...delivered(now), updatedAt: iso(now) })
            .where(inArray(waitlist.id, chunk)),
        ),
        ...ids("form").map((chunk) => db.update(formSubmissions).set(delivered(now)).where(inArray(formSubmissions.id, chunk))),
      ];
      if (statements.length > 0) await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
    },

    /**
     * Records failed attempts and when to try each again. Only the holder of a record's
     * current claim may, so a sender whose lease lapsed cannot overwrite a later attempt.
     */
    async markFailed(failures: { item: Notified; error: string; nextAttemptAt: Date }[]): Promise<void> {
      const statements = failures.map(({ item, error, nextAttemptAt }) => {
        const t = tableFor(item.kind);
        return db
          .update(t)
          .set({
            notifyLastError: error.slice(0, 500),
            notifyNextAttemptAt: iso(nextAttemptAt),
            notifyLockedUntil: null,
            notifyClaim: null,
          })
          .where(heldBy(t, item));
      });
      if (statements.length > 0) await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
    },

    /**
     * Gives back a claim without an attempt (the hour's single e-mails are used up): the record
     * is due at once, for the next cron run's digest. Only its holder may.
     */
    async release(item: Notified): Promise<void> {
      const t = tableFor(item.kind);
      await db
        .update(t)
        .set({
          notifyAttempts: sql`max(${t.notifyAttempts} - 1, 0)`,
          notifyNextAttemptAt: null,
          notifyLockedUntil: null,
          notifyClaim: null,
        })
        .where(heldBy(t, item));
    },

    /** How many notifications are undelivered, and since when the oldest waits (null: none). */
    async undelivered(): Promise<UndeliveredSummary> {
      const [w, f] = await db.batch(undeliveredQueries(db));
      return undeliveredSummary(w, f);
    },
  };
}
