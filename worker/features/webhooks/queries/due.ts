import { and, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";

/**
 * When the deliveries wait and what the cron tidies (worker/features/webhooks/cron.ts, consumer.ts):
 * the next time something is due, whether anything is due now, rotated secrets past their overlap,
 * and person.erased events whose deliveries are all done (their address no longer needed).
 */

const d = webhookDeliveries;
const e = webhookEndpoints;

/**
 * When pending deliveries of enabled endpoints not held by a live lease are due (each at its
 * next_at or its endpoint's pause, whichever is later): the earliest future time, whether one is
 * due now (it may still wait behind an earlier delivery of the same person), and whether one of
 * `endpointId` has passed its next_at, its pause aside (a lane's: claim again or stop).
 */
export function nextDueQuery(db: Database, now: Date, endpointId: number | null = null) {
  const at = iso(now);
  const dueAt = sql`max(${d.nextAt}, coalesce(${e.pausedUntil}, ${d.nextAt}))`;
  return db
    .select({
      at: sql<string | null>`min(case when ${dueAt} > ${at} then ${dueAt} end)`,
      dueNow: sql<number | null>`max(case when ${dueAt} <= ${at} then 1 else 0 end)`,
      endpointDueNow: sql<number | null>`max(case when ${d.nextAt} <= ${at} and ${d.endpointId} = ${endpointId ?? -1} then 1 else 0 end)`,
    })
    .from(d)
    .innerJoin(e, eq(e.id, d.endpointId))
    .where(and(eq(d.status, "pending"), eq(e.enabled, true), sql`(${d.lockedUntil} is null or ${d.lockedUntil} <= ${at})`));
}

/** What nextDueQuery read. */
export type NextDue = { at: string | null; dueNow: boolean; endpointDueNow: boolean };
export type NextDueRow = { at: string | null; dueNow: number | null; endpointDueNow: number | null };
export const nextDueOf = (rows: NextDueRow[]): NextDue => ({
  at: rows[0]?.at ?? null,
  dueNow: rows[0]?.dueNow === 1,
  endpointDueNow: rows[0]?.endpointDueNow === 1,
});

export function cronQueries(db: Database) {
  return {
    /** Whether a pending delivery of an enabled, unpaused endpoint is due now with no live lease (a lost kick, a crashed run): one read. */
    async anythingDue(now: Date): Promise<boolean> {
      const at = iso(now);
      const rows = await db
        .select({ id: d.id })
        .from(d)
        .innerJoin(e, eq(e.id, d.endpointId))
        .where(
          and(
            eq(d.status, "pending"),
            lte(d.nextAt, at),
            sql`(${d.lockedUntil} is null or ${d.lockedUntil} <= ${at})`,
            eq(e.enabled, true),
            sql`(${e.pausedUntil} is null or ${e.pausedUntil} <= ${at})`,
          ),
        )
        .limit(1);
      return rows.length > 0;
    },

    /**
     * The cron's tidying, ONE call: rotated secrets whose overlap ended are forgotten, and a
     * person.erased event none of whose deliveries is pending any more loses the address it
     * carried (payload '{}', person null, on it and its deliveries). Returns how many of each.
     */
    async tidy(now: Date): Promise<{ secretsCleared: number; erasuresRedacted: number }> {
      const at = iso(now);
      const finished = db
        .select({ id: webhookEvents.id })
        .from(webhookEvents)
        .where(
          and(
            eq(webhookEvents.type, "person.erased"),
            sql`(${webhookEvents.person} is not null or ${webhookEvents.payload} <> '{}')`,
            sql`not exists (select 1 from ${d} p where p.event_id = ${webhookEvents.id} and p.status = 'pending')`,
          ),
        );
      const [secrets, , events] = await db.batch([
        db
          .update(e)
          .set({ previousSecret: null, previousSecretUntil: null })
          .where(and(isNotNull(e.previousSecretUntil), lte(e.previousSecretUntil, at)))
          .returning({ id: e.id }),
        db
          .update(d)
          .set({ person: null })
          .where(and(isNotNull(d.person), inArray(d.eventId, finished))),
        db
          .update(webhookEvents)
          .set({ payload: "{}", person: null })
          .where(inArray(webhookEvents.id, finished))
          .returning({ id: webhookEvents.id }),
      ]);
      return { secretsCleared: secrets.length, erasuresRedacted: events.length };
    },
  };
}
