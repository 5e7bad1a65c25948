/** SQL helpers every feature's queries share. */

/** How every timestamp column is written: ISO 8601 in UTC (text, so it sorts as it reads). */
export const iso = (date: Date) => date.toISOString();

/** How the counters' windows are written: whole seconds of Unix time. */
export const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
