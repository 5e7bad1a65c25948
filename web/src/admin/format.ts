/**
 * How the console writes numbers, shares, times and days: British English, times in UTC so every
 * operator reads the same. Code, not words: the console's words are content.ts's, which fills
 * these in; the components use them for the values they show as they are.
 */

const LOCALE = "en-GB";

/** A count as the console shows it: 12,345. */
export function formatCount(n: number): string {
  return n.toLocaleString(LOCALE);
}

/** A count and its noun: "1 sign-up", "12,345 sign-ups" (`many` when the plural is not `one` + "s"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** A ratio as the console shows it, with two decimals: "0.45". */
export function formatRatio(value: number): string {
  return value.toLocaleString(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** `count` as a share of `total`, in percent with at most one decimal: "26.7%" (0% of nothing). */
export function formatShare(count: number, total: number): string {
  return (total > 0 ? count / total : 0).toLocaleString(LOCALE, { style: "percent", maximumFractionDigits: 1 });
}

/** A rate with at most one decimal: "2.5". */
export function formatRate(rate: number): string {
  return rate.toLocaleString(LOCALE, { maximumFractionDigits: 1 });
}

/** The entries a page of `count` rows holds, from its place and size: page 2 of 25 rows, 25 of them, is "26-50". */
export function entryRange(page: number, pageSize: number, count: number): string {
  const first = (page - 1) * pageSize + 1;
  return `${formatCount(first)}-${formatCount(first + count - 1)}`;
}

/** A duration as a person rounds it: null under a minute, then whole minutes below 90 of them, then whole hours. */
export function roughDuration(seconds: number): { count: number; unit: "minute" | "hour" } | null {
  if (seconds < 60) return null;
  const minutes = Math.round(seconds / 60);
  return minutes < 90 ? { count: minutes, unit: "minute" } : { count: Math.round(minutes / 60), unit: "hour" };
}

/** A long text cut to at most `max` characters with an ellipsis, at a word's end where one is near (a subject in a narrow column). */
export function shorten(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * A time of the API (ISO 8601, or SQLite's "YYYY-MM-DD HH:MM:SS", which is UTC) as the console
 * shows it, in UTC so every operator reads the same: "12 Jan 2026, 14:03 UTC". A value that is
 * no time is shown as it came.
 */
export function formatTime(value: string): string {
  const date = parseTime(value);
  if (!date) return value;
  return `${date.toLocaleString(LOCALE, { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" })} UTC`;
}

/** A UTC date of the stats ("2026-01-12") as "12 Jan"; with `year`, "12 Jan 2026". */
export function formatDay(value: string, year = false): string {
  const date = parseTime(`${value}T00:00:00Z`);
  if (!date) return value;
  return date.toLocaleDateString(LOCALE, { day: "numeric", month: "short", ...(year ? { year: "numeric" } : {}), timeZone: "UTC" });
}

function parseTime(value: string): Date | null {
  const iso = /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value) ? `${value.replace(" ", "T")}Z` : value;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The operator's own time zone, as the browser names it ("Europe/Berlin"). */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "local time";
}

/**
 * A datetime-local value ("2026-03-01T09:30", the operator's local time) as a Date, or null.
 * Parsed by parts so the result never depends on how a browser reads a date without a zone.
 */
export function parseLocal(value: string): Date | null {
  const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?$/.exec(value);
  if (!match) return null;
  const [y, mo, d, h, mi, s] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, s);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A moment in the operator's own time zone, for the confirmation: "Sun 1 Mar 2026, 09:30". */
export function formatLocal(date: Date): string {
  return date.toLocaleString(LOCALE, {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
  });
}
