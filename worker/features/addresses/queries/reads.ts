import { and, asc, eq, gt, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { authCodes, authUsers, backfills, waitlist } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";

/**
 * What the address backfill reads (part of repo.addresses, index.ts): its progress, the rows that
 * may need moving, and the row that already has an address.
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

const userColumns = { id: authUsers.id, email: authUsers.email, confirmedAt: authUsers.emailConfirmedAt, createdAt: authUsers.createdAt };

/** A user as a holder of its address: the earlier created (then the lower id) came first. */
const holder = (row: { id: string; confirmedAt: string | null; createdAt: string }): HolderOf => ({
  id: row.id,
  confirmed: row.confirmedAt !== null,
  order: `${row.createdAt} ${row.id}`,
});

export function createAddressReads(db: Database) {
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
  };
}
