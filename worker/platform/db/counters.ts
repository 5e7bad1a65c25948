import { and, eq, lte, sql } from "drizzle-orm";
import type { Database } from "./database";
import { rateLimits } from "./schema";
import { unixSeconds } from "./sql";

/**
 * The counters table: fixed-window counts per key (the per-client limits, sign-in's mailbox
 * caps, the hour's single notification e-mails). Every count is one upsert, so concurrent
 * requests each get their own count.
 */

/** A fixed window of a counter (Unix seconds: its first second and its end). */
export type CounterWindow = { start: number; end: number };

/** A counter and how many events its window allows (sign-in's mailbox caps, the waitlist's confirmation cap). */
export type CounterCap = { key: string; window: CounterWindow; max: number };

/**
 * How one counted event lands on a counter that exists: in the same window it adds one, in a
 * later window it starts over at 1 (and the row takes that window). For every statement that
 * counts, here or in a feature's queries (an insert of one row of `rateLimits` that counts).
 */
export const COUNT_ON_CONFLICT = {
  target: rateLimits.key,
  set: {
    count: sql`case when excluded.window_start > ${rateLimits.windowStart} then 1 else ${rateLimits.count} + 1 end`,
    windowStart: sql`max(excluded.window_start, ${rateLimits.windowStart})`,
    expiresAt: sql`max(excluded.expires_at, ${rateLimits.expiresAt})`,
  },
};

/**
 * One event counted against `key` in its window: one upsert, returning the count so far. A
 * statement, not a call, so a write that stores a record can count in the same batch.
 */
export function countOne(db: Database, key: string, window: CounterWindow) {
  return db
    .insert(rateLimits)
    .values({ key, windowStart: window.start, expiresAt: window.end, count: 1 })
    .onConflictDoUpdate(COUNT_ON_CONFLICT)
    .returning({ count: rateLimits.count });
}

export function createCounterRepository(db: Database) {
  return {
    /**
     * Counts one event against `key` in the fixed window [windowStart, expiresAt) (Unix seconds)
     * and returns the count so far in that window, this one included. A later window starts over
     * at 1. One upsert, so concurrent requests each get their own count.
     */
    async count(key: string, window: CounterWindow): Promise<number> {
      const rows = await countOne(db, key, window);
      return rows[0]!.count;
    },

    /**
     * Counts one event against each counter, like count, in one database call (one
     * batch). Resolves each counter's count so far, in the order given.
     */
    async countAll(counters: readonly { key: string; window: CounterWindow }[]): Promise<number[]> {
      const [first, ...rest] = counters.map(({ key, window }) => countOne(db, key, window));
      if (!first) return [];
      const results = await db.batch([first, ...rest]);
      return results.map((rows) => rows[0]!.count);
    },

    /**
     * Takes back one event counted against each counter (one batch): for a request that was
     * counted but then refused or failed. A counter whose window has moved on since is left
     * alone, and no count goes below zero.
     */
    async uncountAll(counters: readonly { key: string; window: CounterWindow }[]): Promise<void> {
      const [first, ...rest] = counters.map(({ key, window }) =>
        db
          .update(rateLimits)
          .set({ count: sql`max(${rateLimits.count} - 1, 0)` })
          .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, window.start))),
      );
      if (first) await db.batch([first, ...rest]);
    },

    /** Deletes the counters of windows that have ended. */
    async prune(now: Date): Promise<void> {
      await db.delete(rateLimits).where(lte(rateLimits.expiresAt, unixSeconds(now)));
    },
  };
}

export type CounterRepository = ReturnType<typeof createCounterRepository>;
