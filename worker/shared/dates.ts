/**
 * Dates as the people on the list read them, one style everywhere they see one: the campaign
 * e-mail's footer ("25 November 2026", worker/features/campaigns/content.ts), "My place" (/#/me) and the
 * unsubscribe page. A date alone is UTC's, as stored: a date in the reader's own zone could be a
 * day off the e-mail's. A time is in the reader's own zone and names it (issue 22: students in
 * Germany and Spain read UTC as a time an hour off theirs). A value that is not a date comes back as it is.
 */

const DATE: Intl.DateTimeFormatOptions = { day: "numeric", month: "long", year: "numeric" };
const TIME: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" };

const parsed = (iso: string): Date | null => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** "25 November 2026" (UTC's date). */
export function longDate(iso: string): string {
  const date = parsed(iso);
  return date ? date.toLocaleDateString("en-GB", { ...DATE, timeZone: "UTC" }) : iso;
}

/**
 * "25 November 2026, 05:12 CET": the date and time in the reader's own zone (the browser's; no
 * fixed timeZone) and the zone's short name ("GMT-5" where it has none in English; "UTC" where the
 * zone is UTC, as on a server).
 */
export function longDateTime(iso: string): string {
  const date = parsed(iso);
  return date ? `${date.toLocaleDateString("en-GB", DATE)}, ${date.toLocaleTimeString("en-GB", TIME)}` : iso;
}
