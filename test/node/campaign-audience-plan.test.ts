import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { count, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/libsql";
import { afterAll, describe, expect, it } from "vitest";
import { AUDIENCE_ORDER, audienceWhere } from "../../worker/features/campaigns/queries/campaigns";
import type { Database } from "../../worker/platform/db/database";
import { migrateLibsql } from "../../worker/platform/db/migrate-libsql";
import { waitlist } from "../../worker/platform/db/schema";
import type { CampaignAudience } from "../../worker/shared/campaigns";

/**
 * The audience's "one e-mail per inbox" test (worker/features/campaigns/queries/campaigns.ts audienceWhere)
 * runs once per entry drawn: SQLite's plan must search hwh_waitlist_mailbox_rank_idx for it
 * (alias o), never scan the waitlist, or a wave of 1,000 at 100,000 entries reads the table a
 * thousand times. The suppression test searches its primary key, and the wave still walks the
 * uninvited rank index.
 */
const dir = mkdtempSync(join(tmpdir(), "hwh-audience-plan-"));
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

const sizeOf = (db: Database, audience: CampaignAudience) =>
  audience.kind === "wave"
    ? db.select({ n: count() }).from(
        db
          .select({ one: sql`1` })
          .from(waitlist)
          .where(audienceWhere(audience))
          .orderBy(...AUDIENCE_ORDER)
          .limit(audience.size)
          .as("wave"),
      )
    : db.select({ n: count() }).from(waitlist).where(audienceWhere(audience));

describe("the campaign audience's plan", () => {
  for (const audience of [{ kind: "all" }, { kind: "wave", size: 1000 }, { kind: "wave", size: 10, utm_source: "tiktok" }] as const) {
    it(`${JSON.stringify(audience)}: the inbox test searches the mailbox rank index, the suppression its key`, async () => {
      const plan = await planOf((db) => sizeOf(db, audience));
      expect(plan.filter((line) => / o( |$)/.test(line))).toEqual([
        expect.stringMatching(/^SEARCH o USING COVERING INDEX hwh_waitlist_mailbox_rank_idx \(mailbox_key=\? AND /),
      ]);
      expect(plan.filter((line) => / s( |$)/.test(line))).toEqual([
        expect.stringMatching(/^SEARCH s USING (COVERING )?INDEX sqlite_autoindex_hwh_suppressions_1 /),
      ]);
      expect(plan.filter((line) => /^SCAN hwh_waitlist\b/.test(line))).toEqual([]);
      if (audience.kind === "wave") expect(plan.join("\n")).toMatch(/hwh_waitlist_uninvited_rank_idx/);
    });
  }
});
