import { and, eq, gt, inArray, isNotNull, lt, lte, sql } from "drizzle-orm";
import type { CounterWindow } from "../../../platform/db/counters";
import type { Database } from "../../../platform/db/database";
import { authCodes, rateLimits } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";

/**
 * Sign-in codes: one row per address (the live code's keyed hash, its cooldown, its guesses),
 * and the reading of the counters sign-in judges code requests by. Every guarantee under
 * concurrency comes from one conditional statement (see worker/features/sign-in/queries/index.ts).
 */

export function createCodeRepository(db: Database) {
  return {
    /**
     * Stores a new code for the address, replacing any earlier one, unless the address is
     * within its cooldown (a code was stored less than `cooldownSeconds` ago). One upsert
     * decides, so concurrent requests for one address store (and send) one code. `codeHash`
     * null counts a request that sends nothing (an address that may not sign up) exactly like
     * one that does, so the answers cannot tell them apart. The hourly and daily caps are not
     * kept here: they are counters (worker/features/sign-in/codes.ts, countAndJudge).
     */
    async storeCode(input: {
      email: string;
      codeHash: string | null;
      userMetadata: Record<string, unknown> | null;
      now: Date;
      expiresAt: Date;
      cooldownSeconds: number;
    }): Promise<{ stored: true } | { stored: false; retryAfterSeconds: number }> {
      const { now, cooldownSeconds } = input;
      const sentAt = iso(now);
      const rows = await db
        .insert(authCodes)
        .values({
          email: input.email,
          codeHash: input.codeHash,
          userMetadata: input.userMetadata,
          sentAt,
          expiresAt: iso(input.expiresAt),
          attempts: 0,
        })
        .onConflictDoUpdate({
          target: authCodes.email,
          set: {
            codeHash: sql`excluded.code_hash`,
            userMetadata: sql`excluded.user_metadata`,
            sentAt,
            expiresAt: iso(input.expiresAt),
            attempts: 0,
          },
          setWhere: lte(authCodes.sentAt, iso(new Date(now.getTime() - cooldownSeconds * 1000))),
        })
        .returning({ email: authCodes.email });
      if (rows.length === 1) return { stored: true };

      // Refused: how long until the cooldown lets a code through again.
      const [row] = await db.select({ sentAt: authCodes.sentAt }).from(authCodes).where(eq(authCodes.email, input.email)).limit(1);
      const until = row ? Date.parse(row.sentAt) + cooldownSeconds * 1000 : now.getTime();
      return { stored: false, retryAfterSeconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)) };
    },

    /**
     * Takes back a code whose e-mail could not be sent while the user waits for the answer:
     * the code cannot be used, and its cooldown no longer holds, so the user may ask again at
     * once. Only that code: a newer one is left alone.
     */
    async withdrawCode(email: string, codeHash: string): Promise<void> {
      await db
        .update(authCodes)
        .set({ codeHash: null, sentAt: iso(new Date(0)) })
        .where(and(eq(authCodes.email, email), eq(authCodes.codeHash, codeHash)));
    },

    /**
     * Makes a code unusable and nothing else: its cooldown keeps holding. For a code whose
     * e-mail failed after the answer was given (create_user false): the row ends up exactly as
     * a request for an address without a user leaves it. Only that code: a newer one is left
     * alone.
     */
    async clearCode(email: string, codeHash: string): Promise<void> {
      await db
        .update(authCodes)
        .set({ codeHash: null })
        .where(and(eq(authCodes.email, email), eq(authCodes.codeHash, codeHash)));
    },

    /**
     * One guess at the address's live code, in one statement: the guess is counted, and the
     * code used if it is right, only while the code is live (not used, not expired, fewer than
     * `maxAttempts` guesses so far). So however many guesses arrive at once, at most
     * `maxAttempts` are ever compared, and a right code is used exactly once. Resolves the
     * `data` stored with the code when the guess used it, or null.
     */
    async useCode(input: {
      email: string;
      codeHash: string;
      now: Date;
      maxAttempts: number;
    }): Promise<{ userMetadata: Record<string, unknown> } | null> {
      const rows = await db
        .update(authCodes)
        .set({
          attempts: sql`${authCodes.attempts} + 1`,
          codeHash: sql`case when ${authCodes.codeHash} = ${input.codeHash} then null else ${authCodes.codeHash} end`,
        })
        .where(
          and(
            eq(authCodes.email, input.email),
            isNotNull(authCodes.codeHash),
            gt(authCodes.expiresAt, iso(input.now)),
            lt(authCodes.attempts, input.maxAttempts),
          ),
        )
        // After the update: the hash is gone only if this guess matched it.
        .returning({ used: sql<number>`${authCodes.codeHash} is null`, userMetadata: authCodes.userMetadata });
      const row = rows[0];
      return row && Number(row.used) === 1 ? { userMetadata: row.userMetadata ?? {} } : null;
    },

    /**
     * The counts so far of counters in their current windows, in the order given, without
     * counting anything (one statement): 0 for a counter that has none in its window.
     */
    async readCounts(counters: readonly { key: string; window: CounterWindow }[]): Promise<number[]> {
      if (counters.length === 0) return [];
      const rows = await db
        .select({ key: rateLimits.key, windowStart: rateLimits.windowStart, count: rateLimits.count })
        .from(rateLimits)
        .where(
          inArray(
            rateLimits.key,
            counters.map((counter) => counter.key),
          ),
        );
      return counters.map(({ key, window }) => {
        const row = rows.find((candidate) => candidate.key === key);
        return row && row.windowStart === window.start ? row.count : 0;
      });
    },
  };
}
