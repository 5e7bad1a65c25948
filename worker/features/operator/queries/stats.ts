import { and, count, desc, eq, gte, isNotNull, min, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { BREAKDOWN_TOP, STATS_DAYS, type AdminStats, type Breakdown } from "../../../shared/admin";
import { formSlugOf } from "../../../shared/forms";
import { ageStatsOf, childrenQueries, parentStatsOf } from "./children";
import { funnelOf, funnelQuery } from "./funnel";
import { journeySummary, journeyTotals, referrerQueries } from "./journey";
import type { Database } from "../../../platform/db/database";
import { formSubmissions, waitlist } from "../../../platform/db/schema";
import { undeliveredQueries, undeliveredSummary } from "../../notifications/queries/undelivered";
import { iso } from "../../../platform/db/sql";

/**
 * The console's overview (GET /api/admin/stats) in one database call. Breakdowns are counted and
 * cut to their top BREAKDOWN_TOP values by the database, so the answer stays small however many
 * distinct campaigns visitors invent; what a value is never matters (counts go into lists, not
 * into an object keyed by the value).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The waitlist's columns with a breakdown, by the stats' names. */
const BROKEN_DOWN = {
  bySource: waitlist.source,
  byUtmSource: waitlist.utmSource,
  byUtmMedium: waitlist.utmMedium,
  byUtmCampaign: waitlist.utmCampaign,
  byReferrerHost: waitlist.referrerHost,
} as const;
type BrokenDown = keyof typeof BROKEN_DOWN;
const BROKEN_DOWN_NAMES = Object.keys(BROKEN_DOWN) as BrokenDown[];

/** A breakdown from its top rows (most first), its entries without a value, its distinct values and its total. */
export function breakdownOf(top: { value: string; count: number }[], none: number, values: number, total: number): Breakdown {
  const listed = top.reduce((sum, row) => sum + row.count, 0);
  return { top, none, other: { values: values - top.length, count: total - none - listed } };
}

/** What the stats need besides the time: the REFERRAL_NETWORK_FLAG in force. */
export type StatsOptions = { networkFlag: number };

/** The stats the database gives in one batch; the visitor e-mail line is the waitlist's (routes.ts adds it). */
export async function adminStats(
  db: Database,
  now: Date,
  options: StatsOptions,
): Promise<Omit<AdminStats, "visitorMail" | "retention" | "mailDeadLetters">> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const firstDay = new Date(today - (STATS_DAYS - 1) * DAY_MS);
  const day = sql<string>`substr(${waitlist.createdAt}, 1, 10)`;
  const topOf = (column: SQLiteColumn) =>
    db
      .select({ value: sql<string>`${column}`, count: count().as("n") })
      .from(waitlist)
      .where(isNotNull(column))
      .groupBy(column)
      .orderBy(desc(sql`n`), column)
      .limit(BREAKDOWN_TOP);
  // Undelivered notifications whose last attempt failed, and their earliest next attempt.
  const failedOf = (t: typeof waitlist | typeof formSubmissions) =>
    db
      .select({ count: count(), next: min(t.notifyNextAttemptAt) })
      .from(t)
      .where(and(eq(t.emailSent, false), isNotNull(t.notifyLastError)));
  // Per column, its entries without a value and its distinct values. Every expression is named:
  // D1 returns a batch's rows by column name, and some differ only in a parameter.
  const perColumn = Object.fromEntries(
    BROKEN_DOWN_NAMES.flatMap((name, i) => [
      [`none${i}`, sql<number>`coalesce(sum(${BROKEN_DOWN[name]} is null), 0)`.as(`none_${i}`)],
      [`values${i}`, sql<number>`count(distinct ${BROKEN_DOWN[name]})`.as(`values_${i}`)],
    ]),
  );
  const [
    [totals],
    funnel,
    byDay,
    byForm,
    waitingW,
    waitingF,
    failedW,
    failedF,
    topReferrers,
    flagged,
    flaggedFriends,
    ages,
    pendingRequests,
    outcomes,
    expired,
    ...tops
  ] = await db.batch([
    db
      .select({
        total: count().as("total"),
        last24h: sql<number>`coalesce(sum(${waitlist.createdAt} >= ${iso(new Date(now.getTime() - DAY_MS))}), 0)`.as("last_24h"),
        last7d: sql<number>`coalesce(sum(${waitlist.createdAt} >= ${iso(new Date(now.getTime() - 7 * DAY_MS))}), 0)`.as("last_7d"),
        ...journeyTotals,
        ...perColumn,
      })
      .from(waitlist),
    funnelQuery(db),
    db
      .select({ date: day, count: count() })
      .from(waitlist)
      .where(gte(waitlist.createdAt, iso(firstDay)))
      .groupBy(day),
    // Every stored form name (a handful): the top and the rest are cut here.
    db
      .select({ value: formSubmissions.formName, count: count().as("n") })
      .from(formSubmissions)
      .groupBy(formSubmissions.formName)
      .orderBy(desc(sql`n`), formSubmissions.formName),
    ...undeliveredQueries(db),
    failedOf(waitlist),
    failedOf(formSubmissions),
    ...referrerQueries(db, options.networkFlag),
    ...childrenQueries(db, iso(firstDay).slice(0, 10)),
    ...BROKEN_DOWN_NAMES.map((name) => topOf(BROKEN_DOWN[name])),
  ]);
  const total = Number(totals?.total ?? 0);
  // The per-column figures, by the names given above (their type is lost in fromEntries).
  const figures = (totals ?? {}) as Record<string, unknown>;
  const column = (i: number) =>
    breakdownOf(
      tops[i]!.map((row) => ({ value: row.value, count: Number(row.count) })),
      Number(figures[`none${i}`] ?? 0),
      Number(figures[`values${i}`] ?? 0),
      total,
    );
  const perDay = new Map(byDay.map((row) => [row.date, row.count]));
  const days = Array.from({ length: STATS_DAYS }, (_, i) => iso(new Date(firstDay.getTime() + i * DAY_MS)).slice(0, 10));
  // By slug, as the API's routes name forms; a stored name no form has any more keeps its name.
  const forms = byForm.map((row) => ({ value: formSlugOf(row.value), count: Number(row.count) }));
  const messages = forms.reduce((sum, row) => sum + row.count, 0);
  const undelivered = undeliveredSummary(waitingW, waitingF);
  const journey = journeySummary(
    { total, confirmed: Number(totals?.confirmed ?? 0), referrals: Number(totals?.referrals ?? 0) },
    topReferrers,
    flagged,
    flaggedFriends,
    options.networkFlag,
  );
  return {
    funnel: funnelOf(total, funnel),
    waitlist: {
      total,
      ...journey.waitlist,
      last24h: Number(totals?.last24h ?? 0),
      last7d: Number(totals?.last7d ?? 0),
      ...(Object.fromEntries(BROKEN_DOWN_NAMES.map((name, i) => [name, column(i)])) as Record<BrokenDown, Breakdown>),
      byDay: days.map((date) => ({ date, count: perDay.get(date) ?? 0 })),
    },
    referrals: journey.referrals,
    ages: ageStatsOf(ages),
    parents: parentStatsOf(iso(new Date(today)).slice(0, 10), pendingRequests, outcomes, expired),
    submissions: { total: messages, byForm: breakdownOf(forms.slice(0, BREAKDOWN_TOP), 0, forms.length, messages) },
    notifications: { undelivered: undelivered.count, oldestUndeliveredAt: undelivered.oldestAt },
    failedNotifications: {
      count: (failedW[0]?.count ?? 0) + (failedF[0]?.count ?? 0),
      nextAttemptAt: [failedW[0]?.next, failedF[0]?.next].filter((at): at is string => typeof at === "string").sort()[0] ?? null,
    },
  };
}
