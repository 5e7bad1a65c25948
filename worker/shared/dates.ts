/**
 * Dates as the people on the list read them, one style everywhere they see one: the campaign
 * e-mail's footer ("25 November 2026", worker/features/campaigns/content.ts), "My place" (/#/me) and the
 * unsubscribe page. Always UTC, as stored, and said so where a time is shown: a date in the
 * reader's own zone could be a day off the e-mail's. A value that is not a date comes back as it is.
 */

const DATE: Intl.DateTimeFormatOptions = { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" };
const TIME: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" };

const parsed = (iso: string): Date | null => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** "25 November 2026". */
export function longDate(iso: string): string {
  const date = parsed(iso);
  return date ? date.toLocaleDateString("en-GB", DATE) : iso;
}

/** "25 November 2026, 04:12 UTC". */
export function longDateTime(iso: string): string {
  const date = parsed(iso);
  return date ? `${date.toLocaleDateString("en-GB", DATE)}, ${date.toLocaleTimeString("en-GB", TIME)} UTC` : iso;
}
