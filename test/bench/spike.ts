/**
 * The spike benchmark (issue 24): a viral moment on a fresh local database. 5,000 joins from
 * 5,000 client addresses in about 10 s at 100 connections, with confirmations (double opt-in) and
 * the team's notifications on, e-mail through the provider transport to a stand-in provider on
 * 127.0.0.1 that honours the idempotency key and counts every e-mail. Two runs, each on a fresh
 * database and a fresh `wrangler dev`:
 *
 *   1. "steady": the joins on a database that stays up (local D1 by default; SPIKE_DB=libsql for
 *      the libSQL stand-in, which also counts the database calls);
 *   2. "outage": the same on the libSQL stand-in (test/support/libsql-stand-in.ts, the worker's
 *      LIBSQL_URL), made unavailable for SPIKE_OUTAGE_S seconds (20) from the middle of the
 *      burst: every pipeline answers HTTP 503 (SPIKE_OUTAGE_MODE=drop closes the connections
 *      instead).
 *
 * Each run prints every status (all must be 201: no 5xx, no other answer), whether every address
 * is stored exactly once (read from the database at the end, not through the worker), whether
 * every confirmation and every notification was delivered exactly once (the stand-in provider
 * dedupes by Idempotency-Key, as the real one must, and counts the attempts it deduped apart),
 * the time until the last e-mail, p50/p99 of the answers, and for the outage the time to drain:
 * from the database's return until every join is stored and every e-mail delivered.
 *
 * Notifications: NOTIFY_HOURLY_CAP is raised (SPIKE_NOTIFY_CAP, default 1,000,000) so each join's
 * notification is a single e-mail. With a lower cap the team gets digests; a digest that names
 * a joiner counts as that joiner's notification (each address must be named exactly once across
 * the single e-mails and the digests), so SPIKE_NOTIFY_CAP=60 measures the production default.
 * VISITOR_EMAIL_DAILY_BUDGET is raised too: the default (5,000 a day) would be used up by the
 * burst itself.
 *
 * When nothing moves for SPIKE_CRON_IDLE_S seconds (15) while e-mails or joins are still missing,
 * the bench runs the scheduled handler once (wrangler's /__scheduled, the production cron every
 * 5 minutes, which re-queues anything unsent) and says how often it had to. The run fails (exit
 * code 1) when a check fails; it gives up waiting after SPIKE_DRAIN_TIMEOUT_S (240) seconds.
 *
 * Options (env): SPIKE_JOINS (5000), SPIKE_SECONDS (10: the burst's length, hence its rate),
 * BENCH_CONNECTIONS (100), SPIKE_RUNS (steady,outage), SPIKE_DB (d1 | libsql, the steady run's
 * database), SPIKE_OUTAGE_S (20), SPIKE_OUTAGE_MODE (503 | drop), SPIKE_NOTIFY_CAP, SPIKE_CRON_IDLE_S,
 * SPIKE_DRAIN_TIMEOUT_S. The figures are for wrangler dev on this machine: note the load average
 * printed with them.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ADULT_ANSWER } from "../support/age.ts";
import { HOST, ROOT, killGroupNow, run, startDevServer, stopGroup, type DevServer } from "../support/dev-server.ts";
import { startLibsqlStandIn, type LibsqlStandIn, type OutageMode, type StandInCounts } from "../support/libsql-stand-in.ts";
import { positiveInteger } from "./options.ts";

// ---------------------------------------------------------------------------------------------
// autocannon (no bundled types): the part used here.

type AutocannonRequest = {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
  onResponse?: (status: number, body: string) => void;
};
type AutocannonOptions = {
  url: string;
  connections: number;
  amount: number;
  overallRate?: number;
  timeout?: number;
  requests: AutocannonRequest[];
};
type AutocannonResult = {
  requests: { average: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  duration: number;
  statusCodeStats: Record<string, { count: number }>;
};
const require = createRequire(import.meta.url);
const autocannon = require("autocannon") as (options: AutocannonOptions) => PromiseLike<AutocannonResult>;

// ---------------------------------------------------------------------------------------------
// Settings

const JOINS = positiveInteger("SPIKE_JOINS", 5000);
const BURST_S = positiveInteger("SPIKE_SECONDS", 10);
const CONNECTIONS = positiveInteger("BENCH_CONNECTIONS", 100);
const OUTAGE_S = positiveInteger("SPIKE_OUTAGE_S", 20);
const NOTIFY_CAP = positiveInteger("SPIKE_NOTIFY_CAP", 1_000_000);
const CRON_IDLE_S = positiveInteger("SPIKE_CRON_IDLE_S", 15);
const DRAIN_TIMEOUT_S = positiveInteger("SPIKE_DRAIN_TIMEOUT_S", 240);
const RUNS = choice("SPIKE_RUNS", ["steady,outage", "steady", "outage"] as const);
const STEADY_DB = choice("SPIKE_DB", ["d1", "libsql"] as const);
const OUTAGE_MODE: OutageMode = choice("SPIKE_OUTAGE_MODE", ["503", "drop"] as const);
const COMPANY_EMAIL = "team@homeworkhelper.app";
const ADMIN_KEY = randomBytes(32).toString("hex");
/** The provider token (production refuses a weak one; health would answer 503). */
const PROVIDER_TOKEN = randomBytes(24).toString("hex");
const LOAD_AT_START = os.loadavg()[0] ?? 0;

function choice<const T extends readonly string[]>(name: string, allowed: T): T[number] {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === "") return allowed[0]!;
  if (!allowed.includes(raw)) throw new Error(`${name} must be one of ${allowed.join(" | ")}, got "${raw}".`);
  return raw;
}

// ---------------------------------------------------------------------------------------------
// The stand-in provider: honours Idempotency-Key (one delivery per key, repeats counted apart)
// and keeps a log of what it delivered. Its own process, off the load generator's event loop.

const STAND_IN_PROVIDER = `
const http = require("node:http");
const delivered = [];
const keys = new Set();
let attempts = 0, repeats = 0, unkeyed = 0, last = 0, toVisitors = 0, named = 0;
const server = http.createServer((request, response) => {
  const chunks = [];
  request.on("data", (c) => chunks.push(c));
  request.on("end", () => {
    if (request.method === "GET" && request.url === "/count") {
      response.writeHead(200, { "content-type": "application/json" });
      return response.end(JSON.stringify({ attempts, delivered: delivered.length, repeats, unkeyed, last, toVisitors, named }));
    }
    if (request.method === "GET" && request.url === "/log") {
      response.writeHead(200, { "content-type": "application/json" });
      return response.end(JSON.stringify(delivered));
    }
    if (request.headers.authorization !== "Bearer " + process.argv[2]) {
      response.writeHead(401, { "content-type": "application/json" });
      return response.end('{"error":"unauthorized"}');
    }
    attempts += 1;
    const key = request.headers["idempotency-key"];
    if (key && keys.has(key)) {
      repeats += 1;
    } else {
      if (key) keys.add(key); else unkeyed += 1;
      let inputs = {};
      try { inputs = JSON.parse(Buffer.concat(chunks).toString("utf8")).inputs || {}; } catch {}
      last = Date.now();
      const receivers = inputs.receivers || [];
      if (receivers.includes(process.argv[3])) named += new Set(String(inputs.body_html || "").match(/[a-z0-9.-]+@bench\\.test/g) || []).size;
      else toVisitors += 1;
      delivered.push({ at: last, key: key || null, receivers: inputs.receivers || [], title: inputs.title || "", html: inputs.body_html || "", text: inputs.body_text === undefined ? null : "" });
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end('{"send_email_status":"success"}');
  });
});
server.listen(0, process.argv[1], () => console.log(server.address().port));
`;

type Delivery = { at: number; key: string | null; receivers: string[]; title: string; html: string; text: string | null };
/** `toVisitors`: e-mails to anyone but the team; `named`: bench addresses named in the team's e-mails (singles and digests). */
type ProviderCount = {
  attempts: number;
  delivered: number;
  repeats: number;
  unkeyed: number;
  last: number;
  toVisitors: number;
  named: number;
};
type StandInProvider = { url: string; process: ChildProcess; count: () => Promise<ProviderCount>; log: () => Promise<Delivery[]> };

async function startStandInProvider(): Promise<StandInProvider> {
  const child = spawn(process.execPath, ["-e", STAND_IN_PROVIDER, HOST, PROVIDER_TOKEN, COMPANY_EMAIL], {
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once("exit", () => reject(new Error("the stand-in provider exited during startup")));
  });
  const base = `http://${HOST}:${port}`;
  return {
    url: `${base}/v1/run`,
    process: child,
    count: async () => (await (await fetch(`${base}/count`)).json()) as ProviderCount,
    log: async () => (await (await fetch(`${base}/log`)).json()) as Delivery[],
  };
}

// ---------------------------------------------------------------------------------------------
// One run

type RunKind = "steady" | "outage";
type Database = { driver: "d1"; persistDir: string } | { driver: "libsql"; standIn: LibsqlStandIn };

type RunReport = { ok: boolean; lines: string[] };

let clientCounter = 0;
/** A client address of its own for every join (10.0.0.0/8, passed on by wrangler dev as CF-Connecting-IP). */
function nextClientIp(): string {
  clientCounter += 1;
  return `10.${(clientCounter >> 16) & 255}.${(clientCounter >> 8) & 255}.${clientCounter & 255}`;
}

async function startServer(database: Database, providerUrl: string): Promise<DevServer> {
  const vars: Record<string, string> = {
    ENVIRONMENT: "production",
    MAIL_PROVIDER_TOKEN: PROVIDER_TOKEN,
    SENDER_NAME: "Homework Helper",
    SENDER_POSTAL_ADDRESS: "1 Bench Street, Springfield",
    MAIL_API_URL: providerUrl,
    COMPANY_EMAIL,
    AUTH_JWT_SECRET: randomBytes(32).toString("hex"),
    AUTH_ADMIN_KEY: ADMIN_KEY,
    SITE_URL: "https://homeworkhelper.app",
    WAITLIST_DOUBLE_OPT_IN: "true",
    NOTIFY_HOURLY_CAP: String(NOTIFY_CAP),
    VISITOR_EMAIL_DAILY_BUDGET: "1000000",
  };
  if (database.driver === "libsql") vars.LIBSQL_URL = database.standIn.url;
  return startDevServer({
    vars,
    tempPrefix: "bench-spike-",
    persistDir: database.driver === "d1" ? database.persistDir : undefined,
    extraArgs: ["--test-scheduled"],
    startupTimeoutMs: 120_000,
  });
}

async function health(server: DevServer): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.baseUrl}/api/health`, {
    headers: { Authorization: `Bearer ${ADMIN_KEY}` },
    signal: AbortSignal.timeout(10_000),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** The bench addresses stored in the waitlist, read from the database itself. */
async function storedAddresses(database: Database, prefix: string): Promise<string[]> {
  const sql = "SELECT email FROM hwh_waitlist WHERE email LIKE ? ORDER BY email";
  if (database.driver === "libsql") {
    return (await database.standIn.query<{ email: string }>(sql, [`${prefix}%`])).map((row) => row.email);
  }
  const { DatabaseSync } = await import("node:sqlite");
  const dir = path.join(database.persistDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
  if (!file) throw new Error(`no D1 database file in ${dir}`);
  const db = new DatabaseSync(path.join(dir, file), { readOnly: true });
  try {
    return (db.prepare(sql).all(`${prefix}%`) as { email: string }[]).map((row) => row.email);
  } finally {
    db.close();
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * One run, with a stand-in provider of its own: the idempotency keys name rows of the run's own
 * database, so a second fresh database repeats the first one's keys.
 */
async function spikeRun(kind: RunKind): Promise<RunReport> {
  const provider = await startStandInProvider();
  const killProvider = () => killGroupNow(provider.process);
  process.once("exit", killProvider);
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    console.log(line);
  };
  const driver = kind === "outage" ? "libsql" : STEADY_DB;
  let database: Database;
  let d1Dir: string | undefined;
  if (driver === "libsql") database = { driver, standIn: await startLibsqlStandIn() };
  else {
    d1Dir = mkdtempSync(path.join(os.tmpdir(), "bench-spike-d1-"));
    database = { driver, persistDir: d1Dir };
  }
  let server: DevServer | undefined;
  const prefix = `spike-${kind}-${Date.now().toString(36)}-`;
  const addresses: string[] = [];
  let ok = true;
  const check = (passed: boolean, text: string) => {
    if (!passed) ok = false;
    say(`  ${passed ? "PASS" : "FAIL"}  ${text}`);
  };
  try {
    server = await startServer(database, provider.url);
    const h = await health(server);
    const seen = h.database as { driver?: string } | undefined;
    if (seen?.driver !== driver) throw new Error(`expected the ${driver} database, health says ${JSON.stringify(h.database)}`);
    // Warm the worker (first request compiles it) with one join outside the counts.
    const warm = await fetch(`${server.baseUrl}/api/waitlist`, {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": "192.0.2.1" },
      body: JSON.stringify({ ...ADULT_ANSWER, email: `warm-up-${Date.now().toString(36)}@bench.test`, source: "bench" }),
    });
    if (warm.status !== 201) throw new Error(`the warm-up join answered ${warm.status}: ${(await warm.text()).slice(0, 300)}`);
    await sleep(2_000);
    const standIn = database.driver === "libsql" ? database.standIn : undefined;
    const startCounts = await standIn?.counts();
    const providerAtStart = await provider.count();

    say(
      `\n== ${kind === "steady" ? "Steady" : `Outage (${OUTAGE_S} s, ${OUTAGE_MODE === "503" ? "HTTP 503" : "dropped connections"}, from the burst's middle)`}: ${JOINS} joins in ~${BURST_S} s at ${CONNECTIONS} connections, database ${driver === "d1" ? "local D1" : "the libSQL stand-in"}`,
    );
    let firstUnexpected: string | undefined;
    let outageStart = 0;
    let outageEnd = 0;
    const started = Date.now();
    if (kind === "outage" && standIn) {
      setTimeout(
        () => {
          outageStart = Date.now();
          outageEnd = outageStart + OUTAGE_S * 1000;
          void standIn.outage(OUTAGE_S, OUTAGE_MODE);
        },
        (BURST_S * 1000) / 2,
      );
    }
    const result = await autocannon({
      url: server.baseUrl,
      connections: CONNECTIONS,
      amount: JOINS,
      overallRate: Math.ceil(JOINS / BURST_S),
      timeout: 30,
      requests: [
        {
          method: "POST",
          path: "/api/waitlist",
          setupRequest: (request) => {
            const email = `${prefix}${addresses.length + 1}@bench.test`;
            addresses.push(email);
            return {
              ...request,
              headers: { "content-type": "application/json", "cf-connecting-ip": nextClientIp() },
              body: JSON.stringify({ ...ADULT_ANSWER, email, source: "bench" }),
            };
          },
          onResponse: (status, body) => {
            if (status !== 201) firstUnexpected ??= `HTTP ${status}: ${body.slice(0, 300)}`;
          },
        },
      ],
    });
    const burstMs = Date.now() - started;
    const requestCounts = standIn ? await standIn.counts() : undefined;
    const statuses = Object.entries(result.statusCodeStats)
      .map(([code, stat]) => `${code}: ${stat.count}`)
      .join(", ");
    const answered201 = result.statusCodeStats["201"]?.count ?? 0;
    const fiveHundreds = Object.entries(result.statusCodeStats)
      .filter(([code]) => code.startsWith("5"))
      .reduce((sum, [, stat]) => sum + stat.count, 0);
    say(
      `  burst: ${seconds(burstMs)} (${(answered201 / (burstMs / 1000)).toFixed(0)} joins/s answered), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, slowest ${result.latency.max} ms`,
    );
    say(`  statuses {${statuses}}; ${result.errors} errors (${result.timeouts} timeouts)`);
    if (firstUnexpected) say(`  first answer other than 201: ${firstUnexpected}`);
    check(answered201 === JOINS && result.errors === 0, `every join answered 201 (${answered201} of ${JOINS}; ${fiveHundreds} 5xx)`);

    // Drain: until every address is stored and every e-mail delivered.
    let cronRuns = 0;
    let lastProgressAt = Date.now();
    let lastProgress = "";
    let stored: string[] = [];
    let mail = await provider.count();
    const deadline = Date.now() + DRAIN_TIMEOUT_S * 1000;
    while (Date.now() < deadline) {
      if (kind === "outage" && Date.now() < outageEnd) {
        await sleep(1_000);
        continue;
      }
      stored = database.driver === "libsql" ? await storedAddresses(database, prefix) : [];
      mail = await provider.count();
      const deliveredNow = mail.delivered - providerAtStart.delivered;
      // Every joiner's e-mail, and every joiner named in the team's (a digest names many).
      const mailDone = mail.toVisitors - providerAtStart.toVisitors >= JOINS && mail.named - providerAtStart.named >= JOINS;
      const done = mailDone && (database.driver === "d1" || stored.length >= JOINS);
      if (done) break;
      const progress = `${stored.length}/${deliveredNow}`;
      if (progress !== lastProgress) {
        lastProgress = progress;
        lastProgressAt = Date.now();
      } else if (Date.now() - lastProgressAt > CRON_IDLE_S * 1000) {
        cronRuns += 1;
        await fetch(`${server.baseUrl}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`).catch(() => null);
        lastProgressAt = Date.now();
      }
      await sleep(500);
    }
    // A moment for anything late (a repeat, a second delivery) to show in the counts.
    await sleep(3_000);
    const endCounts = standIn ? await standIn.counts() : undefined;
    const finalHealth = await health(server).catch((error: unknown) => ({ error: String(error) }));
    await server.stop();
    server = undefined;
    stored = await storedAddresses(database, prefix);
    mail = await provider.count();

    // Stored exactly once.
    const sent = new Set(addresses);
    const storedSet = new Set(stored);
    const missing = addresses.filter((address) => !storedSet.has(address));
    check(
      stored.length === storedSet.size && missing.length === 0 && stored.every((address) => sent.has(address)),
      `every address stored exactly once (${storedSet.size} stored of ${sent.size} sent, ${stored.length - storedSet.size} twice, ${missing.length} missing)`,
    );

    // Every e-mail exactly once.
    const deliveries = (await provider.log()).filter(
      (delivery) => delivery.html.includes(prefix) || delivery.receivers.some((receiver) => receiver.startsWith(prefix)),
    );
    const confirmations = new Map<string, number>();
    const notifications = new Map<string, number>();
    let singles = 0;
    let digests = 0;
    const mentioned = new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}\\d+@bench\\.test`, "g");
    for (const delivery of deliveries) {
      if (delivery.receivers.includes(COMPANY_EMAIL)) {
        const names = new Set(delivery.html.match(mentioned) ?? []);
        if (names.size > 1 || delivery.title.startsWith("Digest")) digests += 1;
        else singles += 1;
        for (const name of names) notifications.set(name, (notifications.get(name) ?? 0) + 1);
      } else {
        for (const receiver of delivery.receivers)
          if (sent.has(receiver)) confirmations.set(receiver, (confirmations.get(receiver) ?? 0) + 1);
      }
    }
    const once = (counts: Map<string, number>) => addresses.filter((address) => counts.get(address) === 1).length;
    const twice = (counts: Map<string, number>) => [...counts.values()].filter((n) => n > 1).length;
    check(
      once(confirmations) === JOINS,
      `every confirmation delivered exactly once (${once(confirmations)} of ${JOINS}; ${twice(confirmations)} twice, ${JOINS - confirmations.size} never)`,
    );
    check(
      once(notifications) === JOINS,
      `every notification delivered exactly once (${once(notifications)} of ${JOINS}; ${twice(notifications)} twice, ${JOINS - notifications.size} never; ${singles} single e-mails, ${digests} digest(s))`,
    );
    const repeats = mail.repeats - providerAtStart.repeats;
    say(
      `  provider: ${mail.attempts - providerAtStart.attempts} send attempts, ${repeats} repeated an Idempotency-Key (deduped), ${mail.unkeyed - providerAtStart.unkeyed} without a key`,
    );
    const lastMail = Math.max(0, ...deliveries.map((delivery) => delivery.at));
    const complete = stored.length === JOINS && once(confirmations) === JOINS && once(notifications) === JOINS;
    if (lastMail > 0) {
      const afterLastAnswer = lastMail - started - burstMs;
      say(
        `  the last e-mail ${seconds(lastMail - started)} after the burst began (${afterLastAnswer >= 0 ? `${seconds(afterLastAnswer)} after` : `${seconds(-afterLastAnswer)} before`} its last answer)${complete ? "" : ", but some never arrived"}`,
      );
    }
    if (kind === "outage" && outageEnd > 0) {
      say(
        `  outage ${seconds(outageStart - started)} to ${seconds(outageEnd - started)} into the burst; ${complete ? `drained ${seconds(Math.max(0, lastMail - outageEnd))} after the database returned (every join stored, every e-mail delivered)` : `not drained within ${DRAIN_TIMEOUT_S} s`}`,
      );
    }
    if (cronRuns > 0)
      say(`  the scheduled handler (production: every 5 min) was run ${cronRuns} time(s) after ${CRON_IDLE_S} s without progress`);
    else say("  no scheduled handler run was needed (the queues alone delivered everything)");
    if (startCounts && requestCounts && endCounts) {
      const burst = diff(requestCounts, startCounts);
      const all = diff(endCounts, startCounts);
      say(
        `  database calls (stand-in): ${burst.calls} during the burst (${(burst.calls / JOINS).toFixed(2)} per join: ${burst.write} write, ${burst.read} read), ${all.calls} until drained (${(all.calls / JOINS).toFixed(2)} per join), ${all.refused} refused during the outage`,
      );
    }
    const waiting = Object.fromEntries(Object.entries(finalHealth).filter(([key]) => /join|wait|queue|mail/i.test(key)));
    if (Object.keys(waiting).length > 0) say(`  health at the end: ${JSON.stringify(waiting)}`);
  } finally {
    await server?.stop();
    if (database.driver === "libsql") await database.standIn.stop();
    if (d1Dir) rmSync(d1Dir, { recursive: true, force: true });
    await stopGroup(provider.process);
    process.off("exit", killProvider);
  }
  return { ok, lines };
}

function diff(a: StandInCounts, b: StandInCounts): StandInCounts {
  return {
    calls: a.calls - b.calls,
    read: a.read - b.read,
    write: a.write - b.write,
    statements: a.statements - b.statements,
    closeOnly: a.closeOnly - b.closeOnly,
    refused: a.refused - b.refused,
  };
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  if (!existsSync(path.join(ROOT, "web/dist"))) {
    console.log("web/dist is missing: building the site...");
    await run("npm", ["run", "build"]);
  }
  const cpus = os.cpus();
  console.log(`Date:    ${new Date().toISOString()}`);
  console.log(
    `Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown CPU"}), Node ${process.version}; load average ${LOAD_AT_START.toFixed(2)} at the start`,
  );
  console.log(
    `Run:     ${JOINS} joins, each from its own client address, ~${BURST_S} s at ${CONNECTIONS} connections; double opt-in on; NOTIFY_HOURLY_CAP ${NOTIFY_CAP}; e-mail via the provider transport to a local stand-in`,
  );
  // What a run started (wrangler, the stand-ins) is killed on the way out by its own exit hooks.
  const onSignal = () => process.exit(130);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const reports: RunReport[] = [];
  for (const kind of RUNS.split(",") as RunKind[]) reports.push(await spikeRun(kind));
  const ok = reports.every((report) => report.ok);
  console.log(ok ? "\nAll checks passed." : "\nSome checks FAILED (see above).");
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`\nBenchmark failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
