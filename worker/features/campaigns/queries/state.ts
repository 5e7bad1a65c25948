import { and, count, eq, inArray, lte, sql } from "drizzle-orm";
import type { CampaignCounts, RecipientStatus } from "../../../shared/campaigns";
import type { Database } from "../../../platform/db/database";
import { iso } from "../../../platform/db/sql";
import { campaignRecipients, campaigns, waitlist } from "../../../platform/db/schema";
import type { Campaign, CampaignRecipient } from "../../../platform/db/schema";
import { campaignFinishedEventStatements } from "../../webhooks/queries/record";

/**
 * A campaign as a whole (part of worker/features/campaigns/queries/delivery.ts): its progress
 * counts, the end of a send ("sent" once nothing is left), cancelling, the dead letters, and what
 * the cron looks for (scheduled campaigns due, sending ones that stalled).
 */

const r = campaignRecipients;

/** What the progress figures are made of (worker/features/campaigns/lifecycle.ts campaignProgress). */
export type ProgressCounts = { counts: CampaignCounts; sentLastMinute: number; deadLettered: number; cancelled: number };

export function createCampaignStateRepository(db: Database) {
  return {
    /** Rows by status (the (campaign_id, status, id) index), sent in the minute before `now`, dead letters, and skipped "cancelled". */
    async progressCounts(campaignId: number, now: Date): Promise<ProgressCounts> {
      const [byStatus, [recent], [dead], [cancelled]] = await db.batch([
        db.select({ status: r.status, n: count() }).from(r).where(eq(r.campaignId, campaignId)).groupBy(r.status),
        db
          .select({ n: count() })
          .from(r)
          .where(and(eq(r.campaignId, campaignId), eq(r.status, "sent"), sql`${r.sentAt} > ${iso(new Date(now.getTime() - 60_000))}`)),
        db
          .select({ n: count() })
          .from(r)
          .where(and(eq(r.campaignId, campaignId), eq(r.status, "failed"), sql`${r.deadLetteredAt} is not null`)),
        db
          .select({ n: count() })
          .from(r)
          .where(and(eq(r.campaignId, campaignId), eq(r.status, "skipped"), eq(r.skipReason, "cancelled"))),
      ]);
      const counts: CampaignCounts = { queued: 0, sending: 0, sent: 0, failed: 0, skipped: 0 };
      for (const row of byStatus) counts[row.status as RecipientStatus] = row.n;
      return { counts, sentLastMinute: recent?.n ?? 0, deadLettered: dead?.n ?? 0, cancelled: cancelled?.n ?? 0 };
    },

    /**
     * Sending -> sent once expansion is done and no row is queued or sending: the row when this
     * call ended it. Its campaign.finished webhook event (issue 25: the counts) in the same batch.
     */
    async finishIfDone(campaignId: number, now: Date): Promise<Campaign | null> {
      const finish = db
        .update(campaigns)
        .set({ status: "sent", finishedAt: iso(now), updatedAt: iso(now) })
        .where(
          and(
            eq(campaigns.id, campaignId),
            sql`${campaigns.status} = 'sending' and ${campaigns.expandedAt} is not null
              and not exists (select 1 from ${r} x where x.campaign_id = ${campaignId} and x.status in ('queued', 'sending'))`,
          ),
        )
        .returning();
      const [rows] = await db.batch([finish, ...campaignFinishedEventStatements(db, campaignId, now)]);
      return rows[0] ?? null;
    },

    /**
     * Cancels (from draft, scheduled, sending or paused), one batch: rows still queued become
     * skipped "cancelled", and a wave's entries that were not sent are no longer invited, so the
     * next wave includes them. Null when the campaign's status allows no cancel.
     */
    async cancel(campaignId: number, now: Date): Promise<Campaign | null> {
      const isCancelled = sql`(select c.status from ${campaigns} c where c.id = ${campaignId}) = 'cancelled'`;
      const [updated] = await db.batch([
        db
          .update(campaigns)
          .set({ status: "cancelled", finishedAt: iso(now), updatedAt: iso(now) })
          .where(and(eq(campaigns.id, campaignId), inArray(campaigns.status, ["draft", "scheduled", "sending", "paused"])))
          .returning(),
        db
          .update(r)
          .set({ status: "skipped", skipReason: "cancelled", updatedAt: iso(now) })
          .where(and(eq(r.campaignId, campaignId), eq(r.status, "queued"), isCancelled)),
        db
          .update(waitlist)
          .set({ invitedAt: null, invitedCampaignId: null })
          .where(
            and(
              eq(waitlist.invitedCampaignId, campaignId),
              isCancelled,
              sql`not exists (select 1 from ${r} x where x.campaign_id = ${campaignId} and x.entry_id = ${waitlist.id} and x.status in ('sent', 'sending'))`,
            ),
          ),
      ]);
      return updated[0] ?? null;
    },

    /**
     * A send message reached the dead-letter queue: its row failed for good, but only when no
     * other copy of the message (a requeue, a redelivery) is at work on it: a row that is queued,
     * or sending with a lapsed lease. A live claim may be sending it right now (its markSent
     * would then find the row failed, and "Retry" would send it twice); a sent, skipped or
     * already failed row stays as it is.
     */
    async markDeadLettered(campaignId: number, recipientId: number, now: Date): Promise<void> {
      await db
        .update(r)
        .set({ status: "failed", deadLetteredAt: iso(now), lockedUntil: null, updatedAt: iso(now) })
        .where(
          and(
            eq(r.id, recipientId),
            eq(r.campaignId, campaignId),
            sql`(${r.status} = 'queued' or (${r.status} = 'sending' and ${r.lockedUntil} < ${iso(now)}))`,
          ),
        );
    },

    /** Puts dead letters (all of the campaign's, or those named) back to queued: the rows to enqueue again. */
    async requeueDeadLetters(campaignId: number, recipientIds: number[] | undefined, now: Date): Promise<number[]> {
      const rows = await db
        .update(r)
        .set({ status: "queued", deadLetteredAt: null, attempts: 0, lockedUntil: null, updatedAt: iso(now) })
        .where(
          and(
            eq(r.campaignId, campaignId),
            eq(r.status, "failed"),
            sql`${r.deadLetteredAt} is not null`,
            recipientIds ? inArray(r.id, recipientIds) : undefined,
          ),
        )
        .returning({ id: r.id });
      return rows.map((row) => row.id);
    },

    /** Scheduled campaigns whose time has come (oldest first). */
    async dueScheduled(now: Date, limit: number): Promise<Campaign[]> {
      return db
        .select()
        .from(campaigns)
        .where(and(eq(campaigns.status, "scheduled"), lte(campaigns.sendAt, iso(now))))
        .orderBy(campaigns.sendAt)
        .limit(limit);
    },

    /**
     * Sending campaigns that stalled: nothing changed since `before` (neither the campaign, i.e.
     * its expansion, nor any of its rows) while rows are left queued, or a claim's lease lapsed,
     * or expansion is unfinished. A campaign sending at its pace always has a row that moved.
     */
    async stalled(before: Date, now: Date): Promise<Campaign[]> {
      const moved = sql`exists (select 1 from ${r} x where x.campaign_id = ${campaigns.id} and x.updated_at > ${iso(before)})`;
      const left = sql`exists (select 1 from ${r} x where x.campaign_id = ${campaigns.id} and x.status = 'queued')`;
      const lapsed = sql`exists (select 1 from ${r} x where x.campaign_id = ${campaigns.id} and x.status = 'sending' and x.locked_until < ${iso(now)})`;
      return db
        .select()
        .from(campaigns)
        .where(
          sql`${campaigns.status} = 'sending' and ${campaigns.updatedAt} <= ${iso(before)} and (
            ${lapsed} or (not ${moved} and (${left} or ${campaigns.expandedAt} is null)))`,
        );
    },

    /** A campaign's recipient rows by id, a page at a time (after `afterId`). */
    async rowsOf(campaignId: number, afterId = 0, limit = 1_000): Promise<CampaignRecipient[]> {
      return db
        .select()
        .from(r)
        .where(and(eq(r.campaignId, campaignId), sql`${r.id} > ${afterId}`))
        .orderBy(r.id)
        .limit(limit);
    },

    /** Every campaign now sending (the cron ends those with nothing left). */
    async sendingIds(): Promise<number[]> {
      const rows = await db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.status, "sending"));
      return rows.map((row) => row.id);
    },

    /** Marks a stalled campaign as seen (updated_at), so the cron's next run waits for it to move again. */
    async touch(campaignId: number, now: Date): Promise<void> {
      await db
        .update(campaigns)
        .set({ updatedAt: iso(now) })
        .where(eq(campaigns.id, campaignId));
    },
  };
}
