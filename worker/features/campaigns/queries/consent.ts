import { asc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { iso } from "../../../platform/db/sql";
import { subscriptionEvents, suppressions, waitlist } from "../../../platform/db/schema";
import type { Suppression } from "../../../platform/db/schema";

/**
 * Who receives no campaign e-mail (hwh_suppressions) and the consent trail behind it
 * (hwh_subscription_events), both by mailbox key: the waitlist's keyed hash of the folded
 * address (worker/features/waitlist/keys.ts), never the address. docs/api.md "Campaign e-mail and
 * unsubscribing" has the rules; each change here is one batch that writes the row and its
 * event together, and only when something changes (a second unsubscribe, or "Subscribe again"
 * of a subscribed mailbox, writes nothing).
 */

export type SuppressionReason = Suppression["reason"];
/** How an unsubscribe arrived: one-click (RFC 8058 POST), page (the link's button), me (the person's page), transport (a bounce or complaint). */
export type ConsentSource = "one-click" | "page" | "me" | "transport";
/**
 * How consent came back, always from the mailbox's owner: "Subscribe again" on /#/me; a join
 * confirmed at once (signed in, or double opt-in off); or the confirmation link's button.
 */
export type RenewedConsent = { event: "resubscribed"; source: "me" } | { event: "rejoined"; source: "join" | "confirm" };

export type SubscriptionEvent = typeof subscriptionEvents.$inferSelect;

/** The statement that finds the mailbox on the list. */
const onList = (mailboxKey: string) => sql`select 1 from ${suppressions} where ${suppressions.mailboxKey} = ${mailboxKey}`;

/**
 * An event row written only `when` a condition holds (in the table's column order, id left to
 * the database): an INSERT ... SELECT, so the change and its event are decided by one batch.
 */
function eventRow(mailboxKey: string, event: SubscriptionEvent["event"], source: string, campaignId: number | null, at: string, when: SQL) {
  return sql`select null, ${mailboxKey}, ${event}, ${source}, ${campaignId}, ${at} where ${when}`;
}

export function createConsentRepository(db: Database) {
  return {
    /**
     * Puts the mailbox on the list with its reason and source, and records the event; true when
     * it was not on the list already (then nothing is written: the first reason stays).
     */
    async suppress(input: {
      mailboxKey: string;
      reason: SuppressionReason;
      source: ConsentSource;
      campaignId: number | null;
      now: Date;
    }): Promise<boolean> {
      const at = iso(input.now);
      const [, added] = await db.batch([
        // The event first, while it can still see whether the row exists.
        db
          .insert(subscriptionEvents)
          .select(
            eventRow(input.mailboxKey, input.reason, input.source, input.campaignId, at, sql`not exists (${onList(input.mailboxKey)})`),
          ),
        db
          .insert(suppressions)
          .values({ mailboxKey: input.mailboxKey, reason: input.reason, source: input.source, campaignId: input.campaignId, createdAt: at })
          .onConflictDoNothing()
          .returning({ mailboxKey: suppressions.mailboxKey }),
      ]);
      return added.length > 0;
    },

    /** Takes the mailbox off the list and records why (consent renewed); true when it was on it. */
    async resubscribe(input: { mailboxKey: string; now: Date } & RenewedConsent): Promise<boolean> {
      const [, removed] = await db.batch([
        db
          .insert(subscriptionEvents)
          .select(eventRow(input.mailboxKey, input.event, input.source, null, iso(input.now), sql`exists (${onList(input.mailboxKey)})`)),
        db.delete(suppressions).where(eq(suppressions.mailboxKey, input.mailboxKey)).returning({ mailboxKey: suppressions.mailboxKey }),
      ]);
      return removed.length > 0;
    },

    /** The mailbox's suppression (why and since when), or null: it gets campaigns. */
    async statusOf(mailboxKey: string): Promise<Suppression | null> {
      const rows = await db.select().from(suppressions).where(eq(suppressions.mailboxKey, mailboxKey)).limit(1);
      return rows[0] ?? null;
    },

    /** The mailbox's consent trail, oldest first. */
    async events(mailboxKey: string): Promise<SubscriptionEvent[]> {
      return db.select().from(subscriptionEvents).where(eq(subscriptionEvents.mailboxKey, mailboxKey)).orderBy(asc(subscriptionEvents.id));
    },
  };
}

export type ConsentRepository = ReturnType<typeof createConsentRepository>;

/**
 * An erasure's share (worker/features/operator/queries erasePerson, in its batch before the entry is
 * deleted): the suppression row and the consent trail of the address's mailbox, found by its
 * waitlist entry's key and by `mailboxKey` (the address's own, when the caller has it: it finds
 * them after the entry left the list).
 */
export function eraseConsent(db: Database, email: string, mailboxKey?: string) {
  const entryKeys = db.select({ key: waitlist.mailboxKey }).from(waitlist).where(eq(waitlist.email, email));
  const keyed = (column: typeof suppressions.mailboxKey | typeof subscriptionEvents.mailboxKey) =>
    or(inArray(column, entryKeys), mailboxKey ? eq(column, mailboxKey) : undefined);
  return [
    db.delete(suppressions).where(keyed(suppressions.mailboxKey)),
    db.delete(subscriptionEvents).where(keyed(subscriptionEvents.mailboxKey)),
  ] as const;
}
