import { and, eq, exists, sql } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { referralCredits, waitlist, webhookDeliveries, webhookEndpoints, webhookEvents } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";
import { cronQueries, type NextDue, type NextDueRow, nextDueOf, nextDueQuery } from "./due";

/**
 * The delivery engine's side of the database (worker/features/webhooks/consumer.ts): a run claims
 * what is due in ONE call (claimDue) and records every outcome in ONE call (recordRun). The cron's
 * reads and clean-ups are due.ts.
 */

/** A claimed delivery with what sending it needs (the event, the endpoint and its sealed secrets). */
export type ClaimedDelivery = {
  id: number;
  webhookId: string;
  attempts: number;
  endpointId: number;
  eventType: string;
  payload: string;
  eventAt: string;
  kind: "standard" | "slack";
  /** A Standard endpoint's address (a Slack one's is its sealed secret). */
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: string | null;
};

/** The figures a Slack message quotes: entries on the list, referrals confirmed today (UTC). */
export type ListFigures = { onTheList: number; referralsToday: number };

export type ClaimedRun = { deliveries: ClaimedDelivery[]; figures: ListFigures | null; next: NextDue };

/**
 * What became of one claimed delivery: delivered, failed (retried at nextAt, or dead), held (its
 * endpoint disabled: still pending, the attempt's outcome kept), or released (not attempted: only
 * its claim is let go).
 */
export type DeliveryOutcome = {
  id: number;
  result: "delivered" | "failed" | "held" | "released";
  status: number | null;
  error: string | null;
  answer: string;
  at: Date;
  /** A failure's next attempt; null: it was the last (dead). */
  nextAt: Date | null;
};

/** What a run did to one endpoint: its last success, the failures since, its pause, and why it is disabled (null: it is not). */
export type EndpointOutcome = {
  id: number;
  successAt: Date | null;
  failures: number;
  firstFailureAt: Date | null;
  pausedUntil: Date | null;
  lastError: string | null;
  disable: string | null;
};

/** A failure run that disables an endpoint: this many failed attempts in a row, failing for at least this long. */
export const DISABLE_AFTER_FAILURES = 10;
export const DISABLE_AFTER_MS = 24 * 3600 * 1000;

const d = webhookDeliveries;
const e = webhookEndpoints;

export function deliveryQueries(db: Database) {
  return {
    ...cronQueries(db),
    /**
     * Claims up to `limit` due deliveries with `claim` until `leaseUntil`: pending, next_at passed,
     * lease lapsed, the endpoint enabled and not paused, and no earlier pending delivery of the
     * same person to the same endpoint (the order per person; Slack's texts name nobody, so a Slack
     * endpoint's are all claimed together). `endpointId`: only that endpoint's (a lane's claim);
     * without it, every endpoint's, taken in turn (each one's first, then each one's second...) so
     * every endpoint with due work gets a lane. An endpoint in a failure run gets one delivery (its
     * probe). A Slack endpoint claimed from is paused for the lease (one message at a time). Reads
     * what sending needs, the list's figures when a Slack endpoint is claimed from, and the next
     * time something is due: ONE call.
     */
    async claimDue(run: {
      claim: string;
      now: Date;
      leaseUntil: Date;
      limit: number;
      dayStart: Date;
      endpointId?: number;
    }): Promise<ClaimedRun> {
      const now = iso(run.now);
      const one = run.endpointId === undefined ? sql`1 = 1` : sql`d.endpoint_id = ${run.endpointId}`;
      const due = sql`select id from (
          select d.id, e.failure_run, row_number() over (partition by d.endpoint_id order by d.event_id, d.id) as rn
          from ${d} d join ${e} e on e.id = d.endpoint_id
          where ${one} and d.status = 'pending' and d.next_at <= ${now} and (d.locked_until is null or d.locked_until <= ${now})
            and e.enabled = 1 and (e.paused_until is null or e.paused_until <= ${now})
            and (e.kind = 'slack' or d.person is null or not exists (
              select 1 from ${d} p where p.person = d.person and p.endpoint_id = d.endpoint_id
                and p.status = 'pending' and p.event_id < d.event_id))
        ) where failure_run = 0 or rn = 1 order by rn, id limit ${run.limit}`;
      const ours = db.select({ id: d.endpointId }).from(d).where(eq(d.claim, run.claim));
      const [, , rows, figures, next] = await db.batch([
        db
          .update(d)
          .set({ claim: run.claim, lockedUntil: iso(run.leaseUntil) })
          .where(sql`${d.id} in (${due})`),
        db
          .update(e)
          .set({ pausedUntil: iso(run.leaseUntil) })
          .where(and(eq(e.kind, "slack"), sql`${e.id} in (${ours})`)),
        db
          .select({
            id: d.id,
            webhookId: d.webhookId,
            attempts: d.attempts,
            endpointId: d.endpointId,
            eventType: webhookEvents.type,
            payload: webhookEvents.payload,
            eventAt: webhookEvents.createdAt,
            kind: e.kind,
            url: e.url,
            secret: e.secret,
            previousSecret: e.previousSecret,
            previousSecretUntil: e.previousSecretUntil,
          })
          .from(d)
          .innerJoin(webhookEvents, eq(webhookEvents.id, d.eventId))
          .innerJoin(e, eq(e.id, d.endpointId))
          .where(eq(d.claim, run.claim))
          .orderBy(d.eventId, d.id),
        db
          .select({
            onTheList: sql<number>`(select count(*) from ${waitlist})`,
            referralsToday: sql<number>`(select count(*) from ${referralCredits} where ${referralCredits.createdAt} >= ${iso(run.dayStart)} and ${referralCredits.voidedAt} is null)`,
          })
          .from(e)
          .where(
            and(
              eq(e.kind, "slack"),
              exists(
                db
                  .select({ one: sql`1` })
                  .from(d)
                  .where(and(eq(d.claim, run.claim), eq(d.endpointId, e.id))),
              ),
            ),
          )
          .limit(1),
        nextDueQuery(db, run.now, run.endpointId ?? null),
      ]);
      return { deliveries: rows, figures: figures[0] ?? null, next: nextDueOf(next) };
    },

    /**
     * Records a run's outcomes, each only while the delivery still holds `claim` and is pending (a run
     * whose lease lapsed records nothing over another's; an erasure's cancel stands), the endpoints' success or failure run, pause and
     * disabling, then reads the next time something is due (and whether `endpointId`'s is): ONE call.
     */
    async recordRun(run: {
      claim: string;
      now: Date;
      deliveries: DeliveryOutcome[];
      endpoints: EndpointOutcome[];
      endpointId?: number;
    }): Promise<NextDue> {
      const now = iso(run.now);
      const claimed = (endpointId: number) =>
        exists(
          db
            .select({ one: sql`1` })
            .from(d)
            .where(and(eq(d.endpointId, endpointId), eq(d.claim, run.claim))),
        );
      const statements = [];
      for (const o of run.endpoints) {
        const paused = o.pausedUntil ? iso(o.pausedUntil) : null;
        const set = o.successAt
          ? {
              failureRun: o.failures,
              failingSince: o.firstFailureAt ? iso(o.firstFailureAt) : null,
              lastSuccessAt: iso(o.successAt),
              pausedUntil: paused,
            }
          : {
              failureRun: sql`${e.failureRun} + ${o.failures}`,
              failingSince: o.failures > 0 ? sql`coalesce(${e.failingSince}, ${iso(o.firstFailureAt ?? run.now)})` : sql`${e.failingSince}`,
              pausedUntil: paused,
            };
        statements.push(
          db
            .update(e)
            .set(set)
            .where(and(eq(e.id, o.id), claimed(o.id))),
        );
        if (o.disable) {
          statements.push(
            db
              .update(e)
              .set({ enabled: false, disabledReason: o.disable, disabledAt: now, updatedAt: now })
              .where(and(eq(e.id, o.id), eq(e.enabled, true), claimed(o.id))),
          );
        } else if (o.failures > 0) {
          const cutoff = iso(new Date(run.now.getTime() - DISABLE_AFTER_MS));
          const last = (o.lastError ?? "no answer").slice(0, 200);
          statements.push(
            db
              .update(e)
              .set({
                enabled: false,
                disabledReason: sql`'Disabled after ' || ${e.failureRun} || ' failed attempts in a row since ' || ${e.failingSince} || '; the last: ' || ${last} || '.'`,
                disabledAt: now,
                updatedAt: now,
              })
              .where(
                and(
                  eq(e.id, o.id),
                  eq(e.enabled, true),
                  sql`${e.failureRun} >= ${DISABLE_AFTER_FAILURES}`,
                  sql`${e.failingSince} <= ${cutoff}`,
                ),
              ),
          );
        }
      }
      for (const o of run.deliveries) {
        const last = { lastStatus: o.status, lastError: o.error, lastAnswer: o.answer, lastAt: iso(o.at), claim: null, lockedUntil: null };
        const set =
          o.result === "delivered"
            ? { ...last, status: "delivered" as const, attempts: sql`${d.attempts} + 1`, deliveredAt: iso(o.at) }
            : o.result === "failed"
              ? { ...last, attempts: sql`${d.attempts} + 1`, ...(o.nextAt ? { nextAt: iso(o.nextAt) } : { status: "dead" as const }) }
              : o.result === "held"
                ? last
                : { claim: null, lockedUntil: null };
        statements.push(
          db
            .update(d)
            .set(set)
            // Pending only: a delivery cancelled by an erasure while in the air is never sent again.
            .where(and(eq(d.id, o.id), eq(d.claim, run.claim), eq(d.status, "pending"))),
        );
      }
      const [first, ...rest] = [...statements, nextDueQuery(db, run.now, run.endpointId ?? null)];
      const results = (await db.batch([first!, ...rest])) as unknown[];
      return nextDueOf(results[results.length - 1] as NextDueRow[]);
    },
  };
}
