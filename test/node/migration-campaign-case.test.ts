/**
 * Issue 15: migration 0004 lower-cases the campaign values stored before the schema did, so the
 * console's breakdowns stop splitting "TikTok" from "tiktok". The migrations before it are
 * applied, rows are stored as the old code stored them, then 0004 runs as production runs it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { expect, it } from "vitest";
import { MIGRATIONS_FOLDER } from "../../worker/platform/db/migrate-libsql";

/** A migration file's statements, split where drizzle splits them. */
function statements(file: string): string[] {
  return readFileSync(join(MIGRATIONS_FOLDER, file), "utf8")
    .split("--> statement-breakpoint")
    .map((statement) => statement.trim())
    .filter(Boolean);
}

it("0004 lower-cases stored utm_source, utm_medium, utm_campaign and referrer_host (ASCII letters, as SQLite's lower() does)", async () => {
  const files = readdirSync(MIGRATIONS_FOLDER)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  const target = files.findIndex((name) => name.startsWith("0004_"));
  expect(target).toBeGreaterThan(0);
  const client = createClient({ url: ":memory:" });
  try {
    for (const file of files.slice(0, target)) for (const sql of statements(file)) await client.execute(sql);
    const insert = `insert into hwh_waitlist (email, utm_source, utm_medium, utm_campaign, referrer_host, created_at, updated_at)
      values (?, ?, ?, ?, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`;
    await client.execute({ sql: insert, args: ["a@example.com", "TikTok", "Social", "Launch1", "News.Example"] });
    await client.execute({ sql: insert, args: ["b@example.com", "tiktok", null, "launch1", null] });
    await client.execute({ sql: insert, args: ["c@example.com", "Ünï", "ÉTÉ", null, null] });

    for (const sql of statements(files[target]!)) await client.execute(sql);

    const rows = await client.execute("select email, utm_source, utm_medium, utm_campaign, referrer_host from hwh_waitlist order by email");
    expect(rows.rows.map((row) => ({ ...row }))).toEqual([
      { email: "a@example.com", utm_source: "tiktok", utm_medium: "social", utm_campaign: "launch1", referrer_host: "news.example" },
      { email: "b@example.com", utm_source: "tiktok", utm_medium: null, utm_campaign: "launch1", referrer_host: null },
      // SQLite's lower() is ASCII-only: other capitals stay in old rows (docs/operating.md "The operator console").
      { email: "c@example.com", utm_source: "Ünï", utm_medium: "ÉtÉ", utm_campaign: null, referrer_host: null },
    ]);
  } finally {
    client.close();
  }
});
