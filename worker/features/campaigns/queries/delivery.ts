import { and, eq, inArray, sql } from "drizzle-orm";
import { audienceOf, type CampaignStatus, type SkipReason } from "../../../shared/campaigns";
import { audienceWhere } from "./campaigns";
import { createCampaignStateRepository } from "./state";
import type { Database } from "../../../platform/db/database";
import { iso } from "../../../platform/db/sql";
import type { DevMailInput } from "../../../platform/db/schema";
import { campaignRecipients, campaigns, devMailbox, subscriptionEvents, suppressions, waitlist } from "../../../platform/db/schema";
import type { Campaign, CampaignRecipient, WaitlistEntry } from "../../../platform/db/schema";

/**
 * A campaign's delivery in the database (worker/features/campaigns/*): expansion into recipient rows,
 * the claim before each send and the marks after, what a stalled campaign re-enqueues, the
 * dead letters and the campaign's own status changes. Every write is one statement or one batch
 * whose conditions make it safe to run twice or at once (docs/launch-day.md).
 */

const r = campaignRecipients;

/** A claim taken: the row (status sending, claim mine), its entry (null: erased) and the entry's suppression. */
export type Claimed = { recipient: CampaignRecipient; campaign: Campaign; entry: WaitlistEntry | null; suppressed: SkipReason | null };

/** One expansion step: the rows it wrote (to enqueue), and whether every row now exists. */
export type ExpandStep = { recipientIds: number[]; done: boolean };

export function createCampaignDeliveryRepository(db: Database) {
  const campaignStatus = sql`(select c.status from ${campaigns} c where c.id = ${r.campaignId})`;
  return {
    ...createCampaignStateRepository(db),

    async campaign(id: number): Promise<Campaign | null> {
      const rows = await db.select().from(campaigns).where(eq(campaigns.id, id)).limit(1);
      return rows[0] ?? null;
    },

    /** Moves the campaign from one of `from` to `to` (with `set`): the updated row, or null when its status was another. */
    async transition(
      id: number,
      from: CampaignStatus[],
      to: CampaignStatus,
      now: Date,
      set: Partial<Campaign> = {},
    ): Promise<Campaign | null> {
      const rows = await db
        .update(campaigns)
        .set({ ...set, status: to, updatedAt: iso(now) })
        .where(and(eq(campaigns.id, id), inArray(campaigns.status, from)))
        .returning();
      return rows[0] ?? null;
    },

    /**
     * Writes the next chunk of recipient rows (at most `chunk`), one batch: the rows (unique per
     * entry), a wave's invited marks, and the campaign's audience_size, expand_cursor (the last
     * entry written) and, when fewer than asked were left, expanded_at. Each statement holds
     * only while audience_size is what this step read, so two steps racing on one campaign (a
     * redelivered message) write one chunk, and a step that crashed wrote all of it or nothing.
     * "all" walks entries by id from the cursor; a wave takes the first uninvited by place.
     */
    async expandChunk(campaign: Campaign, chunk: number, now: Date): Promise<ExpandStep> {
      const audience = audienceOf(campaign);
      const limit = audience.kind === "wave" ? Math.max(0, Math.min(chunk, audience.size - campaign.audienceSize)) : chunk;
      const unchanged = sql`(select c.audience_size from ${campaigns} c where c.id = ${campaign.id} and c.status = 'sending' and c.expanded_at is null) = ${campaign.audienceSize}`;
      const after = Number(campaign.expandCursor ?? 0);
      // A new row's columns after its place, in the table's order (as insert-select wants): queued, no attempt yet.
      const fresh = sql`'queued', 0, null, null, null, null, null, null, ${iso(now)}`;
      // A wave's place: every confirmed entry counts, so it is numbered before the audience's filter.
      const rows =
        audience.kind === "wave"
          ? sql`select null, ${campaign.id}, ${waitlist.id}, p.place, ${fresh} from ${waitlist}
              join (select id, row_number() over (order by rank_key, confirm_seq) as place from ${waitlist} where rank_key is not null) p on p.id = ${waitlist.id}
              where ${audienceWhere(audience)} and ${unchanged} order by ${waitlist.rankKey}, ${waitlist.confirmSeq} limit ${limit}`
          : sql`select null, ${campaign.id}, ${waitlist.id}, null, ${fresh} from ${waitlist}
              where ${audienceWhere(audience)} and ${waitlist.id} > ${after} and ${unchanged} order by ${waitlist.id} limit ${limit}`;
      const written = sql`(select count(*) from ${r} x where x.campaign_id = ${campaign.id})`;
      // Only a wave invites: an announcement's statement matches no entry.
      const invites = audience.kind === "wave" ? sql`1 = 1` : sql`1 = 0`;
      const [inserted, , updated] = await db.batch([
        db.insert(r).select(rows).onConflictDoNothing().returning({ id: r.id }),
        db
          .update(waitlist)
          .set({ invitedAt: iso(now), invitedCampaignId: campaign.id })
          .where(
            sql`${invites} and ${waitlist.invitedAt} is null and ${waitlist.id} in (select x.entry_id from ${r} x where x.campaign_id = ${campaign.id})`,
          ),
        db
          .update(campaigns)
          .set({
            audienceSize: written,
            expandCursor: sql`coalesce((select cast(x.entry_id as text) from ${r} x where x.campaign_id = ${campaign.id} order by x.id desc limit 1), ${campaigns.expandCursor})`,
            expandedAt: sql`case when ${written} - ${campaign.audienceSize} < ${limit} or ${limit} = 0 then ${iso(now)} else null end`,
            updatedAt: iso(now),
          })
          .where(
            and(
              eq(campaigns.id, campaign.id),
              sql`${campaigns.status} = 'sending' and ${campaigns.expandedAt} is null and ${campaigns.audienceSize} = ${campaign.audienceSize}`,
            ),
          )
          .returning({ expandedAt: campaigns.expandedAt }),
      ]);
      return { recipientIds: inserted.map((row) => row.id), done: updated[0]?.expandedAt != null };
    },

    /**
     * The only way to a send: claims the row (queued, or sending with a lapsed lease) while its
     * campaign is sending, and reads its entry and the entry's suppression in the same batch.
     * Null when the row is settled, held by a live claim, or its campaign is not sending.
     */
    async claim(recipientId: number, campaignId: number, claim: string, now: Date, lockMs: number): Promise<Claimed | null> {
      const mine = sql`(select x.entry_id from ${r} x where x.id = ${recipientId} and x.claim = ${claim} and x.status = 'sending')`;
      // The campaign (its subject and body) comes in the same batch: no query of its own per send.
      const [claimed, entries, suppressed, campaign] = await db.batch([
        db
          .update(r)
          .set({
            status: "sending",
            claim,
            lockedUntil: iso(new Date(now.getTime() + lockMs)),
            attempts: sql`${r.attempts} + 1`,
            updatedAt: iso(now),
          })
          .where(
            and(
              eq(r.id, recipientId),
              eq(r.campaignId, campaignId),
              sql`(${r.status} = 'queued' or (${r.status} = 'sending' and ${r.lockedUntil} < ${iso(now)})) and ${campaignStatus} = 'sending'`,
            ),
          )
          .returning(),
        db.select().from(waitlist).where(sql`${waitlist.id} = ${mine}`),
        db
          .select({ reason: suppressions.reason })
          .from(suppressions)
          .where(sql`${suppressions.mailboxKey} = (select w.mailbox_key from ${waitlist} w where w.id = ${mine})`),
        db
          .select()
          .from(campaigns)
          .where(and(eq(campaigns.id, campaignId), sql`exists ${mine}`)),
      ]);
      const recipient = claimed[0];
      if (!recipient || !campaign[0]) return null;
      return { recipient, campaign: campaign[0], entry: entries[0] ?? null, suppressed: suppressed[0]?.reason ?? null };
    },

    /** Sent, by the claim's holder only; the dev mailbox's copy is kept in the same batch. */
    async markSent(recipient: CampaignRecipient, now: Date, devMail?: DevMailInput): Promise<boolean> {
      const held = and(eq(r.id, recipient.id), eq(r.claim, recipient.claim ?? ""), eq(r.status, "sending"));
      const mark = db
        .update(r)
        .set({ status: "sent", sentAt: iso(now), lockedUntil: null, lastError: null, updatedAt: iso(now) })
        .where(held)
        .returning({ id: r.id });
      if (!devMail) return (await mark).length > 0;
      const keep = db.insert(devMailbox).select(
        sql`select null, ${JSON.stringify(devMail.receivers)}, ${devMail.title}, ${devMail.bodyHtml}, ${devMail.bodyText ?? null},
          ${devMail.headers ? JSON.stringify(devMail.headers) : null}, ${iso(now)}
          where exists (select 1 from ${r} x where x.id = ${recipient.id} and x.claim = ${recipient.claim} and x.status = 'sending')`,
      );
      const [, marked] = await db.batch([keep, mark]);
      return marked.length > 0;
    },

    /**
     * Not sent, for good: skipped with its reason, by the claim's holder. A mailbox on the list
     * (it left between the audience's count and its send) also takes back this wave's invitation,
     * in the same batch, as cancel does: after "Subscribe again" the next wave draws the entry.
     */
    async markSkipped(recipient: CampaignRecipient, reason: SkipReason, now: Date): Promise<void> {
      const held = and(eq(r.id, recipient.id), eq(r.claim, recipient.claim ?? ""), eq(r.status, "sending"));
      const uninvite = db
        .update(waitlist)
        .set({ invitedAt: null, invitedCampaignId: null })
        .where(
          and(
            eq(waitlist.id, recipient.entryId),
            eq(waitlist.invitedCampaignId, recipient.campaignId),
            sql`exists (select 1 from ${r} x where x.id = ${recipient.id} and x.claim = ${recipient.claim ?? ""} and x.status = 'sending')`,
          ),
        );
      const mark = db
        .update(r)
        .set({ status: "skipped", skipReason: reason, lockedUntil: null, updatedAt: iso(now) })
        .where(held);
      if (reason === "unsubscribed" || reason === "bounced" || reason === "complained") await db.batch([uninvite, mark]);
      else await mark;
    },

    /** The provider failed: back to queued for the retry (skipped "cancelled" when the campaign was cancelled meanwhile). */
    async markRetry(recipient: CampaignRecipient, error: string, now: Date): Promise<void> {
      const cancelled = sql`${campaignStatus} = 'cancelled'`;
      await db
        .update(r)
        .set({
          status: sql`case when ${cancelled} then 'skipped' else 'queued' end`,
          skipReason: sql`case when ${cancelled} then 'cancelled' else null end`,
          lastError: error.slice(0, 500),
          lockedUntil: null,
          updatedAt: iso(now),
        })
        .where(and(eq(r.id, recipient.id), eq(r.claim, recipient.claim ?? ""), eq(r.status, "sending")));
    },

    /** The transport says the mailbox bounced or complained: failed, and the mailbox suppressed (with its trail), one batch. */
    async markRejected(
      recipient: CampaignRecipient,
      mailboxKey: string,
      reason: "bounced" | "complained",
      error: string,
      now: Date,
    ): Promise<void> {
      await db.batch([
        db
          .update(r)
          .set({ status: "failed", lastError: error.slice(0, 500), lockedUntil: null, updatedAt: iso(now) })
          .where(and(eq(r.id, recipient.id), eq(r.claim, recipient.claim ?? ""))),
        // The event first, while it can still see whether the mailbox was on the list (as repo.consent.suppress).
        db.insert(subscriptionEvents).select(
          sql`select null, ${mailboxKey}, ${reason}, 'transport', ${recipient.campaignId}, ${iso(now)}
            where not exists (select 1 from ${suppressions} s where s.mailbox_key = ${mailboxKey})`,
        ),
        db
          .insert(suppressions)
          .values({ mailboxKey, reason, source: "transport", campaignId: recipient.campaignId, createdAt: iso(now) })
          .onConflictDoNothing(),
      ]);
    },

    /** Rows not yet settled after `afterId` (queued, or sending with a lapsed lease), by id: what a requeue walks. */
    async unsettledAfter(campaignId: number, afterId: number, limit: number, now: Date): Promise<number[]> {
      const rows = await db
        .select({ id: r.id })
        .from(r)
        .where(
          and(
            eq(r.campaignId, campaignId),
            sql`${r.id} > ${afterId} and (${r.status} = 'queued' or (${r.status} = 'sending' and ${r.lockedUntil} < ${iso(now)}))`,
          ),
        )
        .orderBy(r.id)
        .limit(limit);
      return rows.map((row) => row.id);
    },
  };
}

export type CampaignDeliveryRepository = ReturnType<typeof createCampaignDeliveryRepository>;
