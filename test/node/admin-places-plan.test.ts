import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { eq, getTableColumns } from "drizzle-orm";
import { drizzle } from "drizzle-orm/libsql";
import { afterAll, describe, expect, it } from "vitest";
import { pagePlaces, placeColumn } from "../../worker/features/operator/queries/journey";
import type { Database } from "../../worker/platform/db/database";
import { migrateLibsql } from "../../worker/platform/db/migrate-libsql";
import { waitlist } from "../../worker/platform/db/schema";

/**
 * The console's places are counted over the partial rank index alone (worker/features/operator/queries/journey.ts):
 * SQLite's plan for each count must search hwh_waitlist_rank_idx as a covering index. A count
 * whose WHERE did not imply the index's (rank_key IS NOT NULL) scanned the whole table instead,
 * 250 ms for a page of 25 at 100,000 entries, with every answer still right.
 */
const dir = mkdtempSync(join(tmpdir(), "hwh-plan-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function planOf(build: (db: Database) => { toSQL: () => { sql: string; params: unknown[] } }) {
  const url = `file:${join(dir, `plan-${crypto.randomUUID()}.db`)}`;
  await migrateLibsql(url);
  const client = createClient({ url });
  try {
    const { sql, params } = build(drizzle(client)).toSQL();
    const rows = await client.execute({ sql: `explain query plan ${sql}`, args: params as never[] });
    return rows.rows.map((row) => String(row.detail));
  } finally {
    client.close();
  }
}

/** The plan's lines that read the counted table (alias a). */
const countLines = (plan: string[]) => plan.filter((line) => / a( |$)/.test(line));

describe("the console's place counts", () => {
  it("a page's places search the rank index as a covering index, never scan the table", async () => {
    const plan = await planOf((db) => pagePlaces(db, db.select().from(waitlist).limit(26).getSQL()));
    expect(countLines(plan)).toEqual([expect.stringMatching(/^SEARCH a USING COVERING INDEX hwh_waitlist_rank_idx /)]);
  });

  it("one person's place too", async () => {
    const plan = await planOf((db) =>
      db
        .select({ ...getTableColumns(waitlist), place: placeColumn })
        .from(waitlist)
        .where(eq(waitlist.email, "a@x.test")),
    );
    expect(countLines(plan)).toEqual([expect.stringMatching(/^SEARCH a USING COVERING INDEX hwh_waitlist_rank_idx /)]);
  });
});
