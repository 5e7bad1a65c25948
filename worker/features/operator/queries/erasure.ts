import { and, eq, inArray, isNotNull, ne, or, sql } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { campaignRecipients, referralCredits, waitlist } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";

/**
 * What an erasure changes outside the person's own rows (part of erasePerson's one batch, people.ts;
 * docs/operating.md "Erasing a person" says what is kept and why). They must run before the entry
 * is deleted: they find the person's entry id, referral code and mailbox key through it.
 *
 * - hwh_referral_credits: the pairs where the person was the friend (their mailbox key) are kept
 *   as tombstones: the same referrer's code, with `pairKey` (keys.ts referralPairKey: a keyed hash
 *   of the mailbox key, which is no one's mailbox key and gives back neither it nor the address)
 *   in place of the mailbox key, the credit's time, boost and void. A later confirmation of the
 *   same inbox computes that pair key and credits that referrer nothing (referrals/queries.ts), and
 *   a voided credit stays voided and counted in the referrer's voided credits. Two rows of one
 *   referrer (an entry's former key and today's) make one tombstone, voided if either was. The
 *   originals and the pairs the person's own code earned (a credit of an erased referrer counts
 *   toward nobody) are deleted. The referrer keeps the places a credit gave (a count on the
 *   referrer's own entry, naming nobody). Without a pair key (a caller that has none) nothing is kept.
 * - The friends who joined with the person's code keep their entries and places, not the link:
 *   referred_by is cleared (a pending friend's later confirmation then credits nobody).
 * - hwh_campaign_recipients: the person's rows stay, anonymous, so a campaign's counts (sent,
 *   skipped, failed) stay true: entry_id becomes the row's own id negated (unique, and no entry
 *   has it: a send then skips it as erased), and the place, send time and last error are cleared.
 */
export function eraseLinks(db: Database, email: string, now: Date, mailboxKey?: string, pairKey?: string) {
  const entry = db.select({ id: waitlist.id }).from(waitlist).where(eq(waitlist.email, email));
  const codes = db
    .select({ code: waitlist.referralCode })
    .from(waitlist)
    .where(and(eq(waitlist.email, email), isNotNull(waitlist.referralCode)));
  // An entry written before mailbox keys existed has "", which is no one's key.
  const keys = db
    .select({ key: waitlist.mailboxKey })
    .from(waitlist)
    .where(and(eq(waitlist.email, email), ne(waitlist.mailboxKey, "")));
  const asFriend = or(inArray(referralCredits.mailboxKey, keys), mailboxKey ? eq(referralCredits.mailboxKey, mailboxKey) : undefined);
  const c = referralCredits;
  const r = campaignRecipients;
  return [
    db
      .insert(c)
      .select(
        sql`select ${c.referralCode}, ${pairKey ?? null}, ${c.createdAt}, ${c.boost}, ${c.voidedAt} from ${c} where ${pairKey ?? null} is not null and ${asFriend}`,
      )
      .onConflictDoUpdate({ target: [c.referralCode, c.mailboxKey], set: { voidedAt: sql`coalesce(${c.voidedAt}, excluded.voided_at)` } }),
    db.delete(c).where(or(inArray(c.referralCode, codes), asFriend)),
    db.update(waitlist).set({ referredBy: null }).where(inArray(waitlist.referredBy, codes)),
    db
      .update(r)
      .set({ entryId: sql`-${r.id}`, place: null, sentAt: null, lastError: null, updatedAt: iso(now) })
      .where(inArray(r.entryId, entry)),
  ] as const;
}
