import { desc, eq, gt, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { FLAGGED_TOP, REFERRERS_TOP, type AdminStats } from "../../../shared/admin";
import type { Database } from "../../../platform/db/database";
import { waitlist } from "../../../platform/db/schema";
import { flaggedNetworks, flaggedReferrals } from "../../referrals/queries";
import { byCode, clustersByCode, clustersOf, type ReferralRow, voidedOf } from "./referral-clusters";
import type { WaitlistEntry } from "../../../platform/db/schema";

/**
 * The joiner's journey as the operator reads it: each listed entry's place in line, and the
 * stats' confirmation and referral figures. The place is D1's rule (worker/features/waitlist/queries/journey.ts
 * placeOf): 1 + the confirmed entries before it in (rank_key, confirm_seq) order, counted over the
 * partial rank index, never by reading rows.
 */

/** A stored entry with its place in line (null while pending). */
export type PlacedEntry = WaitlistEntry & { place: number | null };

/** Below any rank key (keys go negative with boosts): where the first step of a page's count starts. */
const LOWEST = sql.raw("-9223372036854775808");

/** A column of the outer query's waitlist row, named with its table (drizzle leaves a single table's columns bare). */
const outer = (column: string) => sql`${waitlist}.${sql.identifier(column)}`;

/**
 * The place of one entry of the outer query on `waitlist` (a look-up of one person): one count
 * over the rank index of the confirmed entries whose (rank_key, confirm_seq) is lower.
 */
export const placeColumn = sql<number | null>`case when ${outer("rank_key")} is null then null else 1 + (
  select count(*) from ${waitlist} a
  where a.rank_key is not null and (a.rank_key, a.confirm_seq) < (${outer("rank_key")}, ${outer("confirm_seq")})) end`;

/**
 * The places of every confirmed entry of a page (`page`, a select of waitlist rows), in one
 * statement. A count per row walks the rank index up to that row's place, and the newest
 * entries (a list's first page) are at the back of the line: 25 rows at 80,000 confirmed took
 * 62 ms, 1,000 rows (an export's read) 2.5 s. Instead the page's confirmed rows are put in
 * line order and each counts only the entries between it and the one before it (lag), their
 * running sum being the place: together one walk of the index up to the page's last place,
 * however the page's rows are spread (8 ms and 14 ms for the same pages; measured with
 * libSQL on 100,000 entries).
 */
export function pagePlaces(db: Database, page: SQL) {
  // A select builder over the statement (D1 batches no raw statements), named by column for D1.
  return db.select({ id: sql<number>`placed.id`.as("id"), place: sql<number>`placed.place`.as("place") }).from(sql`(with page as (${page}),
      keyed as (
        select id, rank_key k, confirm_seq s,
          coalesce(lag(rank_key) over by_key, ${LOWEST}) pk, coalesce(lag(confirm_seq) over by_key, ${LOWEST}) ps
        from page where rank_key is not null
        window by_key as (order by rank_key, confirm_seq)),
      steps as (
        select id, k, s, (select count(*) from ${waitlist} a where a.rank_key is not null
          and (a.rank_key, a.confirm_seq) >= (keyed.pk, keyed.ps) and (a.rank_key, a.confirm_seq) < (keyed.k, keyed.s)) n
        from keyed)
      select id, 1 + sum(n) over (order by k, s) as place from steps) placed`);
}

/** The page's rows with their places (pagePlaces' answer, by id). */
export function withPlaces(rows: WaitlistEntry[], places: { id: number; place: number }[]): PlacedEntry[] {
  const byId = new Map(places.map((row) => [Number(row.id), Number(row.place)]));
  return rows.map((row) => ({ ...row, place: byId.get(row.id) ?? null }));
}

/** The journey's columns of the stats' totals statement (one read of the table with the rest). */
export const journeyTotals = {
  confirmed: sql<number>`coalesce(sum(${waitlist.confirmedAt} is not null), 0)`.as("confirmed"),
  referrals: sql<number>`coalesce(sum(${waitlist.referralsConfirmed}), 0)`.as("referrals"),
};

/** The stats' referrer lists: the top referrers, and those flagged for one network's referrals. */
export function referrerQueries(db: Database, flagAt: number) {
  const referrer = alias(waitlist, "referrer");
  // The referrals' own rule of the flag (the same as the log line after a confirmation).
  const perNetwork = flaggedNetworks(db, flagAt).as("per_network");
  const fromOneNetwork = sql<number>`max(${perNetwork.n})`.as("from_one_network");
  return [
    db
      .select({ email: waitlist.email, code: waitlist.referralCode, referrals: waitlist.referralsConfirmed })
      .from(waitlist)
      .where(gt(waitlist.referralsConfirmed, 0))
      .orderBy(desc(waitlist.referralsConfirmed), waitlist.confirmSeq)
      .limit(REFERRERS_TOP),
    db
      .select({ email: referrer.email, code: referrer.referralCode, referrals: referrer.referralsConfirmed, fromOneNetwork })
      .from(perNetwork)
      .innerJoin(referrer, eq(referrer.referralCode, perNetwork.code))
      .groupBy(referrer.id)
      .orderBy(desc(sql`from_one_network`), referrer.confirmSeq)
      .limit(FLAGGED_TOP),
    // Their referrals, which the review clusters (referral-clusters.ts).
    flaggedReferrals(db, flagAt),
  ] as const;
}

type ReferrerRow = { email: string; code: string | null; referrals: number };

/** The stats' journey figures from the totals and the referrer lists' rows. */
export function journeySummary(
  totals: { total: number; confirmed: number; referrals: number },
  top: ReferrerRow[],
  flagged: (ReferrerRow & { fromOneNetwork: number })[],
  flaggedReferrals: (ReferralRow & { code: string | null; voided: number | boolean })[],
  flagAt: number,
): { waitlist: Pick<AdminStats["waitlist"], "pending" | "confirmed" | "confirmationRate">; referrals: AdminStats["referrals"] } {
  const { total, confirmed, referrals } = totals;
  const referrer = (row: ReferrerRow) => ({ email: row.email, code: row.code ?? "", referrals: Number(row.referrals) });
  const clusters = clustersByCode(flaggedReferrals);
  const referralsOf = byCode(flaggedReferrals);
  return {
    waitlist: { pending: total - confirmed, confirmed, confirmationRate: total > 0 ? confirmed / total : 0 },
    referrals: {
      confirmed: referrals,
      viralCoefficient: confirmed > 0 ? referrals / confirmed : 0,
      top: top.map(referrer),
      flagged: flagged.map((row) => ({ ...referrer(row), fromOneNetwork: Number(row.fromOneNetwork) })),
      // Only beside flagged referrers: with none, the referrals' figures stay as they were before issue 22.
      ...(flagged.length > 0 && {
        clusters: flagged.map((row) => ({ code: row.code ?? "", ...(clusters.get(row.code ?? "") ?? clustersOf([])) })),
        voided: flagged.map((row) => ({ code: row.code ?? "", ...voidedOf(referralsOf.get(row.code ?? "") ?? []) })),
      }),
      flagAt,
    },
  };
}
