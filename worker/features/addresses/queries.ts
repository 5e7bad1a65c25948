import { and, asc, eq, gt, inArray, isNotNull, isNull, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../platform/db/database";
import {
  authCodes,
  authRefreshTokens,
  authSessions,
  authUsers,
  backfills,
  joinerMail,
  referralCredits,
  subscriptionEvents,
  suppressions,
  waitlist,
} from "../../platform/db/schema";
import { iso } from "../../platform/db/sql";

/**
 * The backfill of addresses stored before they were canonical (issue 22; the rules are
 * canonicalize.ts's): its progress, the rows that may need it, and each move as one batch, so a
 * row is either moved with everything keyed by its old key, or not at all.
 */

/** A row whose address holds a character outside ASCII: ASCII lower case is already canonical. */
const notAscii = (column: SQLWrapper): SQL => sql`length(${column}) <> length(cast(${column} as blob))`;

/**
 * A stored row as the backfill reads it: `position` is its rowid, which the backfill's cursor
 * follows; `order` says which of two rows came first (an entry's id, a user's creation time and id).
 */
export type StoredAddress = { position: number; id: string; email: string; confirmed: boolean; order: number | string; key: string };

/** The row that already has an address, as the backfill reads it. */
export type HolderOf = { id: string; confirmed: boolean; order: number | string };

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
};

const userColumns = { id: authUsers.id, email: authUsers.email, confirmedAt: authUsers.emailConfirmedAt, createdAt: authUsers.createdAt };

/** A user as a holder of its address: the earlier created (then the lower id) came first. */
const holder = (row: { id: string; confirmedAt: string | null; createdAt: string }): HolderOf => ({
  id: row.id,
  confirmed: row.confirmedAt !== null,
  order: `${row.createdAt} ${row.id}`,
});

/** Whether a row still is as it was read (confirmed or not), so a decision made on the read holds. */
const stillConfirmed = (column: SQLWrapper, confirmed: boolean) => (confirmed ? isNotNull(column) : isNull(column));

export function createAddressRepository(db: Database) {
  /**
   * Everything keyed by a former mailbox key moves to the new key, in the move's batch: the
   * suppression (kept when the new key has one already: it stays suppressed), the consent trail,
   * the referral credits (a pair already credited under the new key is not credited twice), and
   * every entry still carrying it, so no campaign ever reads an entry's key without its suppression.
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
            sql`select ${referralCredits.referralCode}, ${key}, ${referralCredits.createdAt} from ${referralCredits} where ${referralCredits.mailboxKey} = ${former}`,
          )
          .onConflictDoNothing(),
        db.delete(referralCredits).where(eq(referralCredits.mailboxKey, former)),
        db.update(waitlist).set({ mailboxKey: key }).where(eq(waitlist.mailboxKey, former)),
      ]);
  }

  async function run(statements: BatchItem<"sqlite">[]): Promise<unknown[]> {
    const [first, ...rest] = statements;
    return first ? db.batch([first, ...rest]) : [];
  }

  return {
    /** How far the backfill `name` has got: the last rowid it looked at, and whether it reached the end. */
    async progress(name: string): Promise<{ cursor: number; finished: boolean }> {
      const [row] = await db.select().from(backfills).where(eq(backfills.name, name)).limit(1);
      return { cursor: row?.cursor ?? 0, finished: row?.finishedAt != null };
    },

    async saveProgress(name: string, cursor: number, finished: boolean, now: Date): Promise<void> {
      const values = { cursor, finishedAt: finished ? iso(now) : null, updatedAt: iso(now) };
      await db
        .insert(backfills)
        .values({ name, ...values })
        .onConflictDoUpdate({ target: backfills.name, set: values });
    },

    /** Waitlist entries after rowid `after` whose address is not ASCII, in rowid order, at most `limit`. */
    async entriesToCheck(after: number, limit: number): Promise<StoredAddress[]> {
      const rows = await db
        .select({ position: waitlist.id, email: waitlist.email, confirmedAt: waitlist.confirmedAt, key: waitlist.mailboxKey })
        .from(waitlist)
        .where(and(gt(waitlist.id, after), notAscii(waitlist.email)))
        .orderBy(asc(waitlist.id))
        .limit(limit);
      return rows.map(({ confirmedAt, ...row }) => ({
        ...row,
        id: String(row.position),
        confirmed: confirmedAt !== null,
        order: row.position,
      }));
    },

    /** Sign-in users after rowid `after` whose address is not ASCII, in rowid order, at most `limit`. */
    async usersToCheck(after: number, limit: number): Promise<StoredAddress[]> {
      const rows = await db
        .select({ position: sql<number>`${authUsers}.rowid`, ...userColumns })
        .from(authUsers)
        .where(and(gt(sql`${authUsers}.rowid`, after), notAscii(authUsers.email)))
        .orderBy(sql`${authUsers}.rowid`)
        .limit(limit);
      return rows.map((row) => ({ ...holder(row), position: Number(row.position), email: row.email, key: "" }));
    },

    /** Sign-in code rows after rowid `after` whose address is not ASCII, in rowid order, at most `limit`. */
    async codesToCheck(after: number, limit: number): Promise<{ position: number; email: string }[]> {
      const rows = await db
        .select({ position: sql<number>`${authCodes}.rowid`, email: authCodes.email })
        .from(authCodes)
        .where(and(gt(sql`${authCodes}.rowid`, after), notAscii(authCodes.email)))
        .orderBy(sql`${authCodes}.rowid`)
        .limit(limit);
      return rows.map((row) => ({ ...row, position: Number(row.position) }));
    },

    /** The waitlist entry that has exactly this address, if any. */
    async entryAt(email: string): Promise<HolderOf | null> {
      const [row] = await db.select({ id: waitlist.id, confirmedAt: waitlist.confirmedAt }).from(waitlist).where(eq(waitlist.email, email));
      return row ? { id: String(row.id), confirmed: row.confirmedAt !== null, order: row.id } : null;
    },

    /** The sign-in user that has exactly this address, if any. */
    async userAt(email: string): Promise<HolderOf | null> {
      const [row] = await db.select(userColumns).from(authUsers).where(eq(authUsers.email, email));
      return row ? holder(row) : null;
    },

    /**
     * Moves a waitlist entry to its canonical address (one batch): the entry that does not stay is
     * deleted with its joiner mails (only while it is still as it was read: otherwise the move
     * fails or changes nothing, and is tried again), the one that stays takes the address and key.
     * Resolves whether the move happened.
     */
    async moveEntry(move: AddressMove): Promise<boolean> {
      const drop = move.keep === "row" ? move.other : move.row;
      const dropId = drop ? Number(drop.id) : null;
      const results = await run([
        ...(drop && dropId !== null
          ? [
              db.delete(joinerMail).where(eq(joinerMail.entryId, dropId)),
              db
                .delete(waitlist)
                .where(and(eq(waitlist.id, dropId), stillConfirmed(waitlist.confirmedAt, drop.confirmed)))
                .returning({ id: waitlist.id }),
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
      const changed = (index: number) => (results[index] as unknown[]).length === 1;
      return drop ? changed(1) && (move.keep === "other" || changed(2)) : changed(0);
    },

    /**
     * Moves a sign-in user to its canonical address (one batch): the user that does not stay is
     * deleted with its sessions and refresh tokens, the one that stays takes the address; the code
     * row of the old spelling goes (its hash was made with that spelling, and nobody can ask for
     * it any more). Resolves whether the move happened.
     */
    async moveUser(move: AddressMove): Promise<boolean> {
      const drop = move.keep === "row" ? move.other : move.row;
      const sessions = (userId: string) => db.select({ id: authSessions.id }).from(authSessions).where(eq(authSessions.userId, userId));
      const results = await run([
        ...(drop
          ? [
              db.delete(authRefreshTokens).where(inArray(authRefreshTokens.sessionId, sessions(drop.id))),
              db.delete(authSessions).where(eq(authSessions.userId, drop.id)),
              db
                .delete(authUsers)
                .where(and(eq(authUsers.id, drop.id), stillConfirmed(authUsers.emailConfirmedAt, drop.confirmed)))
                .returning({ id: authUsers.id }),
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
      const changed = (index: number) => (results[index] as unknown[]).length === 1;
      return drop ? changed(2) && (move.keep === "other" || changed(3)) : changed(0);
    },

    /** Deletes the code rows of these (old) spellings: their hashes were made with them, and nobody can ask for them any more. */
    async deleteCodes(emails: string[]): Promise<void> {
      if (emails.length > 0) await db.delete(authCodes).where(inArray(authCodes.email, emails));
    },
  };
}
