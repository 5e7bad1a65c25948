import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { COUNT_ON_CONFLICT, type CounterCap } from "../../platform/db/counters";
import type { Database } from "../../platform/db/database";
import { parentalOutcomes, parentalRequests, rateLimits } from "../../platform/db/schema";
import type { DevMailInput, ParentalRequest } from "../../platform/db/schema";
import { devMailbox } from "../../platform/db/schema";
import { iso } from "../../platform/db/sql";
import type { AgeBand } from "../../shared/age";

/**
 * A child's request for a parent's consent in the database (the rules are worker/features/parents/):
 * the request row is its own e-mail's outbox (sent_at, attempts, next_attempt_at, locked_until,
 * claim, last_error, with the joiner mail's claim and lease), stored with its count against the
 * parent's mailbox's daily cap in one batch; answered (agreed, declined) by deleting it and
 * counting the answer in one batch.
 */

/** What a request stores: the parent's canonical address and its mailbox key, the band, the country; never the child's address. */
export type NewParentalRequest = {
  parentEmail: string;
  mailboxKey: string;
  ageBand: AgeBand;
  country: string | null;
  nonce: string;
  origin: string;
};

/** The request's e-mail claimed for the request that stores it (sent after the answer). */
export type QueueRequest = { claim: string; now: Date; lockMs: number };

export type ParentalOutcome = (typeof parentalOutcomes.$inferSelect)["outcome"];

const due = (now: Date) =>
  and(
    isNull(parentalRequests.sentAt),
    or(isNull(parentalRequests.nextAttemptAt), lte(parentalRequests.nextAttemptAt, iso(now))),
    or(isNull(parentalRequests.lockedUntil), lte(parentalRequests.lockedUntil, iso(now))),
  );

export function createParentalRepository(db: Database) {
  return {
    /**
     * Stores a request with its e-mail claimed by `queue.claim`, only while the parent's mailbox's
     * daily count (`cap`, the confirmations' own counter) is under its max, and counts it only if
     * it was stored: one batch. The stored request, or null when the cap left no room.
     */
    async ask(request: NewParentalRequest, cap: CounterCap, queue: QueueRequest): Promise<ParentalRequest | null> {
      const used = sql`coalesce((select c.count from ${rateLimits} c where c.key = ${cap.key} and c.window_start >= ${cap.window.start}), 0)`;
      const mine = sql`(select 1 from ${parentalRequests} r where r.claim = ${queue.claim})`;
      const lockedUntil = iso(new Date(queue.now.getTime() + queue.lockMs));
      const [, , rows] = await db.batch([
        db
          .insert(parentalRequests)
          .select(
            sql`select null, ${request.parentEmail}, ${request.mailboxKey}, ${request.ageBand}, ${request.country}, ${request.nonce}, ${iso(queue.now)}, ${request.origin}, null, 1, null, ${lockedUntil}, ${queue.claim}, null where ${used} < ${cap.max}`,
          ),
        db
          .insert(rateLimits)
          .select(sql`select ${cap.key}, ${cap.window.start}, ${cap.window.end}, 1 where exists ${mine}`)
          .onConflictDoUpdate(COUNT_ON_CONFLICT),
        db.select().from(parentalRequests).where(eq(parentalRequests.claim, queue.claim)),
      ]);
      return rows[0] ?? null;
    },

    /** A request by id (the link's), or null. */
    async requestById(id: number): Promise<ParentalRequest | null> {
      return (await db.select().from(parentalRequests).where(eq(parentalRequests.id, id)).limit(1))[0] ?? null;
    },

    /**
     * Records the parent's answer: the request (id and nonce, as its link names it) deleted and
     * the answer counted for the UTC day `day`, in one batch, counted only when this batch deleted
     * it (a second press of the button counts nothing). Whether it did.
     */
    async answer(request: Pick<ParentalRequest, "id" | "nonce">, outcome: ParentalOutcome, day: string): Promise<boolean> {
      const which = and(eq(parentalRequests.id, request.id), eq(parentalRequests.nonce, request.nonce));
      const [, gone] = await db.batch([
        db
          .insert(parentalOutcomes)
          .select(
            sql`select ${day}, ${outcome}, 1 where exists (select 1 from ${parentalRequests} where ${parentalRequests.id} = ${request.id} and ${parentalRequests.nonce} = ${request.nonce})`,
          )
          .onConflictDoUpdate({
            target: [parentalOutcomes.day, parentalOutcomes.outcome],
            set: { count: sql`${parentalOutcomes.count} + 1` },
          }),
        db.delete(parentalRequests).where(which).returning({ id: parentalRequests.id }),
      ]);
      return gone.length > 0;
    },

    /** The answers counted per day and outcome from `since` (YYYY-MM-DD) on, and the requests waiting for an answer. */
    async outcomes(since: string): Promise<{ rows: { day: string; outcome: ParentalOutcome; count: number }[]; pending: number }> {
      const [rows, pending] = await db.batch([
        db.select().from(parentalOutcomes).where(sql`${parentalOutcomes.day} >= ${since}`),
        db.select({ n: sql<number>`count(*)` }).from(parentalRequests),
      ]);
      return { rows, pending: Number(pending[0]?.n ?? 0) };
    },

    /** Claims up to `limit` due request e-mails, oldest first, in one statement, counting the attempt. */
    async claimDueRequests(options: QueueRequest & { limit: number }): Promise<ParentalRequest[]> {
      if (options.limit <= 0) return [];
      const ids = db
        .select({ id: parentalRequests.id })
        .from(parentalRequests)
        .where(due(options.now))
        .orderBy(parentalRequests.id)
        .limit(options.limit);
      return db
        .update(parentalRequests)
        .set({
          claim: options.claim,
          lockedUntil: iso(new Date(options.now.getTime() + options.lockMs)),
          attempts: sql`${parentalRequests.attempts} + 1`,
        })
        .where(and(inArray(parentalRequests.id, ids), due(options.now)))
        .returning();
    },

    /** Records a request's e-mail delivered (a fact whoever holds the claim), with the dev mailbox's copy. */
    async markRequestSent(request: ParentalRequest, now: Date, devMail?: DevMailInput): Promise<void> {
      const sent = db
        .update(parentalRequests)
        .set({ sentAt: iso(now), lastError: null, nextAttemptAt: null, lockedUntil: null, claim: null })
        .where(eq(parentalRequests.id, request.id));
      if (!devMail) return void (await sent);
      await db.batch([db.insert(devMailbox).values({ ...devMail, createdAt: iso(now) }), sent]);
    },

    /** Records a failed attempt and when to try again; only the holder of the claim may. */
    async markRequestFailed(request: ParentalRequest, error: string, nextAttemptAt: Date): Promise<void> {
      await db
        .update(parentalRequests)
        .set({ lastError: error.slice(0, 500), nextAttemptAt: iso(nextAttemptAt), lockedUntil: null, claim: null })
        .where(and(eq(parentalRequests.id, request.id), isNull(parentalRequests.sentAt), eq(parentalRequests.claim, request.claim ?? "")));
    },

    /** Puts back a claimed e-mail the day's visitor budget held: unclaimed, its attempt not counted, due at the next cron run. */
    async holdRequest(request: ParentalRequest): Promise<void> {
      await db
        .update(parentalRequests)
        .set({ claim: null, lockedUntil: null, attempts: sql`max(${parentalRequests.attempts} - 1, 0)` })
        .where(and(eq(parentalRequests.id, request.id), isNull(parentalRequests.sentAt), eq(parentalRequests.claim, request.claim ?? "")));
    },
  };
}
