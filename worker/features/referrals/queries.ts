import { and, count, eq, gte, inArray, isNotNull, isNull, ne, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { AnyColumn } from "drizzle-orm";
import { AGE_BANDS, isMinorBand } from "../../shared/age";
import type { Database } from "../../platform/db/database";
import { referralCredits, waitlist } from "../../platform/db/schema";
import type { WaitlistEntry } from "../../platform/db/schema";
import { iso } from "../../platform/db/sql";

/**
 * Referrals in the database, their one home: the place's order key, counting a referral when the
 * friend confirms (once, never for the referrer's own mailbox, never twice for one friend's
 * mailbox), the friends still pending, and the network flag. The waitlist's confirming batches
 * (worker/features/waitlist/queries/) put these statements in; the operator's stats read the flag.
 */

/**
 * What a confirmation that may count a referral writes: its winning claim, its time, the boost in
 * force (and whether minors get it, MINOR_REFERRAL_REWARDS; unset: they do not), and the referral pair key of the confirming mailbox (keys.ts referralPairKey), which
 * finds the pairs an erasure kept of that mailbox.
 */
export type ReferralWrite = { claim: string; at: Date; boost: number; pairKey: string; minorRewards?: boolean };

/** The bands of minors (under 18), as stored (worker/shared/age.ts isMinorBand). */
const MINOR_BANDS = AGE_BANDS.filter(isMinorBand);

/**
 * The places a referral moves the referrer (`referrer` names its row in SQL) up: the boost in
 * force, or 0 for a minor's entry (under 18, not a parent's on behalf of a child) unless
 * MINOR_REFERRAL_REWARDS (issue 23: a minor's referrals are counted, but do not move them).
 */
export function referrerBoost(referrer: { ageBand: SQL | AnyColumn; onBehalfOfChild: SQL | AnyColumn }, write: ReferralWrite): SQL {
  if (write.minorRewards) return sql`${write.boost}`;
  return sql`(case when ${referrer.ageBand} in (${sql.join(
    MINOR_BANDS.map((band) => sql`${band}`),
    sql`, `,
  )}) and ${referrer.onBehalfOfChild} = 0 then 0 else ${write.boost} end)`;
}

/**
 * The place's order key (docs/api.md "The place in line"), in one home: rank_key = 2 x (confirm_seq -
 * boost x referrals) - (1 once the entry has a referral). Doubling leaves room for that 1, which
 * puts an entry moved up by referrals just before the one whose standing it reached, so one
 * referral moves it up exactly `boost` places (not boost - 1, as a tie lost to the earlier
 * confirmation would); two entries both moved up to one standing keep their confirmation order.
 * Places compare (rank_key, confirm_seq), so equal keys still go to the earlier confirmation.
 */
export const RANK_KEY = {
  /** A new confirmation's key, for its confirm_seq `seq`: no referrals yet. */
  confirmed: (seq: SQL) => sql`2 * ${seq}`,
  /** The key after one more confirmed referral (SET sees the row as it was: referrals before this one). */
  afterReferral: (boost: SQL) => sql`${waitlist.rankKey} - 2 * ${boost} - (case when ${waitlist.referralsConfirmed} = 0 then 1 else 0 end)`,
};

/**
 * Counts the referral of the entry (by address) whose confirmation holds `write.claim`: at most
 * once, because only the winning confirmation wrote that claim; never for the same mailbox; only
 * for a confirmed referrer; and only when this friend's mailbox has not earned that referrer a
 * place before (hwh_referral_credits: leaving and joining again, or another +tag of the same
 * inbox, never counts twice; nor erasing everything and joining again, whose pair the erasure
 * kept under the pair key). The referrer moves up `boost` places, a minor none (referrerBoost: the
 * key stays as its confirmation made it). Runs before referralCreditStatement, in the same batch.
 */
export function referralStatement(db: Database, email: string, write: ReferralWrite) {
  const referred = (column: string) =>
    sql`(select j.${sql.raw(column)} from ${waitlist} j where j.email = ${email} and j.confirm_claim = ${write.claim})`;
  return db
    .update(waitlist)
    .set({
      referralsConfirmed: sql`${waitlist.referralsConfirmed} + 1`,
      rankKey: sql`case when ${referrerBoost(waitlist, write)} = 0 then ${waitlist.rankKey} else ${RANK_KEY.afterReferral(referrerBoost(waitlist, write))} end`,
    })
    .where(
      sql`referral_code = ${referred("referred_by")} and confirmed_at is not null and mailbox_key <> ${referred("mailbox_key")}
        and not exists (select 1 from ${referralCredits} c where c.referral_code = ${referred("referred_by")}
          and c.mailbox_key in (${referred("mailbox_key")}, ${write.pairKey}))`,
    );
}

/**
 * Records the (referrer's code, friend's mailbox) pair of a referral the statement before counted,
 * with the boost it gave (so voiding it takes back exactly that; 0 for a minor's: referrerBoost): the same conditions, the pair
 * unique (a pair already there is left as it is, voided or not, and then the statement before
 * counted nothing), and none when an erasure kept the pair (the statement before counted nothing either).
 */
export function referralCreditStatement(db: Database, email: string, write: ReferralWrite) {
  return db
    .insert(referralCredits)
    .select(
      sql`select j.referred_by, j.mailbox_key, ${iso(write.at)},
        ${referrerBoost({ ageBand: sql`(select r.age_band from ${waitlist} r where r.referral_code = j.referred_by)`, onBehalfOfChild: sql`(select r.on_behalf_of_child from ${waitlist} r where r.referral_code = j.referred_by)` }, write)},
        null from ${waitlist} j
        where j.email = ${email} and j.confirm_claim = ${write.claim} and j.referred_by is not null
        and exists (select 1 from ${waitlist} r where r.referral_code = j.referred_by and r.confirmed_at is not null and r.mailbox_key <> j.mailbox_key)
        and not exists (select 1 from ${referralCredits} c where c.referral_code = j.referred_by and c.mailbox_key = ${write.pairKey})`,
    )
    .onConflictDoNothing();
}

/**
 * The network flag, decided here only (REFERRAL_NETWORK_FLAG): a referrer is flagged for the
 * operator when at least `flagAt` of its confirmed referrals came from one client network, its
 * own mailbox's aside (they never counted). Rows of (referrer's code, confirmed referrals from
 * that network) at or over the flag; `only` narrows it to one referrer and one network. The
 * network is a keyed hash, grouped by and never read out.
 */
export function flaggedNetworks(db: Database, flagAt: number, only?: { code: string; network: string }) {
  const friend = alias(waitlist, "friend");
  const inviter = alias(waitlist, "inviter");
  const narrowed = only ? and(eq(friend.referredBy, only.code), eq(friend.referralNetwork, only.network)) : undefined;
  return db
    .select({ code: friend.referredBy, n: count().as("n") })
    .from(friend)
    .innerJoin(inviter, eq(inviter.referralCode, friend.referredBy))
    .where(and(isNotNull(friend.confirmedAt), isNotNull(friend.referralNetwork), ne(friend.mailboxKey, inviter.mailboxKey), narrowed))
    .groupBy(friend.referredBy, friend.referralNetwork)
    .having(gte(count(), flagAt));
}

/**
 * The confirmed referrals of every referrer the network flag marks (flaggedNetworks), by the
 * same rule (its own mailbox's aside), for the referral review's clustering (issue 22): code,
 * network key (grouped by, never shown), confirmation time, address, and whether an operator
 * voided the credit it gave (the flag still counts it: the review says so beside the count).
 */
export function flaggedReferrals(db: Database, flagAt: number) {
  const friend = alias(waitlist, "friend");
  const inviter = alias(waitlist, "inviter");
  const flagged = flaggedNetworks(db, flagAt).as("flagged_codes");
  return db
    .select({
      code: friend.referredBy,
      network: friend.referralNetwork,
      confirmedAt: sql<string>`${friend.confirmedAt}`,
      email: friend.email,
      voided: sql<number>`${referralCredits.voidedAt} is not null`.as("voided"),
    })
    .from(friend)
    .innerJoin(inviter, eq(inviter.referralCode, friend.referredBy))
    .leftJoin(referralCredits, and(eq(referralCredits.referralCode, friend.referredBy), eq(referralCredits.mailboxKey, friend.mailboxKey)))
    .where(
      and(
        isNotNull(friend.confirmedAt),
        ne(friend.mailboxKey, inviter.mailboxKey),
        inArray(friend.referredBy, db.selectDistinct({ code: flagged.code }).from(flagged)),
      ),
    );
}

export function createReferralRepository(db: Database) {
  return {
    /** Friends who joined with the entry's code and have not confirmed yet (its own mailbox's aside). */
    async pending(entry: Pick<WaitlistEntry, "referralCode" | "mailboxKey">): Promise<number> {
      if (!entry.referralCode) return 0;
      const rows = await db
        .select({ n: count() })
        .from(waitlist)
        .where(and(eq(waitlist.referredBy, entry.referralCode), isNull(waitlist.confirmedAt), ne(waitlist.mailboxKey, entry.mailboxKey)));
      return rows[0]!.n;
    },

    /** The confirmed referrals of one referrer from one network when they flag it (flaggedNetworks), else null. */
    async networkFlagged(code: string, network: string, flagAt: number): Promise<number | null> {
      const rows = await flaggedNetworks(db, flagAt, { code, network });
      return rows[0] ? Number(rows[0].n) : null;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Voiding a credit (issue 22, the operator's action): kept apart from the counting above, which
// it only undoes.

/**
 * The referrer's key after one credit of `boost` places is voided: RANK_KEY.afterReferral undone.
 * Its last credit puts it back exactly where its confirmation put it (RANK_KEY.confirmed, the
 * 1 of "has a referral" with it); an earlier one gives back its 2 x boost. SET sees the row as it
 * was, so referrals_confirmed is the count before this credit goes.
 */
export function rankKeyAfterVoid(boost: SQL): SQL {
  return sql`case when ${waitlist.referralsConfirmed} = 1 then ${RANK_KEY.confirmed(sql`${waitlist.confirmSeq}`)}
    else ${waitlist.rankKey} + 2 * ${boost} end`;
}

/**
 * Voids the credit the entry `friendId` gave (its referrer's code and its mailbox's pair), for
 * one batch, in this order: the referrer loses the referral and the places the credit gave (its
 * stored boost; `fallbackBoost`, the boost in force, for a credit stored before credits kept
 * theirs), then the credit is marked void. Both hold only while the credit counts, so voiding
 * twice changes nothing; the voided row stays, so the same mailbox never credits that referrer
 * again (referralStatement asks for any row of the pair).
 */
export function voidCreditStatements(db: Database, friendId: number, options: { fallbackBoost: number; now: Date }) {
  const friend = (column: string) => sql`(select f.${sql.raw(column)} from ${waitlist} f where f.id = ${friendId})`;
  const counting = sql`c.referral_code = ${friend("referred_by")} and c.mailbox_key = ${friend("mailbox_key")} and c.voided_at is null`;
  const boost = sql`coalesce((select c.boost from ${referralCredits} c where ${counting}), ${options.fallbackBoost})`;
  return [
    db
      .update(waitlist)
      .set({ referralsConfirmed: sql`${waitlist.referralsConfirmed} - 1`, rankKey: rankKeyAfterVoid(boost) })
      .where(
        sql`${waitlist.referralCode} = ${friend("referred_by")} and ${waitlist.referralsConfirmed} > 0
          and exists (select 1 from ${referralCredits} c where ${counting})`,
      )
      .returning({ id: waitlist.id }),
    db
      .update(referralCredits)
      .set({ voidedAt: iso(options.now) })
      .where(
        and(
          sql`${referralCredits.referralCode} = ${friend("referred_by")}`,
          sql`${referralCredits.mailboxKey} = ${friend("mailbox_key")}`,
          isNull(referralCredits.voidedAt),
        ),
      )
      .returning({ boost: referralCredits.boost }),
  ] as const;
}
