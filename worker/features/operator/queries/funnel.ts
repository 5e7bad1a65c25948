import { count, sql } from "drizzle-orm";
import type { Funnel } from "../../../shared/admin";
import type { Database } from "../../../platform/db/database";
import { waitlist } from "../../../platform/db/schema";
import { AUDIENCE_PARTS } from "../../campaigns/queries/campaigns";

/**
 * The console's funnel (issue 22): from joining to an invitation, with what explains each step's
 * difference. Every confirmed entry is counted in exactly one of: shares an inbox with an
 * earlier entry, unsubscribed, bounced or complained, invited, held out of waves, or waiting for
 * a wave, by the campaigns' own parts of an audience (AUDIENCE_PARTS), so "can be written to" is
 * an announcement's audience and "waiting" what the next waves draw from.
 */

/** Where a confirmed entry stops on the way to an invitation (one of the funnel's parts). */
type Stage = "shared" | "unsubscribed" | "bounced" | "complained" | "invited" | "held" | "waiting";

/**
 * One statement of the stats' batch: each confirmed entry's stage, counted per stage. The stage
 * is one CASE, so each entry's inbox and suppression are looked up once (as sums over separate
 * columns SQLite evaluated them again for each sum: 270 ms at 100,000 entries instead of ~100).
 */
export function funnelQuery(db: Database) {
  // AUDIENCE_PARTS wrapped in sql`` of their own: drizzle writes a subquery's aliased fields with
  // bare column names, and a bare mailbox_key inside the suppression's subquery would be its own.
  const stage = sql<Stage>`case when not ${AUDIENCE_PARTS.firstOfInbox} then 'shared'
    else coalesce(${AUDIENCE_PARTS.suppression},
      case when ${waitlist.invitedAt} is not null then 'invited' when ${waitlist.heldAt} is not null then 'held' else 'waiting' end) end`;
  const entries = db
    .select({ stage: sql<Stage>`${stage}`.as("stage") })
    .from(waitlist)
    .where(AUDIENCE_PARTS.confirmed)
    .as("confirmed_entries");
  return db
    .select({ stage: entries.stage, n: count().as("n") })
    .from(entries)
    .groupBy(sql`${sql.identifier("stage")}`);
}

/** The funnel from its statement's rows and the waitlist's total. */
export function funnelOf(joined: number, rows: { stage: Stage; n: number }[]): Funnel {
  const of = (stage: Stage) => Number(rows.find((row) => row.stage === stage)?.n ?? 0);
  const [shared, unsubscribed, invited, held, waiting] = [of("shared"), of("unsubscribed"), of("invited"), of("held"), of("waiting")];
  const undeliverable = of("bounced") + of("complained");
  const reachable = invited + held + waiting;
  const inboxes = reachable + unsubscribed + undeliverable;
  const confirmed = inboxes + shared;
  return {
    joined,
    pending: joined - confirmed,
    confirmed,
    inboxes,
    sharedInbox: shared,
    unsubscribed,
    undeliverable,
    reachable,
    invited,
    held,
    waiting,
  };
}
