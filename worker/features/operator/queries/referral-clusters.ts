import type { ReferralClusters } from "../../../shared/admin";

/**
 * The referral review's clustering (issue 22; docs/operating.md "Reading a flagged referrer"):
 * how a flagged referrer's confirmed referrals cluster by network, by time and by how their
 * inboxes look. Every rule is decided here, once; the stats only count.
 */

/** One confirmed referral of a flagged referrer. */
export type ReferralRow = { network: string | null; confirmedAt: string; email: string };

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * An inbox's look-alike stem: its domain, and its local part without a "+tag", without any digit
 * and without the dots, dashes or underscores that then end it, all in lower case. kid1@x, kid.2@x,
 * kid+3@x and KID44@x share "kid@x"; anna@x and ben@x do not. Names differing in letters (anna,
 * annb) are told apart: a rule that matched them would also match a class's real names.
 */
export function inboxStem(email: string): string {
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at).toLowerCase().split("+")[0]!;
  return `${local.replace(/[0-9]/g, "").replace(/[._-]+$/, "")}@${email.slice(at + 1).toLowerCase()}`;
}

/** The most of the sorted times within `window` milliseconds of each other (both ends included). */
function mostWithin(times: number[], window: number): number {
  let most = 0;
  let start = 0;
  for (let end = 0; end < times.length; end += 1) {
    while (times[end]! - times[start]! > window) start += 1;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/** The largest group of the values that are equal. */
function largestGroup(values: string[]): number {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return Math.max(0, ...counts.values());
}

/** How one referrer's referrals cluster (ReferralClusters). */
export function clustersOf(rows: ReferralRow[]): ReferralClusters {
  const perNetwork = new Map<string, number>();
  for (const row of rows) if (row.network !== null) perNetwork.set(row.network, (perNetwork.get(row.network) ?? 0) + 1);
  const times = rows.map((row) => Date.parse(row.confirmedAt)).sort((a, b) => a - b);
  const withinHour = mostWithin(times, HOUR_MS);
  const lookAlike = largestGroup(rows.map((row) => inboxStem(row.email)));
  // More than half: one stray referral does not turn a ring into a group, nor two a group into a ring.
  const burst = withinHour * 2 > rows.length;
  const alike = lookAlike * 2 > rows.length;
  return {
    total: rows.length,
    byNetwork: [...perNetwork.values()].sort((a, b) => b - a),
    withinHour,
    withinDay: mostWithin(times, DAY_MS),
    spanHours: times.length === 0 ? 0 : Math.round(((times.at(-1)! - times[0]!) / HOUR_MS) * 10) / 10,
    domains: new Set(rows.map((row) => row.email.slice(row.email.lastIndexOf("@") + 1).toLowerCase())).size,
    lookAlike,
    reading: burst && alike ? "ring" : !burst && !alike ? "group" : null,
  };
}

/** The referrals of them all, by their referrer's code. */
export function byCode<T extends { code: string | null }>(rows: T[]): Map<string, T[]> {
  const grouped = new Map<string, T[]>();
  for (const row of rows) {
    if (row.code === null) continue;
    const list = grouped.get(row.code) ?? [];
    list.push(row);
    grouped.set(row.code, list);
  }
  return grouped;
}

/** Each flagged referrer's clusters, by its code, from the referrals of them all. */
export function clustersByCode(rows: (ReferralRow & { code: string | null })[]): Map<string, ReferralClusters> {
  return new Map([...byCode(rows)].map(([code, list]) => [code, clustersOf(list)]));
}

/**
 * Of one referrer's referrals, those whose credit an operator voided: of them all (the clusters'
 * total), and of its network with the most (the flag's fromOneNetwork; the most voided among
 * networks of that size). The flag and the clusters count them still: the console says how many.
 */
export function voidedOf(rows: (ReferralRow & { voided: number | boolean })[]): { total: number; fromOneNetwork: number } {
  const perNetwork = new Map<string, { n: number; voided: number }>();
  let total = 0;
  for (const row of rows) {
    const voided = Number(row.voided) > 0 ? 1 : 0;
    total += voided;
    if (row.network === null) continue;
    const counts = perNetwork.get(row.network) ?? { n: 0, voided: 0 };
    perNetwork.set(row.network, { n: counts.n + 1, voided: counts.voided + voided });
  }
  const most = [...perNetwork.values()].sort((a, b) => b.n - a.n || b.voided - a.voided)[0];
  return { total, fromOneNetwork: most?.voided ?? 0 };
}
