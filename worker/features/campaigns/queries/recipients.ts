import { and, eq, isNotNull } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { campaignRecipients, campaigns, waitlist } from "../../../platform/db/schema";
import type { WaitlistEntry } from "../../../platform/db/schema";

/**
 * What a campaign's recipient is shown about themselves: on "My place" (/#/me) the invitation
 * that reached them, and on the unsubscribe page which address the link stands for.
 */
export function createRecipientRepository(db: Database) {
  return {
    /**
     * The e-mail of the invite wave that drew the entry, when it was sent to them: its subject
     * and when. Null before it went out (still queued), or when it never will (skipped: the
     * mailbox was unsubscribed; failed). One row by the (campaign_id, entry_id) unique index.
     */
    async invitationOf(entry: Pick<WaitlistEntry, "id" | "invitedCampaignId">): Promise<{ subject: string; sentAt: string } | null> {
      if (entry.invitedCampaignId === null) return null;
      const rows = await db
        .select({ subject: campaigns.subject, sentAt: campaignRecipients.sentAt })
        .from(campaignRecipients)
        .innerJoin(campaigns, eq(campaigns.id, campaignRecipients.campaignId))
        .where(
          and(
            eq(campaignRecipients.campaignId, entry.invitedCampaignId),
            eq(campaignRecipients.entryId, entry.id),
            eq(campaignRecipients.status, "sent"),
          ),
        )
        .limit(1);
      const row = rows[0];
      return row?.sentAt ? { subject: row.subject, sentAt: row.sentAt } : null;
    },

    /**
     * The address of a confirmed waitlist entry with this mailbox key (a campaign's audience is
     * confirmed entries; the partial index on (mailbox_key, rank_key, confirm_seq) where confirmed
     * finds it), or null: a test e-mail to an operator, or an entry erased or left since. Several
     * entries may share a mailbox (ada@ and ada+news@); the first in line stands for it.
     */
    async addressOfMailbox(mailboxKey: string): Promise<string | null> {
      const rows = await db
        .select({ email: waitlist.email })
        .from(waitlist)
        .where(and(eq(waitlist.mailboxKey, mailboxKey), isNotNull(waitlist.rankKey)))
        .orderBy(waitlist.rankKey, waitlist.confirmSeq)
        .limit(1);
      return rows[0]?.email ?? null;
    },
  };
}
