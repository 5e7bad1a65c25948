import { count, eq, min } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { formSubmissions, waitlist } from "../../../platform/db/schema";

/**
 * The undelivered notifications, summed over both notified tables, with the time of the oldest:
 * one query pair, put into the batches of the health check and of the console's stats, and read
 * back by `undeliveredSummary`.
 */

export type UndeliveredSummary = { count: number; oldestAt: string | null };

type UndeliveredRow = { count: number; oldest: string | null };

/** Per table: how many notifications are undelivered, and the oldest one's time (for a batch). */
export function undeliveredQueries(db: Database) {
  const of = (t: typeof waitlist | typeof formSubmissions) =>
    db
      .select({ count: count(), oldest: min(t.createdAt) })
      .from(t)
      .where(eq(t.emailSent, false));
  return [of(waitlist), of(formSubmissions)] as const;
}

/** Both tables' results of `undeliveredQueries`, summed, with the oldest's time. */
export function undeliveredSummary(w: UndeliveredRow[], f: UndeliveredRow[]): UndeliveredSummary {
  const oldest = [w[0]?.oldest, f[0]?.oldest].filter((at): at is string => typeof at === "string").sort()[0] ?? null;
  return { count: (w[0]?.count ?? 0) + (f[0]?.count ?? 0), oldestAt: oldest };
}
