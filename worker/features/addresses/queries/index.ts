import { and, eq, inArray, isNotNull, isNull, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../../platform/db/database";
import {
  auditLog,
  authCodes,
  authRefreshTokens,
  authSessions,
  authUsers,
  joinerMail,
  referralCredits,
  subscriptionEvents,
  suppressions,
  waitlist,
} from "../../../platform/db/schema";
import { createAddressReads, type HolderOf, type StoredAddress } from "./reads";
import { createSubmissionAddressQueries } from "./submissions";

export type { HolderOf, StoredAddress } from "./reads";

/**
 * The backfill of addresses stored before they were canonical (issue 22; the rules are
 * canonicalize.ts's): its progress, the rows that may need it, and each move as one batch, so a
 * row is either moved with everything keyed by its old key, or not at all.
 */

/** One move: the row (as read), its canonical address and key, the row already there (as read) and which one stays. */
export type AddressMove = {
  row: Pick<StoredAddress, "id" | "email" | "confirmed">;
  to: string;
  key: string;
  /** The row that already has the canonical address, or null. */
  other: HolderOf | null;
  keep: "row" | "other";
  /** The keys the row's old spelling was given, to be moved to `key`. */
  formerKeys: string[];
  /** The audit trail's name for the address (operator/audit.ts's subjectHash), and when: for the record of a merge. */
  subject: string;
  at: string;
};

/** Whether a row still is as it was read (confirmed or not), so a decision made on the read holds. */
const stillConfirmed = (column: SQLWrapper, confirmed: boolean) => (confirmed ? isNotNull(column) : isNull(column));

/** No row of `table` matches `where` (a dependent row goes only once its owner is gone). */
const notExists = (table: typeof waitlist | typeof authUsers, where: SQL | undefined): SQL =>
  sql`not exists (select 1 from ${table} where ${where})`;

/**
 * Whether a move's batch did what it was read for: the dropped row deleted (the second statement,
 * after its audit record) and, when the row stays, its update (at `update`); without a row to
 * drop, the update is the first statement.
 */
function moved(results: unknown[], dropped: boolean, keep: AddressMove["keep"], update: number): boolean {
  const changed = (index: number) => (results[index] as unknown[]).length === 1;
  if (!dropped) return changed(0);
  return changed(1) && (keep === "other" || changed(update));
}

export function createAddressRepository(db: Database) {
  /**
   * Everything keyed by a former mailbox key moves to the new key, in the move's batch: the
   * suppression (kept when the new key has one already: it stays suppressed), the consent trail,
   * the referral credits (a pair already credited under the new key is not credited twice), and
   * every entry still carrying it, so no campaign ever reads an entry's key without its suppression.
   * An erasure's tombstones of referral pairs stay where they are: they are keyed by the referral
   * pair key of the address's key today (keys.ts mailboxKeys), never of a former key, which is
   * what a later join of that inbox computes.
   */
  function moveKeys(formerKeys: string[], key: string): BatchItem<"sqlite">[] {
    return formerKeys
      .filter((former) => former !== "" && former !== key)
      .flatMap((former) => [
        db
          .insert(suppressions)
          .select(
            sql`select ${key}, ${suppressions.reason}, ${suppressions.source}, ${suppressions.campaignId}, ${suppressions.createdAt} from ${suppressions} where ${suppressions.mailboxKey} = ${former}`,
          )
          .onConflictDoNothing(),
        db.delete(suppressions).where(eq(suppressions.mailboxKey, former)),
        db.update(subscriptionEvents).set({ mailboxKey: key }).where(eq(subscriptionEvents.mailboxKey, former)),
        db
          .insert(referralCredits)
          .select(
            sql`select ${referralCredits.referralCode}, ${key}, ${referralCredits.createdAt}, ${referralCredits.boost}, ${referralCredits.voidedAt} from ${referralCredits} where ${referralCredits.mailboxKey} = ${former}`,
          )
          .onConflictDoNothing(),
        db.delete(referralCredits).where(eq(referralCredits.mailboxKey, former)),
        db.update(waitlist).set({ mailboxKey: key }).where(eq(waitlist.mailboxKey, former)),
      ]);
  }

  /** The audit record of a merge: `details` (a JSON object) read from the dropped row `from` (no row, no record). */
  function mergeRecord(move: AddressMove, details: SQL, from: SQL): BatchItem<"sqlite"> {
    return db.insert(auditLog).select(sql`select null, 'address.merged', 'backfill', ${move.subject}, ${details}, ${move.at} from ${from}`);
  }

  async function run(statements: BatchItem<"sqlite">[]): Promise<unknown[]> {
    const [first, ...rest] = statements;
    return first ? db.batch([first, ...rest]) : [];
  }

  return {
    ...createAddressReads(db),
    ...createSubmissionAddressQueries(db),

    /**
     * Moves a waitlist entry to its canonical address (one batch). The entry that does not stay
     * is deleted only while it is still as it was read (otherwise the move fails or changes
     * nothing, and is tried again), and then with its joiner mails; an audit record
     * (`address.merged`, operator "backfill") keeps what it carried, never its address. The one
     * that stays takes the address and key. Resolves whether the move happened.
     */
    async moveEntry(move: AddressMove): Promise<boolean> {
      const drop = move.keep === "row" ? move.other : move.row;
      const kept = move.keep === "row" ? move.row.id : move.other?.id;
      const dropped = (id: number) => and(eq(waitlist.id, id), stillConfirmed(waitlist.confirmedAt, drop!.confirmed));
      const results = await run([
        ...(drop
          ? [
              mergeRecord(
                move,
                sql`json_object('table', 'waitlist', 'kept_id', ${Number(kept)}, 'dropped_id', ${waitlist.id},
                'created_at', ${waitlist.createdAt}, 'confirmed_at', ${waitlist.confirmedAt}, 'source', ${waitlist.source},
                'referral_code', ${waitlist.referralCode}, 'referred_by', ${waitlist.referredBy},
                'referrals_confirmed', ${waitlist.referralsConfirmed})`,
                sql`${waitlist} where ${dropped(Number(drop.id))}`,
              ),
              db
                .delete(waitlist)
                .where(dropped(Number(drop.id)))
                .returning({ id: waitlist.id }),
              db
                .delete(joinerMail)
                .where(and(eq(joinerMail.entryId, Number(drop.id)), notExists(waitlist, eq(waitlist.id, Number(drop.id))))),
            ]
          : []),
        ...(move.keep === "row"
          ? [
              db
                .update(waitlist)
                .set({ email: move.to, mailboxKey: move.key })
                .where(and(eq(waitlist.id, Number(move.row.id)), eq(waitlist.email, move.row.email)))
                .returning({ id: waitlist.id }),
            ]
          : []),
        ...moveKeys(move.formerKeys, move.key),
      ]);
      return moved(results, drop !== null, move.keep, 3);
    },

    /**
     * Moves a sign-in user to its canonical address (one batch): the user that does not stay is
     * deleted (only while still as read) with its sessions and refresh tokens, recorded as
     * `address.merged` like an entry; the one that stays takes the address; the code row of the
     * old spelling goes (its hash was made with that spelling). Resolves whether the move happened.
     */
    async moveUser(move: AddressMove): Promise<boolean> {
      const drop = move.keep === "row" ? move.other : move.row;
      const kept = move.keep === "row" ? move.row.id : move.other?.id;
      const dropped = (id: string) => and(eq(authUsers.id, id), stillConfirmed(authUsers.emailConfirmedAt, drop!.confirmed));
      const gone = (id: string) => notExists(authUsers, eq(authUsers.id, id));
      const sessions = (userId: string) => db.select({ id: authSessions.id }).from(authSessions).where(eq(authSessions.userId, userId));
      const results = await run([
        ...(drop
          ? [
              mergeRecord(
                move,
                sql`json_object('table', 'users', 'kept_id', ${kept}, 'dropped_id', ${authUsers.id},
                'created_at', ${authUsers.createdAt}, 'confirmed_at', ${authUsers.emailConfirmedAt},
                'sessions', (select count(*) from ${authSessions} where ${authSessions.userId} = ${authUsers.id}))`,
                sql`${authUsers} where ${dropped(drop.id)}`,
              ),
              db.delete(authUsers).where(dropped(drop.id)).returning({ id: authUsers.id }),
              db.delete(authRefreshTokens).where(and(inArray(authRefreshTokens.sessionId, sessions(drop.id)), gone(drop.id))),
              db.delete(authSessions).where(and(eq(authSessions.userId, drop.id), gone(drop.id))),
            ]
          : []),
        ...(move.keep === "row"
          ? [
              db
                .update(authUsers)
                .set({ email: move.to })
                .where(and(eq(authUsers.id, move.row.id), eq(authUsers.email, move.row.email)))
                .returning({ id: authUsers.id }),
            ]
          : []),
        db.delete(authCodes).where(eq(authCodes.email, move.row.email)),
        ...moveKeys(move.formerKeys, move.key),
      ]);
      return moved(results, drop !== null, move.keep, 4);
    },

    /** Deletes the code rows of these (old) spellings: their hashes were made with them, and nobody can ask for them any more. */
    async deleteCodes(emails: string[]): Promise<void> {
      if (emails.length > 0) await db.delete(authCodes).where(inArray(authCodes.email, emails));
    },
  };
}
