/**
 * Operator API benchmark (issue 10): a local database seeded with BENCH_ENTRIES waitlist entries
 * (default 100,000, spread over 60 days, with sources and campaigns), then, under `wrangler dev`:
 *
 * - GET /api/admin/waitlist.csv: the whole export, read as a stream (rows counted, never held),
 *   its time and throughput, and the resident memory of the workerd process before, at its peak
 *   during the export, and after. "Flat" means the peak does not grow with the export: the
 *   worker reads 1,000 rows at a time and writes them out before reading more. The export is
 *   also run with a tenth of the entries first, so the two peaks can be compared.
 * - GET /api/admin/stats (one database batch of group-bys over the whole table), and
 *   GET /api/admin/waitlist?q=... (a search through every address): median and slowest of 10.
 *
 * Nothing leaves the machine: wrangler dev on 127.0.0.1, a temporary database. The figures are
 * for local workerd and SQLite-backed D1 on this machine, not production D1.
 *
 * Options (env): BENCH_ENTRIES (default 100000).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ROOT, run, startDevServer, type DevServer } from "../support/dev-server.ts";
import { executeSql } from "./local-d1.ts";
import { positiveInteger } from "./options.ts";
import { timeCalls, type Latency } from "./timing.ts";

const ENTRIES = positiveInteger("BENCH_ENTRIES", 100_000);
const ADMIN_KEY = randomBytes(24).toString("hex");

/**
 * One statement makes every entry (a recursive count), so seeding takes seconds. Entries are
 * spread over 60 days, newest first; sources, campaigns and referrers cycle; one in 50 is
 * undelivered; one in 97 has a value a spreadsheet would run as a formula.
 */
function seedSql(count: number, offset: number): string {
  return `with recursive n(i) as (select ${offset + 1} union all select i + 1 from n where i < ${offset + count})
insert into hwh_waitlist (email, source, utm_source, utm_medium, utm_campaign, referrer_host, email_sent, email_sent_at, notify_attempts, created_at, updated_at)
select
  'student-' || i || '@school' || (i % 40) || '.example',
  case i % 3 when 0 then 'hero' when 1 then 'cta' else null end,
  case i % 5 when 0 then 'newsletter' when 1 then 'tiktok' when 2 then 'instagram' when 3 then '=cmd|calc' else null end,
  case i % 4 when 0 then 'email' when 1 then 'social' else null end,
  case when i % 97 = 0 then '@SUM(A1)' when i % 2 = 0 then 'launch-week' else null end,
  case i % 6 when 0 then 'www.google.com' when 1 then 'www.tiktok.com' else null end,
  i % 50 <> 0,
  case when i % 50 <> 0 then strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (i * 51) || ' seconds') end,
  1,
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (i * 51) || ' seconds'),
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (i * 51) || ' seconds')
from n;`;
}

function seed(persistDir: string, logFile: string, count: number, offset = 0): Promise<void> {
  return executeSql(persistDir, logFile, seedSql(count, offset));
}

/** Resident memory (MiB) of the workerd processes in the server's process group. */
function workerdRssMiB(server: DevServer): number {
  const pgid = server.process.pid!;
  const out = execFileSync("ps", ["-o", "rss=,comm=", "-g", String(pgid)], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((line) => /workerd/.test(line))
    .reduce((sum, line) => sum + Number(line.trim().split(/\s+/)[0]) / 1024, 0);
}

const auth = { Authorization: `Bearer ${ADMIN_KEY}` };

/** Reads the export as a stream, counting lines, while sampling workerd's memory. */
async function exportOnce(
  server: DevServer,
): Promise<{ rows: number; bytes: number; seconds: number; peakMiB: number; beforeMiB: number; afterMiB: number }> {
  const beforeMiB = workerdRssMiB(server);
  let peakMiB = beforeMiB;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peakMiB = Math.max(peakMiB, workerdRssMiB(server));
      await sleep(50);
    }
  })();
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}/api/admin/waitlist.csv`, { headers: auth });
  if (response.status !== 200 || !response.body) throw new Error(`The export answered ${response.status}.`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body) {
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 0x0a) lines += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  return { rows: lines - 1, bytes, seconds, peakMiB, beforeMiB, afterMiB: workerdRssMiB(server) };
}

function timed(server: DevServer, pathAndQuery: string, times = 10): Promise<Latency> {
  return timeCalls(times, async () => {
    const response = await fetch(`${server.baseUrl}${pathAndQuery}`, { headers: auth });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${pathAndQuery} answered ${response.status}.`);
  });
}

const mib = (n: number) => `${n.toFixed(1)} MiB`;

async function main(): Promise<void> {
  if (!existsSync(path.join(ROOT, "web/dist/index.html"))) await run("npm", ["run", "build"]);
  const small = Math.max(1, Math.floor(ENTRIES / 10));
  let persist = "";
  let log = "";
  console.log(`Seeding ${small.toLocaleString("en")} entries and starting wrangler dev…`);
  const seedStarted = performance.now();
  const server = await startDevServer({
    tempPrefix: "bench-admin-",
    vars: { ENVIRONMENT: "development", AUTH_ADMIN_KEY: ADMIN_KEY },
    // The bench's calls all come from 127.0.0.1: the operator API's binding (OPERATOR_LIMITER) raised.
    raisedRateLimits: 1_000_000,
    beforeStart: async (persistDir, logFile) => {
      persist = persistDir;
      log = logFile;
      await seed(persistDir, logFile, small);
    },
  });
  try {
    console.log(`  seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s (with the server's start)`);
    const first = await exportOnce(server);
    if (first.rows !== small) throw new Error(`The export of ${small} entries gave ${first.rows} rows.`);

    console.log(`Seeding ${(ENTRIES - small).toLocaleString("en")} more entries…`);
    await seed(persist, log, ENTRIES - small, small);
    const full = await exportOnce(server);
    if (full.rows !== ENTRIES) throw new Error(`The export of ${ENTRIES} entries gave ${full.rows} rows.`);
    const stats = await timed(server, "/api/admin/stats");
    const search = await timed(server, "/api/admin/waitlist?q=school7.example&limit=50");
    const firstPage = await timed(server, "/api/admin/waitlist?limit=50");

    console.log("");
    console.log("Operator API on local wrangler dev (workerd + SQLite-backed D1)");
    for (const [label, result, n] of [
      ["CSV export", first, small],
      ["CSV export", full, ENTRIES],
    ] as const) {
      console.log(
        `  ${label} of ${n.toLocaleString("en")} entries: ${result.seconds.toFixed(2)} s, ${(result.bytes / 1024 / 1024).toFixed(1)} MiB ` +
          `(${Math.round(n / result.seconds).toLocaleString("en")} rows/s); workerd memory ${mib(result.beforeMiB)} before, ` +
          `${mib(result.peakMiB)} at peak (+${mib(result.peakMiB - result.beforeMiB)}), ${mib(result.afterMiB)} after`,
      );
    }
    console.log(`  peak growth with 10x the entries: ${mib(first.peakMiB - first.beforeMiB)} -> ${mib(full.peakMiB - full.beforeMiB)}`);
    console.log(
      `  GET /api/admin/stats over ${ENTRIES.toLocaleString("en")} entries: median ${stats.median.toFixed(0)} ms, slowest ${stats.max.toFixed(0)} ms (10 calls)`,
    );
    console.log(
      `  GET /api/admin/waitlist?q=… (search every address): median ${search.median.toFixed(0)} ms, slowest ${search.max.toFixed(0)} ms`,
    );
    console.log(
      `  GET /api/admin/waitlist (first page of 50): median ${firstPage.median.toFixed(0)} ms, slowest ${firstPage.max.toFixed(0)} ms`,
    );
  } finally {
    await server.stop();
  }
}

await main();
