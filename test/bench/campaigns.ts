/**
 * Launch day's benchmark (issue 17): a local database seeded with BENCH_ENTRIES confirmed
 * waitlist entries (default 100,000), `wrangler dev` on 127.0.0.1:8861 with the provider
 * transport pointed at a stand-in provider this script serves on 127.0.0.1:8862, and campaigns
 * created and sent through the operator API with the admin key this script gives the server:
 *
 * 1. Expansion: a campaign to every confirmed entry, created through the API, expanded into all
 *    100,000 recipient rows by the worker's own expansion step (repo.campaignDelivery.expandChunk,
 *    EXPAND_CHUNK rows a step, run here in Node through libSQL on a copy of the server's local D1
 *    file). Through the queue each step waits behind the sends of the chunk before it (by design:
 *    expansion keeps just ahead of sending), so there the list is complete only after about
 *    95,000 sends, longer than this bench may take; the steps' own time is what is measured. The
 *    same for an invite wave of all 100,000 (its step numbers places and marks entries invited).
 *    It prints every step's time, the totals, and the bytes per recipient row (table and indexes).
 * 2. The local queue: the same campaign sent through the API; e-mails per second over
 *    BENCH_RATE_SECONDS (sending all 100,000 would take longer than the bench's 15 minutes, so
 *    the rate is measured on the part sent in that time, then the campaign is cancelled).
 * 3. The crash run: an invite wave of BENCH_CRASH_WAVE (default 3,000). Once a third is sent,
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
 * BENCH_PROVIDER_MS (the stand-in's answer delay, 100), BENCH_RECOVERY (cron | resume),
 * BENCH_LOG (a file to keep wrangler's output in: the worker's JSON log lines say why a send was retried).
 */
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { register } from "node:module";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { CampaignJson } from "../../worker/shared/campaigns.ts";
import { HOST, ROOT, startDevServer, type DevServer } from "../support/dev-server.ts";
import { executeSql, querySql } from "./local-d1.ts";
import { positiveInteger } from "./options.ts";

const ENTRIES = positiveInteger("BENCH_ENTRIES", 100_000);
const CRASH_WAVE = positiveInteger("BENCH_CRASH_WAVE", 3_000);
const RATE_SECONDS = positiveInteger("BENCH_RATE_SECONDS", 60);
const SEND_RATE = positiveInteger("BENCH_SEND_RATE", 10_000);
/** The stand-in's answer time: a real provider takes a while, and a crash then finds sends in flight. */
const PROVIDER_MS = process.env.BENCH_PROVIDER_MS === "0" ? 0 : positiveInteger("BENCH_PROVIDER_MS", 100);
const RECOVERY = process.env.BENCH_RECOVERY === "resume" ? "resume" : "cron";
const PORT = 8861;
const PROVIDER_PORT = 8862;
const BASE = `http://${HOST}:${PORT}`;
/** The whole bench's bound: every wait below gives up at this time. */
const DEADLINE = Date.now() + 15 * 60_000;
const MAIL_TIMEOUT_MS = 2_000;
/** A claim's lease (worker/platform/config/campaigns.ts: the mail timeout + 60 s). */
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
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

/** The local D1 database file the server wrote (wrangler's --persist-to layout). */
function databaseFile(persistDir: string): string {
  const dir = path.join(persistDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
  if (!file) throw new Error(`No D1 database file in ${dir}.`);
  return path.join(dir, file);
}

type Expansion = { steps: number[]; rows: number };

/**
 * The worker's expansion step on every recipient of each campaign of `ids`, one after the other,
 * in Node: a copy of the stopped server's database opened with libSQL, the campaign set sending,
 * and repo.campaignDelivery.expandChunk run until it says done, each step timed. The worker's
 * modules import each other without extensions (its bundler resolves them); a resolve hook
 * adds ".ts" so Node's type stripping can load them.
 */
async function expandInNode(persistDir: string, ids: number[]): Promise<{ expansions: Expansion[]; bytesPerRow: number | null }> {
  register(
    "data:text/javascript,export async function resolve(s,c,n){try{return await n(s,c)}catch(e){if(/^\\.\\.?\\//.test(s)&&!/\\.[cm]?[jt]s$/.test(s))return n(s+'.ts',c);throw e}}",
  );
  const { createCampaignDeliveryRepository } = await import(path.join(ROOT, "worker/features/campaigns/queries/delivery.ts"));
  const { EXPAND_CHUNK } = await import(path.join(ROOT, "worker/features/campaigns/messages.ts"));
  const { createClient } = await import("@libsql/client");
  const { drizzle } = await import("drizzle-orm/libsql");
  const source = databaseFile(persistDir);
  const copy = path.join(persistDir, "expansion-copy.sqlite");
  for (const suffix of ["", "-wal", "-shm"]) if (existsSync(source + suffix)) copyFileSync(source + suffix, copy + suffix);
  const client = createClient({ url: `file:${copy}` });
  try {
    const repo = createCampaignDeliveryRepository(drizzle(client));
    const expansions: Expansion[] = [];
    for (const id of ids) {
      await client.execute(`update hwh_campaigns set status = 'sending', started_at = updated_at where id = ${id}`);
      const steps: number[] = [];
      for (;;) {
        const campaign = await repo.campaign(id);
        if (!campaign || campaign.expandedAt !== null) break;
        const started = performance.now();
        await repo.expandChunk(campaign, EXPAND_CHUNK, new Date());
        steps.push(performance.now() - started);
        if (Date.now() > DEADLINE) throw new Error("Expansion did not finish within the bench's 15-minute bound.");
      }
      const counted = await client.execute(`select count(*) as n from hwh_campaign_recipients where campaign_id = ${id}`);
      expansions.push({ steps, rows: Number(counted.rows[0]!.n) });
    }
    let bytesPerRow: number | null = null;
    try {
      const pages = await client.execute(
        "select sum(pgsize) as bytes from dbstat where name in ('hwh_campaign_recipients', 'hwh_campaign_recipients_pair_idx', 'hwh_campaign_recipients_status_idx')",
      );
      bytesPerRow = Number(pages.rows[0]!.bytes) / expansions.reduce((sum, expansion) => sum + expansion.rows, 0);
    } catch {
      // This SQLite build has no dbstat table: the figure is left out rather than guessed.
    }
    return { expansions, bytesPerRow };
  } finally {
    client.close();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(copy + suffix, { force: true });
  }
}

function start(persistDir: string, seed: boolean): Promise<DevServer> {
  return startDevServer({
    persistDir,
    port: PORT,
    vars: VARS,
    // The bench's calls all come from 127.0.0.1: the operator API's binding (OPERATOR_LIMITER) raised.
    raisedRateLimits: 1_000_000,
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

    // 1. Everyone: the draft through the API, its expansion by the worker's own step in Node.
    const all = await api<CampaignJson>("POST", "", {
      subject: "Bench: everyone",
      body: "The bench's campaign.\n\nhttps://homeworkhelper.app",
      audience: { kind: "all" },
    });
    // And an invite wave of everyone (places numbered, entries marked invited), expanded in Node only.
    const waveOfAll = await api<CampaignJson>("POST", "", {
      subject: "Bench: a wave of everyone",
      body: "The bench's campaign.",
      audience: { kind: "wave", size: ENTRIES },
    });
    await server.stop();
    const { expansions, bytesPerRow } = await expandInNode(persistDir, [all.id, waveOfAll.id]);
    server = await start(persistDir, false);

    // 2. The local queue: the same campaign sent; the rate once the first e-mails went out.
    await api<CampaignJson>("POST", `/${all.id}/send`, {});
    const first = await until(all.id, "the first sends", (c) => c.progress.counts.sent >= 50);
    const rateStart = performance.now();
    await sleep(RATE_SECONDS * 1000);
    const later = await api<CampaignJson>("GET", `/${all.id}`);
    const rateMs = performance.now() - rateStart;
    const rate = (later.progress.counts.sent - first.progress.counts.sent) / (rateMs / 1000);
    await api("POST", `/${all.id}/cancel`);
    // A fresh start drops the cancelled campaign's messages still in the local queue.
    await server.stop();
    server = await start(persistDir, false);

    // 3. The crash run.
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
    let recovering = true;
    let cronRuns = 0;
    if (RECOVERY === "cron") {
      void (async () => {
        while (recovering && Date.now() < DEADLINE) {
          const ran = await fetch(`${BASE}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`).catch(() => null);
          if (ran?.ok) cronRuns += 1;
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
    recovering = false;

    // Per address: the wave's recipients as the database says, against what the stand-in got.
    const recipients = await querySql<{ email: string; status: string; attempts: number }>(
      persistDir,
      `select w.email, r.status, r.attempts from hwh_campaign_recipients r join hwh_waitlist w on w.id = r.entry_id where r.campaign_id = ${wave.id}`,
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
    // Claimed more than once: the crash's claims, and any send retried after an error or a timeout.
    const claimedAgain = recipients.filter((row) => row.attempts > 1).length;

    console.log("");
    console.log("Launch day on local wrangler dev (workerd + SQLite-backed D1 + the local queue)");
    console.log(`  list: ${n(ENTRIES)} confirmed entries; CAMPAIGN_SEND_RATE ${n(SEND_RATE)}; stand-in answer delay ${PROVIDER_MS} ms`);
    console.log(
      "  expansion (the worker's step, repo.campaignDelivery.expandChunk, in Node through libSQL on a copy of the local D1 file):",
    );
    for (const [name, expansion] of [
      ['"everyone"', expansions[0]!],
      ["an invite wave of everyone", expansions[1]!],
    ] as const) {
      const total = expansion.steps.reduce((sum, ms) => sum + ms, 0);
      const median = [...expansion.steps].sort((a, b) => a - b)[Math.floor(expansion.steps.length / 2)]!;
      console.log(
        `    ${name}: ${n(expansion.rows)} recipient rows in ${expansion.steps.length} steps, ${seconds(total)} in all (median step ${median.toFixed(0)} ms, slowest ${Math.max(...expansion.steps).toFixed(0)} ms)`,
      );
      console.log(`      steps (ms): ${expansion.steps.map((ms) => ms.toFixed(0)).join(", ")}`);
    }
    console.log(
      `    recipient rows with their two indexes: ${bytesPerRow === null ? "not measured (no dbstat)" : `${bytesPerRow.toFixed(0)} bytes a row`}`,
    );
    console.log(
      `  the local queue: ${rate.toFixed(1)} e-mails/s over ${seconds(rateMs)}, the same campaign sent (${n(later.progress.counts.sent)} sent by then; claim, suppression check, provider call, mark)`,
    );
    console.log(
      `    at that rate all ${n(ENTRIES)} would take ${seconds((ENTRIES / rate) * 1000)}; the campaign was cancelled after the measurement`,
    );
    console.log(`  crash run: a wave of ${n(CRASH_WAVE)} (${waveRate.toFixed(1)} e-mails/s before the crash)`);
    console.log(
      `    killed (SIGKILL) with ${n(rows!.sent)} sent, ${n(rows!.sending)} claimed mid-send, ${n(rows!.queued)} queued; ${n(callsAtKill)} provider calls by then in all`,
    );
    console.log(
      `    recovery by ${RECOVERY === "cron" ? `the cron's backstop (timestamps moved back 11 minutes while down; /__scheduled every 5 s, ${cronRuns} runs)` : "Pause and Resume once the leases lapsed"}: "sent" ${seconds(recoveredMs)} after the restart (status ${done.status})`,
    );
    console.log(
      `    provider calls for the wave: ${n(waveCalls.length)}, distinct Idempotency-Keys: ${n(new Set(waveCalls.map((call) => call.key)).size)} (${n(repeatedCalls)} repeated)`,
    );
    console.log(`    rows claimed more than once (the crash's claims, retries after an error or a timeout): ${n(claimedAgain)}`);
    console.log(
      `    per address: ${n(once)} of ${n(expected.size)} delivered exactly once, ${n(missed)} missed, ${n(twice)} twice or more, ${n(strangers)} not in the wave; rows not "sent": ${n(notSent)}`,
    );
    console.log("");
    // wrangler dev reloads the worker when a file under it changes (a build, an edit), and a
    // reload drops the local queue: the rates of such a run mean nothing.
    const reloads = readFileSync(path.join(persistDir, "wrangler.log"), "utf8").split("Reloading local server").length - 1;
    if (reloads > 0) {
      console.log(
        `  FAIL  wrangler reloaded ${reloads} time(s) during the run (files changed under it), dropping the local queue: run again on a quiet tree`,
      );
      process.exitCode = 1;
    }
    const pass = once === expected.size && expected.size === CRASH_WAVE && missed === 0 && twice === 0 && strangers === 0 && notSent === 0;
    console.log(`  ${pass ? "PASS" : "FAIL"}  every address of the crash wave exactly once, none missed`);
    if (!pass) process.exitCode = 1;
  } finally {
    await server?.stop();
    await standIn.close();
    if (process.env.BENCH_LOG) copyFileSync(path.join(persistDir, "wrangler.log"), process.env.BENCH_LOG);
    rmSync(persistDir, { recursive: true, force: true });
  }
}

await main();
