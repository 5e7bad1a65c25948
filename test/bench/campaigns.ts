/**
 * Launch day's benchmark (issue 17): a local database seeded with BENCH_ENTRIES confirmed
 * waitlist entries (default 100,000), `wrangler dev` on 127.0.0.1:8861 with the provider
 * transport pointed at a stand-in provider this script serves on 127.0.0.1:8862, and campaigns
 * created and sent through the operator API with the admin key this script gives the server:
 *
 * 1. Expansion and the local queue: a campaign to every confirmed entry. It prints the time
 *    until every recipient row exists (expansion runs in 5,000-row steps through the queue,
 *    while the first sends already go), then messages per second through the local queue over
 *    BENCH_RATE_SECONDS once expansion is done, and the database's bytes per recipient row.
 *    Sending all 100,000 would take longer than this bench may (it is bounded to 15 minutes), so
 *    that campaign is cancelled after the measurement; the rate is from the part sent.
 * 2. The crash run: an invite wave of BENCH_CRASH_WAVE (default 3,000). Once a third is sent,
 *    the wrangler process group is killed (SIGKILL: no cleanup, claims left mid-send, the local
 *    queue, which lives in memory, lost), started again on the same database, and left to
 *    recover until the campaign is "sent". Recovery (BENCH_RECOVERY):
 *    - "cron" (default): the cron's backstop, the production path. It re-enqueues a campaign
 *      that has not moved for 10 minutes or whose claims' leases lapsed; rather than wait 10
 *      minutes, the script moves that campaign's timestamps back 11 minutes while the server is
 *      down (as if it had stayed down that long), then runs the scheduled handler through
 *      wrangler's /__scheduled every few seconds (the cron runs every 5 minutes in production).
 *    - "resume": the operator's way: wait until the claims' leases lapsed, then Pause and Resume.
 *    Then it counts per address what the stand-in received: every recipient exactly once, none
 *    missed, and the calls received against the distinct Idempotency-Keys (a call repeated
 *    with the same key is the one window the key closes: the provider accepted, the worker died
 *    before writing "sent").
 *
 * Nothing leaves the machine. The figures are local workerd and SQLite-backed D1 on this
 * machine, where the local queue delivers one batch at a time (no concurrency), not Cloudflare.
 * Options (env): BENCH_ENTRIES (100000), BENCH_CRASH_WAVE (3000), BENCH_RATE_SECONDS (60),
 * BENCH_SEND_RATE (CAMPAIGN_SEND_RATE, 10000: high, so the local queue is what is measured),
 * BENCH_PROVIDER_MS (the stand-in's answer delay, 0), BENCH_RECOVERY (cron | resume).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { CampaignJson } from "../../worker/shared/campaigns.ts";
import { HOST, startDevServer, type DevServer } from "../support/dev-server.ts";
import { executeSql, querySql } from "./local-d1.ts";
import { positiveInteger } from "./options.ts";

const ENTRIES = positiveInteger("BENCH_ENTRIES", 100_000);
const CRASH_WAVE = positiveInteger("BENCH_CRASH_WAVE", 3_000);
const RATE_SECONDS = positiveInteger("BENCH_RATE_SECONDS", 60);
const SEND_RATE = positiveInteger("BENCH_SEND_RATE", 10_000);
const PROVIDER_MS = process.env.BENCH_PROVIDER_MS ? positiveInteger("BENCH_PROVIDER_MS", 0) : 0;
const RECOVERY = process.env.BENCH_RECOVERY === "resume" ? "resume" : "cron";
const PORT = 8861;
const PROVIDER_PORT = 8862;
const BASE = `http://${HOST}:${PORT}`;
/** The whole bench's bound: every wait below gives up at this time. */
const DEADLINE = Date.now() + 15 * 60_000;
const MAIL_TIMEOUT_MS = 2_000;
/** A claim's lease (worker/campaigns/settings.ts: the mail timeout + 60 s). */
const LEASE_MS = MAIL_TIMEOUT_MS + 60_000;
const ADMIN_KEY = randomBytes(32).toString("hex");
const auth = { Authorization: `Bearer ${ADMIN_KEY}`, "Content-Type": "application/json" };

/** The bench's own settings (like a .dev.vars of its own), given to wrangler as --var. */
const VARS = {
  ENVIRONMENT: "development",
  SITE_URL: BASE,
  AUTH_JWT_SECRET: randomBytes(32).toString("hex"),
  AUTH_ADMIN_KEY: ADMIN_KEY,
  MAIL_PROVIDER_TOKEN: randomBytes(24).toString("hex"),
  MAIL_API_URL: `http://${HOST}:${PROVIDER_PORT}/v1/run`,
  MAIL_TIMEOUT_MS: String(MAIL_TIMEOUT_MS),
  SENDER_NAME: "Homework Helper Bench Ltd",
  SENDER_POSTAL_ADDRESS: "1 Bench Street, Testville",
  CAMPAIGN_SEND_RATE: String(SEND_RATE),
  OPERATOR_RATE_LIMIT: "1000000",
};

// ---------------------------------------------------------------------------------------------
// The stand-in provider

/**
 * Answers like the provider's run endpoint and honours Idempotency-Key: a key seen before is
 * answered "success" again and delivers nothing. Counts every call, and deliveries per key.
 */
function startStandIn() {
  const calls: { key: string | null; receiver: string }[] = [];
  const delivered = new Map<string, string>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { inputs?: { receivers?: string[] } };
      const key = (request.headers["idempotency-key"] as string | undefined) ?? null;
      for (const receiver of body.inputs?.receivers ?? []) {
        calls.push({ key, receiver });
        if (key === null || !delivered.has(key)) delivered.set(key ?? `no-key-${calls.length}`, receiver);
      }
      if (PROVIDER_MS > 0) await sleep(PROVIDER_MS);
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"send_email_status":"success"}');
    });
  });
  return {
    calls,
    delivered,
    listen: () => new Promise<void>((resolve, reject) => server.once("error", reject).listen(PROVIDER_PORT, HOST, resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---------------------------------------------------------------------------------------------
// The database and the server

/** Confirmed entries 1..count, in line by id (rank_key 2 x id, as the worker writes a key with no referrals). */
function seedSql(count: number): string {
  const time = (seconds: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (${seconds}) || ' seconds')`;
  return `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
insert into hwh_waitlist (id, email, source, email_sent, email_sent_at, notify_attempts, created_at, updated_at,
  confirmed_at, confirm_seq, rank_key, mailbox_key)
select i, 'student-' || i || '@school' || (i % 40) || '.example', 'hero', 1, ${time("(count - i + 1) * 60 + 3600")}, 1,
  ${time("(count - i + 1) * 60 + 3600")}, ${time("(count - i + 1) * 60")}, ${time("(count - i + 1) * 60")}, i, 2 * i, 'seed-' || i
from n, (select ${count} as count);`;
}

/** The local D1 files' size (database and write-ahead log). */
function databaseBytes(persistDir: string): number {
  const walk = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((sum, item) => {
      const file = path.join(dir, item.name);
      if (item.isDirectory()) return sum + walk(file);
      return /\.sqlite(-wal)?$/.test(item.name) ? sum + statSync(file).size : sum;
    }, 0);
  return walk(path.join(persistDir, "v3", "d1"));
}

function start(persistDir: string, seed: boolean): Promise<DevServer> {
  return startDevServer({
    persistDir,
    port: PORT,
    vars: VARS,
    extraArgs: ["--test-scheduled"],
    startupTimeoutMs: 120_000,
    beforeStart: seed ? (dir, logFile) => executeSql(dir, logFile, seedSql(ENTRIES)) : undefined,
  });
}

/** Kills the server's process group at once (no cleanup), as a crash would. */
async function kill(server: DevServer): Promise<void> {
  const pid = server.process.pid!;
  process.kill(-pid, "SIGKILL");
  while (server.process.exitCode === null && server.process.signalCode === null) await sleep(50);
  await server.stop();
}

// ---------------------------------------------------------------------------------------------
// The operator API

async function api<T>(method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${BASE}/api/admin/campaigns${route}`, {
    method,
    headers: auth,
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /api/admin/campaigns${route} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

async function createAndSend(subject: string, audience: unknown): Promise<CampaignJson> {
  const draft = await api<CampaignJson>("POST", "", { subject, body: "The bench's campaign.\n\nhttps://homeworkhelper.app", audience });
  return api<CampaignJson>("POST", `/${draft.id}/send`, {});
}

/** Reads the campaign every `everyMs` until `done` holds; throws at the bench's deadline. */
async function until(id: number, what: string, done: (campaign: CampaignJson) => boolean, everyMs = 500): Promise<CampaignJson> {
  while (Date.now() < DEADLINE) {
    const campaign = await api<CampaignJson>("GET", `/${id}`);
    if (done(campaign)) return campaign;
    await sleep(everyMs);
  }
  throw new Error(`Campaign ${id}: gave up waiting for ${what} (the bench's 15-minute bound).`);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const n = (value: number) => value.toLocaleString("en");

// ---------------------------------------------------------------------------------------------
// The runs

async function main(): Promise<void> {
  const standIn = startStandIn();
  await standIn.listen();
  const persistDir = mkdtempSync(path.join(os.tmpdir(), "bench-campaigns-"));
  let server: DevServer | undefined;
  try {
    console.log(`Seeding ${n(ENTRIES)} confirmed entries, then starting wrangler dev on ${BASE} (stand-in provider on ${PROVIDER_PORT})…`);
    const seeded = performance.now();
    server = await start(persistDir, true);
    console.log(`  seeded and started in ${seconds(performance.now() - seeded)}`);
    const bytesBefore = databaseBytes(persistDir);

    // 1. Everyone: expansion, then the local queue's rate.
    const began = performance.now();
    const all = await createAndSend("Bench: everyone", { kind: "all" });
    const expanded = await until(all.id, "expansion", (c) => c.progress.expansion_done);
    const expandMs = performance.now() - began;
    const sentAtExpansion = expanded.progress.counts.sent;
    const rateStart = performance.now();
    await sleep(RATE_SECONDS * 1000);
    const later = await api<CampaignJson>("GET", `/${all.id}`);
    const rateMs = performance.now() - rateStart;
    const rate = (later.progress.counts.sent - sentAtExpansion) / (rateMs / 1000);
    const bytesPerRow = (databaseBytes(persistDir) - bytesBefore) / later.progress.expanded;
    await api("POST", `/${all.id}/cancel`);
    // A fresh start drops the cancelled campaign's messages still in the local queue.
    await server.stop();
    server = await start(persistDir, false);

    // 2. The crash run.
    const wave = await createAndSend("Bench: the crash wave", { kind: "wave", size: CRASH_WAVE });
    const waveStart = performance.now();
    const third = Math.ceil(CRASH_WAVE / 3);
    const before = await until(wave.id, `${n(third)} sent`, (c) => c.progress.counts.sent >= third, 100);
    const waveRate = before.progress.counts.sent / ((performance.now() - waveStart) / 1000);
    await kill(server);
    const killedAt = Date.now();
    const callsAtKill = standIn.calls.length;
    const [rows] = await querySql<{ sent: number; sending: number; queued: number }>(
      persistDir,
      `select count(*) filter (where status = 'sent') as sent, count(*) filter (where status = 'sending') as sending,
        count(*) filter (where status = 'queued') as queued from hwh_campaign_recipients where campaign_id = ${wave.id}`,
    );
    if (RECOVERY === "cron") {
      const back = (column: string) => `${column} = strftime('%Y-%m-%dT%H:%M:%fZ', ${column}, '-660 seconds')`;
      await executeSql(
        persistDir,
        path.join(persistDir, "wrangler.log"),
        `update hwh_campaigns set ${back("updated_at")} where id = ${wave.id};
         update hwh_campaign_recipients set ${back("updated_at")}, ${back("locked_until")} where campaign_id = ${wave.id};`,
      );
    }
    server = await start(persistDir, false);
    const restartedAt = Date.now();
    if (RECOVERY === "cron") {
      void (async () => {
        while (Date.now() < DEADLINE && server?.process.exitCode === null) {
          await fetch(`${BASE}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`).catch(() => undefined);
          await sleep(5_000);
        }
      })();
    } else {
      await sleep(Math.max(0, killedAt + LEASE_MS + 1_000 - Date.now()));
      await api("POST", `/${wave.id}/pause`);
      await api("POST", `/${wave.id}/resume`);
    }
    const done = await until(wave.id, "the end (sent)", (c) => c.status === "sent", 1_000);
    const recoveredMs = Date.now() - restartedAt;

    // Per address: the wave's recipients as the database says, against what the stand-in got.
    const recipients = await querySql<{ email: string; status: string }>(
      persistDir,
      `select w.email, r.status from hwh_campaign_recipients r join hwh_waitlist w on w.id = r.entry_id where r.campaign_id = ${wave.id}`,
    );
    const prefix = `campaign-${wave.id}-recipient-`;
    const waveCalls = standIn.calls.filter((call) => call.key?.startsWith(prefix));
    const deliveries = new Map<string, number>();
    for (const [key, receiver] of standIn.delivered)
      if (key.startsWith(prefix)) deliveries.set(receiver, (deliveries.get(receiver) ?? 0) + 1);
    const expected = new Set(recipients.map((row) => row.email));
    const once = [...expected].filter((email) => deliveries.get(email) === 1).length;
    const missed = [...expected].filter((email) => !deliveries.has(email)).length;
    const twice = [...deliveries.values()].filter((count) => count > 1).length;
    const strangers = [...deliveries.keys()].filter((email) => !expected.has(email)).length;
    const repeatedCalls = waveCalls.length - new Set(waveCalls.map((call) => call.key)).size;
    const notSent = recipients.filter((row) => row.status !== "sent").length;

    console.log("");
    console.log("Launch day on local wrangler dev (workerd + SQLite-backed D1 + the local queue)");
    console.log(`  list: ${n(ENTRIES)} confirmed entries; CAMPAIGN_SEND_RATE ${n(SEND_RATE)}; stand-in answer delay ${PROVIDER_MS} ms`);
    console.log(
      `  expansion of "everyone": ${n(later.progress.expanded)} recipient rows in ${seconds(expandMs)} (while ${n(sentAtExpansion)} were already sent)`,
    );
    console.log(
      `  the local queue after expansion: ${rate.toFixed(1)} e-mails/s over ${seconds(rateMs)} (claim, suppression check, provider call, mark)`,
    );
    console.log(
      `    at that rate all ${n(ENTRIES)} would take ${seconds((ENTRIES / rate) * 1000)}; the campaign was cancelled after the measurement`,
    );
    console.log(`  database growth: ${bytesPerRow.toFixed(0)} bytes per recipient row (files, with the write-ahead log)`);
    console.log(`  crash run: a wave of ${n(CRASH_WAVE)} (${waveRate.toFixed(1)} e-mails/s before the crash)`);
    console.log(
      `    killed (SIGKILL) with ${n(rows!.sent)} sent, ${n(rows!.sending)} claimed mid-send, ${n(rows!.queued)} queued; ${n(callsAtKill)} provider calls by then in all`,
    );
    console.log(
      `    recovery by ${RECOVERY === "cron" ? "the cron's backstop (timestamps moved back 11 minutes while down; /__scheduled every 5 s)" : "Pause and Resume once the leases lapsed"}: "sent" ${seconds(recoveredMs)} after the restart (status ${done.status})`,
    );
    console.log(
      `    provider calls for the wave: ${n(waveCalls.length)}, distinct Idempotency-Keys: ${n(new Set(waveCalls.map((call) => call.key)).size)} (${n(repeatedCalls)} repeated)`,
    );
    console.log(
      `    per address: ${n(once)} of ${n(expected.size)} delivered exactly once, ${n(missed)} missed, ${n(twice)} twice or more, ${n(strangers)} not in the wave; rows not "sent": ${n(notSent)}`,
    );
    console.log("");
    const pass = once === expected.size && expected.size === CRASH_WAVE && missed === 0 && twice === 0 && strangers === 0 && notSent === 0;
    console.log(`  ${pass ? "PASS" : "FAIL"}  every address of the crash wave exactly once, none missed`);
    if (!pass) process.exitCode = 1;
  } finally {
    await server?.stop();
    await standIn.close();
    rmSync(persistDir, { recursive: true, force: true });
  }
}

await main();
