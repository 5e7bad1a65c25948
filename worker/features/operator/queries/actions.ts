import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { waitlist } from "../../../platform/db/schema";
import type { WaitlistEntry } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";
import { voidCreditStatements } from "../../referrals/queries";

/**
 * The operator's actions on one entry (issue 22), each one batch: holding it out of invite waves
 * (and letting it back), and voiding the referral credit it gave (the referrals' own statements).
 * The routes record each in the audit trail when it changed something.
 */

/** An entry after a hold or release, and whether this call changed it (null: no such entry). */
export type HeldResult = { entry: WaitlistEntry; changed: boolean } | null;

/** A void's outcome: whether a counting credit was voided, the places it gave back, its referrer (null: gone). */
export type VoidResult = { voided: boolean; boost: number | null; referrerId: number | null } | null;

export function createOperatorActions(db: Database) {
  return {
    /**
     * Holds the entry out of invite waves (`held`), keeping the time it was first held, or lets it
     * back; its place in line never changes. One conditional update and a read, in one batch.
     */
    async setHeld(id: number, held: boolean, now: Date): Promise<HeldResult> {
      const [changed, [entry]] = await db.batch([
        db
          .update(waitlist)
          .set({ heldAt: held ? iso(now) : null })
          .where(and(eq(waitlist.id, id), held ? isNull(waitlist.heldAt) : isNotNull(waitlist.heldAt)))
          .returning({ id: waitlist.id }),
        db.select().from(waitlist).where(eq(waitlist.id, id)),
      ]);
      return entry ? { entry, changed: changed.length > 0 } : null;
    },

    /**
     * Voids the referral credit the entry `friendId` gave (referrals' voidCreditStatements): the
     * referrer moves back by exactly the places the credit gave. Null when there is no such
     * entry; `voided: false` when it gave no credit that still counts.
     */
    async voidReferral(friendId: number, options: { fallbackBoost: number; now: Date }): Promise<VoidResult> {
      const [referrer, credit] = voidCreditStatements(db, friendId, options);
      const [, voided, [exists]] = await db.batch([
        referrer,
        credit,
        db
          .select({
            id: waitlist.id,
            referrerId: sql<number | null>`(select r.id from ${waitlist} r
              where r.referral_code = (select f.referred_by from ${waitlist} f where f.id = ${friendId}))`,
          })
          .from(waitlist)
          .where(eq(waitlist.id, friendId)),
      ]);
      if (!exists) return null;
      const boost = voided[0] ? (voided[0].boost ?? options.fallbackBoost) : null;
      return { voided: voided.length > 0, boost, referrerId: exists.referrerId === null ? null : Number(exists.referrerId) };
    },
  };
}
