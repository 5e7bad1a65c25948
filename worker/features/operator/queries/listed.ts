import { eq, sql, type SQL } from "drizzle-orm";
import { pagePlaces, type PlacedEntry, withPlaces } from "./journey";
import type { Database } from "../../../platform/db/database";
import { referralCredits, waitlist } from "../../../platform/db/schema";
import type { WaitlistEntry } from "../../../platform/db/schema";

/**
 * A listed entry (the console's waitlist table, and the answer of an action on one entry): its
 * place, and its referral credits as the operator reviews them (issue 22): whether the credit
 * its mailbox gave its referrer counts or was voided, and how many of its own were voided.
 */

/** What a credit the entry gave is: counted, voided by an operator, or none (no referrer, its own mailbox, pending). */
export type CreditState = "counted" | "voided" | null;

export type ListedEntry = PlacedEntry & { referralCredit: CreditState; referralsVoided: number };

/** The credits of every entry of a page (`page`, a select of waitlist rows), in one statement, by id. */
export function pageCredits(db: Database, page: SQL) {
  return db
    .select({
      id: sql<number>`p.id`.as("id"),
      credit: sql<CreditState>`(select case when c.voided_at is null then 'counted' else 'voided' end from ${referralCredits} c
        where c.referral_code = p.referred_by and c.mailbox_key = p.mailbox_key)`.as("credit"),
      voided: sql<number>`(select count(*) from ${referralCredits} c
        where c.referral_code = p.referral_code and c.voided_at is not null)`.as("voided"),
    })
    .from(sql`(${page}) p`);
}

/** The page's rows with their places and credits (pagePlaces' and pageCredits' answers, by id). */
export function listed(
  rows: WaitlistEntry[],
  places: { id: number; place: number }[],
  credits: { id: number; credit: CreditState; voided: number }[],
): ListedEntry[] {
  const byId = new Map(credits.map((row) => [Number(row.id), row]));
  return withPlaces(rows, places).map((row) => {
    const credit = byId.get(row.id);
    return { ...row, referralCredit: credit?.credit ?? null, referralsVoided: Number(credit?.voided ?? 0) };
  });
}

/** One entry as the lists show it (null: no such entry), in one batch. */
export async function listedEntry(db: Database, id: number): Promise<ListedEntry | null> {
  const one = () => db.select().from(waitlist).where(eq(waitlist.id, id));
  const [rows, places, credits] = await db.batch([one(), pagePlaces(db, one().getSQL()), pageCredits(db, one().getSQL())]);
  return listed(rows, places, credits)[0] ?? null;
}
