import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { afterAll, describe, expect, it } from "vitest";
import { dueIds } from "../../worker/features/retention/queries";
import { migrateLibsql } from "../../worker/platform/db/migrate-libsql";
import type { RetentionKind } from "../../worker/shared/retention";

/**
 * The retention cron runs every five minutes over tables that grow with the list (issue 23;
 * worker/features/retention/queries.ts): each sweep's rows are found by searching an index in
 * the order they go, never by scanning the table, so a run with nothing to delete reads nothing.
 */
const dir = mkdtempSync(join(tmpdir(), "hwh-retention-plan-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function planOf(kind: RetentionKind): Promise<string[]> {
  const url = `file:${join(dir, `plan-${kind}.db`)}`;
  await migrateLibsql(url);
  const client = createClient({ url });
  try {
    const { sql, params } = dueIds(drizzle(client), kind, {
      before: new Date("2026-11-01T00:00:00Z"),
      limit: 500,
      day: "2026-11-28",
    }).toSQL();
    const rows = await client.execute({ sql: `explain query plan ${sql}`, args: params as never[] });
    return rows.rows.map((row) => String(row.detail));
  } finally {
    client.close();
  }
}

describe("the retention sweeps' plans", () => {
  it.each([
    ["unconfirmed_entries", /^SEARCH hwh_waitlist USING (?:COVERING )?INDEX hwh_waitlist_created_idx \(created_at<\?\)$/],
    ["referral_networks", /^SEARCH hwh_waitlist USING (?:COVERING )?INDEX hwh_waitlist_network_kept_idx \(confirmed_at<\?\)$/],
    [
      "contact_messages",
      /^SEARCH hwh_form_submissions USING (?:COVERING )?INDEX hwh_form_submissions_form_created_idx \(form_name=\? AND created_at<\?\)$/,
    ],
    ["parental_requests", /^SEARCH hwh_parental_requests USING (?:COVERING )?INDEX hwh_parental_requests_created_idx \(created_at<\?\)$/],
  ] as const)("%s: one search of its index, in order, no scan and no sort", async (kind, search) => {
    expect(await planOf(kind)).toEqual([expect.stringMatching(search)]);
  });
});
