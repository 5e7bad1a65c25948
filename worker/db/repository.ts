import { and, count, desc, eq, inArray, is, isNull, lte, min, or, sql } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { createAdminRepository } from "./admin-repository";
import { createAuthRepository } from "./auth-repository";
import type { Database } from "./database";
import * as schema from "./schema";
import { devMailbox, formSubmissions, rateLimits, waitlist } from "./schema";
import type { DevMail, FormSubmission, WaitlistEntry } from "./schema";
import type { Attribution } from "../shared/waitlist";

/**
 * The only code that talks to the database. It takes a drizzle database of either driver
 * (D1 in the worker by default, libSQL/Turso when configured), so both run the same queries.
 * Every write is one statement or one batch: D1 has no interactive transactions, and single
 * statements with a unique index and conditional updates are what make joins, claims and
 * counters race-free.
 */

export type NotificationKind = "waitlist" | "form";
export type NotifiedRecord<K extends NotificationKind> = K extends "waitlist" ? WaitlistEntry : FormSubmission;
/** A record of either kind, tagged with its kind. */
export type Notified = { kind: "waitlist"; record: WaitlistEntry } | { kind: "form"; record: FormSubmission };

export type JoinResult =
  | { outcome: "joined"; entry: WaitlistEntry; claimed: boolean; budgetUsed: number | null }
  | { outcome: "duplicate" };

/** A fixed window of a counter (Unix seconds: its first second and its end). */
export type CounterWindow = { start: number; end: number };

/**
 * What the writes that store a record need to know to also claim its first notification, and,
 * when `budget` is given, the counter to count that notification against in the same batch
 * (the hour's single e-mails): one database call stores, claims and counts.
 */
export type FirstClaim = { now: Date; lockMs: number; budget?: { key: string; window: CounterWindow } };

export type DevMailInput = { receivers: string[]; title: string; bodyHtml: string };

const iso = (date: Date) => date.toISOString();

/** A fresh claim: a random token only its holder knows, and the lease it holds until. */
function newClaim({ now, lockMs }: FirstClaim) {
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

/** D1 binds at most 100 parameters per statement: long id lists are split. */
function chunks<T>(items: T[], size = 90): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/** Every table of the schema with every column, for the health check's schema probe. */
const TABLES = Object.values(schema).filter((value) => is(value, SQLiteTable));

type UndeliveredRow = { count: number; oldest: string | null };

/** Both tables' undelivered notifications, summed, with the oldest's time. */
function undeliveredSummary(w: UndeliveredRow[], f: UndeliveredRow[]): { count: number; oldestAt: string | null } {
  const oldest = [w[0]?.oldest, f[0]?.oldest].filter((at): at is string => typeof at === "string").sort()[0] ?? null;
  return { count: (w[0]?.count ?? 0) + (f[0]?.count ?? 0), oldestAt: oldest };
}

export function createRepository(db: Database) {
  /** Per table: how many notifications are undelivered, and the oldest one's time. */
  const undeliveredOf = (t: typeof waitlist | typeof formSubmissions) =>
    db
      .select({ count: count(), oldest: min(t.createdAt) })
      .from(t)
      .where(eq(t.emailSent, false));
  const undeliveredQueries = () => [undeliveredOf(waitlist), undeliveredOf(formSubmissions)] as const;

  /** One event counted against `key` in its window: one upsert, returning the count so far. */
  const counter = (key: string, window: CounterWindow) =>
    db
      .insert(rateLimits)
      .values({ key, windowStart: window.start, expiresAt: window.end, count: 1 })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          count: sql`case when excluded.window_start > ${rateLimits.windowStart} then 1 else ${rateLimits.count} + 1 end`,
          windowStart: sql`max(excluded.window_start, ${rateLimits.windowStart})`,
          expiresAt: sql`max(excluded.expires_at, ${rateLimits.expiresAt})`,
        },
      })
      .returning({ count: rateLimits.count });

  return {
    /** Users, codes, sessions and refresh tokens of sign-in. */
    auth: createAuthRepository(db),

    /** The operator API's lists, stats, data-access requests and erasure. */
    admin: createAdminRepository(db),

    /**
     * The health check's one database call: a batch of `select <every column> from <table>
     * limit 0` for every table of the schema, then the undelivered notifications. A missing
     * table or column fails the batch with a message naming it: resolved as `missingSchema`
     * (and `undelivered` null). Throws when the database cannot be reached.
     */
    async checkHealth(): Promise<{ missingSchema: string | null; undelivered: { count: number; oldestAt: string | null } | null }> {
      const probes = TABLES.map((table) => {
        const { name, columns } = getTableConfig(table);
        return db.run(sql.raw(`select ${columns.map((column) => `"${column.name}"`).join(", ")} from "${name}" limit 0`));
      });
      try {
        const results = await db.batch([...undeliveredQueries(), ...probes]);
        return { missingSchema: null, undelivered: undeliveredSummary(results[0], results[1]) };
      } catch (error) {
        // Only a missing table or column is an answer; anything else (unreachable) is thrown.
        const message =
          error instanceof Error ? `${error.message} ${error.cause instanceof Error ? error.cause.message : ""}` : String(error);
        const missing = /no such (table|column): [\w.]+/.exec(message)?.[0];
        if (!missing) throw error;
        return { missingSchema: missing, undelivered: null };
      }
    },

    /**
     * Adds an e-mail to the waitlist in one upsert, which also claims its notification for the
     * caller (claimed: true) unless another sender holds it. An entry whose notification was
     * delivered is a duplicate and is left untouched; an undelivered one is joined again:
     * updated_at moves, its backoff is cleared and, when nobody is sending it right now, its
     * attempts start over with this one.
     */
    async joinWaitlist(input: { email: string; source: string | null } & Partial<Attribution>, claim: FirstClaim): Promise<JoinResult> {
      const at = iso(claim.now);
      const mine = newClaim(claim);
      // SQLite evaluates every SET expression against the row as it was, so all three agree.
      const free = sql`(${waitlist.notifyLockedUntil} is null or ${waitlist.notifyLockedUntil} <= ${at})`;
      const upsert = db
        .insert(waitlist)
        .values({
          email: input.email,
          source: input.source,
          utmSource: input.utm_source ?? null,
          utmMedium: input.utm_medium ?? null,
          utmCampaign: input.utm_campaign ?? null,
          referrerHost: input.referrer_host ?? null,
          createdAt: at,
          updatedAt: at,
          notifyAttempts: 1,
          ...mine,
        })
        .onConflictDoUpdate({
          target: waitlist.email,
          set: {
            updatedAt: at,
            source: sql`coalesce(excluded.source, ${waitlist.source})`,
            utmSource: sql`coalesce(excluded.utm_source, ${waitlist.utmSource})`,
            utmMedium: sql`coalesce(excluded.utm_medium, ${waitlist.utmMedium})`,
            utmCampaign: sql`coalesce(excluded.utm_campaign, ${waitlist.utmCampaign})`,
            referrerHost: sql`coalesce(excluded.referrer_host, ${waitlist.referrerHost})`,
            notifyNextAttemptAt: null,
            notifyAttempts: sql`case when ${free} then 1 else ${waitlist.notifyAttempts} end`,
            notifyLockedUntil: sql`case when ${free} then excluded.notify_locked_until else ${waitlist.notifyLockedUntil} end`,
            notifyClaim: sql`case when ${free} then excluded.notify_claim else ${waitlist.notifyClaim} end`,
          },
          setWhere: eq(waitlist.emailSent, false),
        })
        .returning();
      const [rows, budgetUsed] = claim.budget
        ? await db
            .batch([upsert, counter(claim.budget.key, claim.budget.window)])
            .then(([entries, counts]) => [entries, counts[0]!.count] as const)
        : [await upsert, null];
      const entry = rows[0];
      return entry ? { outcome: "joined", entry, claimed: entry.notifyClaim === mine.notifyClaim, budgetUsed } : { outcome: "duplicate" };
    },

    /** Stores a submission with its notification claimed by the caller (and counted, see FirstClaim). */
    async insertFormSubmission(
      formName: string,
      data: Record<string, unknown>,
      claim: FirstClaim,
    ): Promise<{ submission: FormSubmission; budgetUsed: number | null }> {
      const insert = db
        .insert(formSubmissions)
        .values({ formName, formData: data, createdAt: iso(claim.now), notifyAttempts: 1, ...newClaim(claim) })
        .returning();
      if (!claim.budget) return { submission: (await insert)[0]!, budgetUsed: null };
      const [rows, counts] = await db.batch([insert, counter(claim.budget.key, claim.budget.window)]);
      return { submission: rows[0]!, budgetUsed: counts[0]!.count };
    },

    /**
     * Counts one event against `key` in the fixed window [windowStart, expiresAt) (Unix seconds)
     * and returns the count so far in that window, this one included. A later window starts over
     * at 1. One upsert, so concurrent requests each get their own count.
     */
    async countRequest(key: string, window: CounterWindow): Promise<number> {
      const rows = await counter(key, window);
      return rows[0]!.count;
    },

    /**
     * Counts one event against each counter, like countRequest, in one database call (one
     * batch). Resolves each counter's count so far, in the order given.
     */
    async countRequests(counters: readonly { key: string; window: CounterWindow }[]): Promise<number[]> {
      const [first, ...rest] = counters.map(({ key, window }) => counter(key, window));
      if (!first) return [];
      const results = await db.batch([first, ...rest]);
      return results.map((rows) => rows[0]!.count);
    },

    /**
     * Takes back one event counted against each counter (one batch): for a request that was
     * counted but then refused or failed. A counter whose window has moved on since is left
     * alone, and no count goes below zero.
     */
    async uncountRequests(counters: readonly { key: string; window: CounterWindow }[]): Promise<void> {
      const [first, ...rest] = counters.map(({ key, window }) =>
        db
          .update(rateLimits)
          .set({ count: sql`max(${rateLimits.count} - 1, 0)` })
          .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, window.start))),
      );
      if (first) await db.batch([first, ...rest]);
    },

    /** Deletes the counters of windows that have ended. */
    async pruneCounters(now: Date): Promise<void> {
      await db.delete(rateLimits).where(lte(rateLimits.expiresAt, Math.floor(now.getTime() / 1000)));
    },

    /** The notification outbox: claims, outcomes and what is still undelivered. */
    outbox: {
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
            .where(and(eq(t.id, item.record.id), eq(t.emailSent, false), eq(t.notifyClaim, item.record.notifyClaim ?? "")));
        });
        if (statements.length > 0) await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
      },

      /**
       * Gives back a claim without an attempt (the hour's single e-mails are used up): the record
       * is due at once, for the next cron run's digest.
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
          .where(and(eq(t.id, item.record.id), eq(t.emailSent, false), eq(t.notifyClaim, item.record.notifyClaim ?? "")));
      },

      /** How many notifications are undelivered, and since when the oldest waits (null: none). */
      async undelivered(): Promise<{ count: number; oldestAt: string | null }> {
        const [w, f] = await db.batch(undeliveredQueries());
        return undeliveredSummary(w, f);
      },
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
