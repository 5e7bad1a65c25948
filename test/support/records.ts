import { desc, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../../worker/platform/db/database";
import { createRepository } from "../../worker/repository";
import { formSubmissions, referralCredits, waitlist, type FormSubmission, type WaitlistEntry } from "../../worker/platform/db/schema";

/**
 * The repository, plus the lookups only tests need to check what was stored (the worker itself
 * reads records through the operator API's lists, worker/features/operator/queries/index.ts). Used on D1 in
 * workerd and on libSQL in Node alike.
 */
export function repositoryWithLookups(db: Database) {
  return {
    ...createRepository(db),

    async findWaitlistEntry(email: string): Promise<WaitlistEntry | undefined> {
      const rows = await db.select().from(waitlist).where(eq(waitlist.email, email)).limit(1);
      return rows[0];
    },

    async findFormSubmission(id: number): Promise<FormSubmission | undefined> {
      const rows = await db.select().from(formSubmissions).where(eq(formSubmissions.id, id)).limit(1);
      return rows[0];
    },

    /** Stores rows as they are, past every rule: rows as an older version stored them (the address backfill's tests). */
    async seed<T extends SQLiteTable>(table: T, rows: T["$inferInsert"][]): Promise<void> {
      await db.insert(table).values(rows);
    },

    /** Runs one statement past every rule: a row put where a test needs it (e.g. a delivery already attempted). */
    async execute(query: SQL): Promise<void> {
      await db.run(query);
    },

    /** Every row of a table (the address backfill's tests: what it moved). */
    async rowsOf<T extends SQLiteTable>(table: T): Promise<T["$inferSelect"][]> {
      return (await db.select().from(table as SQLiteTable)) as T["$inferSelect"][];
    },

    /** Every row of every table of the project (hwh_*), by table: what a scan for a person's traces reads. */
    async everyRow(): Promise<Record<string, Record<string, unknown>[]>> {
      const tables = await db.all<{ name: string }>(
        sql`select name from sqlite_master where type = 'table' and name like 'hwh!_%' escape '!'`,
      );
      const rows = await Promise.all(tables.map(({ name }) => db.all<Record<string, unknown>>(sql.raw(`select * from "${name}"`))));
      return Object.fromEntries(tables.map(({ name }, i) => [name, rows[i]!]));
    },

    /** Referral credits as they were stored before they kept their boost (migration 0012). */
    async forgetCreditBoosts(): Promise<void> {
      await db.update(referralCredits).set({ boost: null });
    },

    /** Spec §7: all entries, newest first. */
    async listWaitlist(): Promise<WaitlistEntry[]> {
      return db.select().from(waitlist).orderBy(desc(waitlist.createdAt), desc(waitlist.id));
    },
  };
}

export type TestRepository = ReturnType<typeof repositoryWithLookups>;
