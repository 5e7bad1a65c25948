import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { audienceColumns, type CampaignAudience, type CampaignDraftInput } from "../../../shared/campaigns";
import type { Database } from "../../../platform/db/database";
import { campaignRecipients, campaigns, suppressions, waitlist } from "../../../platform/db/schema";
import type { Campaign, CampaignRecipient } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";

/**
 * Campaigns as the operator composes them (worker/features/campaigns/routes.ts): drafts, their audience
 * and its size, and what the console reads of a campaign after sending (recipients, dead
 * letters). Delivery (expansion, claims, progress) is worker/features/campaigns/queries/delivery.ts,
 * which takes the audience's definition from here: one definition for the size the operator is
 * shown and the rows sending expands.
 */

/**
 * The parts of an audience's definition, each a condition on an hwh_waitlist row: confirmed
 * (rank_key is set exactly then); the first of its inbox (of the confirmed entries sharing a
 * mailbox key, m0@, m0+x@ and M0@ being one mailbox, only the first by place, whether or not it
 * is in this audience, so a second entry never brings a second e-mail; entries from before
 * mailbox keys, key '', are each their own); not suppressed; and, for a wave, free to draw: not
 * invited yet and not held out of waves by an operator. audienceWhere puts them together; the
 * operator's funnel (worker/features/operator/queries/funnel.ts) counts by the same parts.
 */
export const AUDIENCE_PARTS = {
  confirmed: and(isNotNull(waitlist.confirmedAt), isNotNull(waitlist.rankKey))!,
  firstOfInbox: sql`(${waitlist.mailboxKey} = '' or not exists (select 1 from ${waitlist} o
      where o.mailbox_key = ${waitlist.mailboxKey} and o.rank_key is not null
        and (o.rank_key, o.confirm_seq) < (${waitlist.rankKey}, ${waitlist.confirmSeq})))`,
  /** Why the entry's mailbox receives no campaign (unsubscribed, bounced, complained), null when it does. */
  suppression: sql<string | null>`(select s.reason from ${suppressions} s where s.mailbox_key = ${waitlist.mailboxKey})`,
  notSuppressed: sql`not exists (select 1 from ${suppressions} s where s.mailbox_key = ${waitlist.mailboxKey})`,
  freeForWaves: and(isNull(waitlist.invitedAt), isNull(waitlist.heldAt))!,
};

/**
 * Who is in an audience (docs/launch-day.md), as a WHERE clause on hwh_waitlist: only entries
 * that can receive it (AUDIENCE_PARTS). Confirmed entries only; a mailbox on the suppression
 * list is not drawn (so the size the operator confirms is the number of e-mails, and a wave
 * never marks invited someone it will not write to); one e-mail per inbox. A wave's only those
 * not invited yet and not held out of waves, either narrowed to one utm_source (given as stored:
 * lower-cased). A wave is the first N of these in line order (AUDIENCE_ORDER); the clause names
 * rank_key so SQLite walks the partial rank indexes (the uninvited one for a wave) rather than
 * the table, and the inbox test searches hwh_waitlist_mailbox_rank_idx
 * (test/node/campaign-audience-plan.test.ts).
 *
 * Children (issue 23): audiences are waitlist entries only, so a child's request waiting for a
 * parent's answer (hwh_parental_requests) is never drawn and its parent's address never mailed;
 * an entry a parent agreed to on behalf of a child is the parent's address and is drawn like any
 * other (test/worker/campaign-children.test.ts).
 */
export function audienceWhere(audience: CampaignAudience): SQL {
  const utmSource = audience.utm_source ?? null;
  return and(
    AUDIENCE_PARTS.confirmed,
    audience.kind === "wave" ? AUDIENCE_PARTS.freeForWaves : undefined,
    utmSource === null ? undefined : eq(waitlist.utmSource, utmSource),
    AUDIENCE_PARTS.notSuppressed,
    AUDIENCE_PARTS.firstOfInbox,
  )!;
}

/** Line order (place): how a wave takes its first N, and the order expansion walks. */
export const AUDIENCE_ORDER = [waitlist.rankKey, waitlist.confirmSeq] as const;

/** A recipient's row as the console's CSV and dead-letter list read it: the address is the entry's now (null once erased). */
export type RecipientOutcome = Pick<
  CampaignRecipient,
  "id" | "place" | "status" | "attempts" | "lastError" | "skipReason" | "sentAt" | "deadLetteredAt"
> & { email: string | null };

/** The statuses whose content and audience may still change: nothing has been sent. */
export const EDITABLE_STATUSES = ["draft", "scheduled"] as const;

export function createCampaignRepository(db: Database) {
  const outcomeColumns = {
    id: campaignRecipients.id,
    place: campaignRecipients.place,
    status: campaignRecipients.status,
    attempts: campaignRecipients.attempts,
    lastError: campaignRecipients.lastError,
    skipReason: campaignRecipients.skipReason,
    sentAt: campaignRecipients.sentAt,
    deadLetteredAt: campaignRecipients.deadLetteredAt,
    email: waitlist.email,
  };
  const outcomes = () => db.select(outcomeColumns).from(campaignRecipients).leftJoin(waitlist, eq(waitlist.id, campaignRecipients.entryId));

  return {
    /** A new draft (its audience is counted when read, not stored). */
    async create(draft: CampaignDraftInput, createdBy: string, now: Date): Promise<Campaign> {
      const [created] = await db
        .insert(campaigns)
        .values({
          subject: draft.subject,
          body: draft.body,
          ...audienceColumns(draft.audience),
          createdBy,
          createdAt: iso(now),
          updatedAt: iso(now),
        })
        .returning();
      return created!;
    },

    /**
     * Replaces a draft's (or a scheduled campaign's) subject, body and audience: one conditional
     * UPDATE, so a campaign that started sending meanwhile is never changed under its recipients.
     * Null when no campaign with that id is editable (there is none, or it started).
     */
    async update(id: number, draft: CampaignDraftInput, now: Date): Promise<Campaign | null> {
      const [updated] = await db
        .update(campaigns)
        .set({ subject: draft.subject, body: draft.body, ...audienceColumns(draft.audience), updatedAt: iso(now) })
        .where(and(eq(campaigns.id, id), inArray(campaigns.status, EDITABLE_STATUSES)))
        .returning();
      return updated ?? null;
    },

    /** Newest first; a team makes a handful of campaigns, `limit` only guards the answer's size. */
    list: (limit: number): Promise<Campaign[]> => db.select().from(campaigns).orderBy(desc(campaigns.id)).limit(limit),

    /**
     * How many entries the audience holds now: every match for "all"; for a wave at most its
     * size, counted over the first `size` matches only (a walk of the uninvited rank index that
     * stops there, never the whole list).
     */
    async audienceSize(audience: CampaignAudience): Promise<number> {
      const matching = db.select({ one: sql`1` }).from(waitlist).where(audienceWhere(audience));
      const counted =
        audience.kind === "wave"
          ? await db.select({ n: count() }).from(
              matching
                .orderBy(...AUDIENCE_ORDER)
                .limit(audience.size)
                .as("wave"),
            )
          : await db.select({ n: count() }).from(waitlist).where(audienceWhere(audience));
      return counted[0]?.n ?? 0;
    },

    /**
     * How many of the audience (for a wave, of its first `size`, as audienceSize counts it) joined
     * before the age question: age band "unknown" (issue 23).
     */
    async audienceAgeUnknown(audience: CampaignAudience): Promise<number> {
      if (audience.kind === "all") {
        const [row] = await db
          .select({ n: count() })
          .from(waitlist)
          .where(and(audienceWhere(audience), eq(waitlist.ageBand, "unknown")));
        return row?.n ?? 0;
      }
      const wave = db
        .select({ band: waitlist.ageBand })
        .from(waitlist)
        .where(audienceWhere(audience))
        .orderBy(...AUDIENCE_ORDER)
        .limit(audience.size)
        .as("wave");
      const counted = await db.select({ n: sql<number>`coalesce(sum(${wave.band} = 'unknown'), 0)` }).from(wave);
      return Number(counted[0]?.n ?? 0);
    },

    /** When `email` joined the waitlist (a test e-mail's footer names the date), or null. */
    async joinedAt(email: string): Promise<string | null> {
      const [entry] = await db.select({ createdAt: waitlist.createdAt }).from(waitlist).where(eq(waitlist.email, email));
      return entry?.createdAt ?? null;
    },

    /** Up to `limit` recipients after the row `afterId`, in expansion order (the CSV's pages). */
    recipientsPage: (campaignId: number, afterId: number, limit: number): Promise<RecipientOutcome[]> =>
      outcomes()
        .where(and(eq(campaignRecipients.campaignId, campaignId), gt(campaignRecipients.id, afterId)))
        .orderBy(asc(campaignRecipients.id))
        .limit(limit),

    /** Recipients whose message reached the dead-letter queue and were not sent or retried since. */
    deadLetters: (campaignId: number, limit: number): Promise<RecipientOutcome[]> =>
      outcomes()
        .where(
          and(
            eq(campaignRecipients.campaignId, campaignId),
            eq(campaignRecipients.status, "failed"),
            isNotNull(campaignRecipients.deadLetteredAt),
          ),
        )
        .orderBy(asc(campaignRecipients.id))
        .limit(limit),
  };
}

export type CampaignRepository = ReturnType<typeof createCampaignRepository>;
