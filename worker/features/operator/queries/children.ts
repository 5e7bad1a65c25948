import { and, count, eq, gte, min, sql } from "drizzle-orm";
import type { AgeStats, ParentOutcomes, ParentStats } from "../../../shared/admin";
import { AGE_BANDS, type AgeBandStored } from "../../../shared/age";
import type { Database } from "../../../platform/db/database";
import { parentalOutcomes, parentalRequests, retentionDeletions, waitlist } from "../../../platform/db/schema";

/**
 * The stats' part about students and their parents (issue 23 §6), four statements of the stats'
 * batch (stats.ts): the waitlist by age band and on-behalf flag; the parental requests waiting for
 * an answer; how parents answered (hwh_parental_outcomes); and the requests the retention cron
 * deleted unanswered (hwh_retention_deletions under the kind's name, "parental_requests").
 * Counts only: never an address.
 */

/** The retention cron's kind for parental requests deleted unanswered (worker/shared/retention.ts RETENTION_KINDS). */
export const EXPIRED_REQUESTS_KIND = "parental_requests";

const STORED_BANDS: readonly AgeBandStored[] = [...AGE_BANDS, "unknown"];

const noBands = () => Object.fromEntries(STORED_BANDS.map((band) => [band, 0])) as Record<AgeBandStored, number>;
const noOutcomes = (): ParentOutcomes => ({ agreed: 0, declined: 0, expired: 0 });

/** The statements, for the stats' batch; `today` and `since` are UTC days (YYYY-MM-DD), since the first of the stats' days. */
export function childrenQueries(db: Database, since: string) {
  return [
    db
      .select({ onBehalf: waitlist.onBehalfOfChild, band: waitlist.ageBand, n: count().as("n") })
      .from(waitlist)
      .groupBy(waitlist.onBehalfOfChild, waitlist.ageBand),
    db.select({ n: count().as("n"), oldest: min(parentalRequests.createdAt).as("oldest") }).from(parentalRequests),
    db
      .select({ day: parentalOutcomes.day, outcome: parentalOutcomes.outcome, n: parentalOutcomes.count })
      .from(parentalOutcomes)
      .where(gte(parentalOutcomes.day, since)),
    db
      .select({ day: retentionDeletions.day, n: sql<number>`${retentionDeletions.count}`.as("expired_n") })
      .from(retentionDeletions)
      .where(and(eq(retentionDeletions.kind, EXPIRED_REQUESTS_KIND), gte(retentionDeletions.day, since))),
  ] as const;
}

type Rows<I extends number> = Awaited<ReturnType<typeof childrenQueries>[I]>;

/** The waitlist by age band from the first statement's rows; a band no longer known is counted as "unknown". */
export function ageStatsOf(rows: Rows<0>): AgeStats {
  const stats: AgeStats = { byBand: noBands(), onBehalfOfChild: { total: 0, byBand: noBands() } };
  for (const row of rows) {
    const band: AgeBandStored = STORED_BANDS.includes(row.band) ? row.band : "unknown";
    const n = Number(row.n);
    if (row.onBehalf) {
      stats.onBehalfOfChild.total += n;
      stats.onBehalfOfChild.byBand[band] += n;
    } else stats.byBand[band] += n;
  }
  return stats;
}

/** The parental requests' figures from the other three statements' rows, on the UTC day `today`. */
export function parentStatsOf(today: string, pending: Rows<1>, outcomes: Rows<2>, expired: Rows<3>): ParentStats {
  const stats: ParentStats = {
    pending: Number(pending[0]?.n ?? 0),
    oldestPendingAt: pending[0]?.oldest ?? null,
    today: noOutcomes(),
    lastDays: noOutcomes(),
  };
  const add = (day: string, what: keyof ParentOutcomes, n: number) => {
    stats.lastDays[what] += n;
    if (day === today) stats.today[what] += n;
  };
  for (const row of outcomes) if (row.outcome === "agreed" || row.outcome === "declined") add(row.day, row.outcome, Number(row.n));
  for (const row of expired) add(row.day, "expired", Number(row.n));
  return stats;
}
