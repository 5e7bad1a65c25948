/**
 * API benchmark: how many requests per second the worker answers under `wrangler dev`, and how
 * fast, for the health check and the two write routes (waitlist join, contact form).
 *
 * It builds the site if needed, applies the migrations to a fresh temporary database, starts
 * `wrangler dev` on 127.0.0.1, warms up, then runs autocannon against each route in turn and
 * stops the server. Notification e-mails take the production path: the provider transport,
 * pointed at a stand-in provider this script serves on 127.0.0.1 (it answers like the real one,
 * so every POST costs what it costs in production: store, answer, then send and mark sent).
 * BENCH_MAIL=dev-mailbox measures the development path instead (dev mailbox table plus a
 * console line per e-mail). Nothing leaves the machine either way.
 *
 * Reading the output: "req/s" is the average of autocannon's per-second samples; p50/p99 are
 * the latencies of the 2xx answers; "vs health" compares a POST's req/s with the health
 * check's, which only pings the database. The numbers are for wrangler dev on this machine
 * (local workerd behind wrangler's dev proxy, SQLite-backed D1), not production: compare runs
 * on the same, otherwise idle machine. autocannon shares the CPU with the server, and at 20
 * connections a saturated server's latency is mostly queueing (p50 ~ connections / req/s).
 * Targets that are missed are printed as FAIL but do not fail the run; failed requests or
 * unexpected statuses do (exit code 1).
 *
 * Database calls (issue 24): after the throughput runs on local D1, the same worker runs on the
 * libSQL stand-in (test/support/libsql-stand-in.ts, LIBSQL_URL), which counts every database call
 * (one pipeline request = one call), and the bench counts: the calls on an accepted join's request
 * path (calls that arrived before its answer, joins one after another; target 1), the calls of a
 * request refused over the per-client limit (one address past WAITLIST_LIMITER) and of one that
 * fails validation (target 0 for both), and the calls of the e-mails, amortised: a burst of joins
 * at BENCH_CONNECTIONS, then every call until every e-mail has reached the stand-in provider,
 * minus the request paths', per e-mail delivered (target at most 0.1). The throughput figures come
 * from D1, the call counts from the stand-in; BENCH_DB_CALLS=off skips the counts.
 *
 * Options (env): BENCH_DURATION seconds per route (default 10), BENCH_CONNECTIONS (default 20),
 * BENCH_MAIL provider (default) or dev-mailbox, BENCH_DB_CALLS on (default) or off,
 * BENCH_COUNT_JOINS (joins of the amortised e-mail count, default 500).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { HOST, ROOT, killGroupNow, run, startDevServer, stopGroup, type DevServer } from "../support/dev-server.ts";
import { positiveInteger } from "./options.ts";
import { ADULT_ANSWER } from "../support/age.ts";
import { startLibsqlStandIn, type LibsqlStandIn, type StandInCounts } from "../support/libsql-stand-in.ts";

// ---------------------------------------------------------------------------------------------
// autocannon has no bundled types; this is the part of its API used here.

type AutocannonRequest = {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
  onResponse?: (status: number, body: string) => void;
};
type AutocannonOptions = { url: string; connections: number; duration: number; amount?: number; requests: AutocannonRequest[] };
type Percentiles = { average: number; p50: number; p99: number };
type AutocannonResult = {
  requests: Percentiles;
  latency: Percentiles;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
};

const require = createRequire(import.meta.url);
const autocannon = require("autocannon") as (options: AutocannonOptions) => PromiseLike<AutocannonResult>;

// ---------------------------------------------------------------------------------------------
// Settings

const DURATION_S = positiveInteger("BENCH_DURATION", 10);
const CONNECTIONS = positiveInteger("BENCH_CONNECTIONS", 20);
const WARMUP_S = 2;
/** Each POST's throughput against health's; a join's own target (issue 24) is higher. */
const TARGET_RATIO = 0.6;
const TARGET_JOIN_RATIO = 0.8;
const TARGET_MAIL_CALLS = 0.1;
const DB_CALLS = process.env.BENCH_DB_CALLS !== "off";
const COUNT_JOINS = positiveInteger("BENCH_COUNT_JOINS", 500);
const TARGET_P99_MS = 50;
const TARGET_CONNECTIONS = 20;
const MAIL_MODE = process.env.BENCH_MAIL === "dev-mailbox" ? "dev-mailbox" : "provider";
/** The provider token: production refuses a weak one (health would answer 503). */
const PROVIDER_TOKEN = randomBytes(24).toString("hex");
/** Other work on the machine skews the numbers; this is shown next to them. */
const LOAD_AT_START = os.loadavg()[0] ?? 0;

// ---------------------------------------------------------------------------------------------
// Routes

type Route = {
  name: string;
  method: "GET" | "POST";
  path: string;
  expectedStatus: number;
  /** A new JSON body for every request, when the route takes one. */
  body?: () => unknown;
};

const runId = `${Date.now().toString(36)}-${process.pid}`;
let emailCounter = 0;

const ROUTES: Route[] = [
  { name: "GET /api/health", method: "GET", path: "/api/health", expectedStatus: 200 },
  {
    name: "POST /api/waitlist",
    method: "POST",
    path: "/api/waitlist",
    expectedStatus: 201,
    // Unique per request: a repeated e-mail is a different code path (409 or a re-join).
    // Answering the age question as an adult (issue 23), so every join takes the spec's path.
    body: () => ({ ...ADULT_ANSWER, email: `bench-${runId}-${++emailCounter}@bench.test`, source: "bench" }),
  },
  {
    name: "POST /api/forms/contact",
    method: "POST",
    path: "/api/forms/contact",
    expectedStatus: 201,
    body: () => ({ name: "Bench", email: "bench@homeworkhelper.app", message: "Hello from the benchmark" }),
  },
];

// ---------------------------------------------------------------------------------------------
// The server under test

async function buildSiteIfMissing(): Promise<void> {
  if (existsSync(path.join(ROOT, "web/dist"))) return;
  console.log("web/dist is missing: building the site...");
  await run("npm", ["run", "build"]);
}

/**
 * wrangler dev on a fresh local D1 (see test/support/dev-server.ts). In provider mode e-mail goes
 * to the stand-in provider, as in production; otherwise to the dev mailbox.
 */
/** The provider mode's admin key: health tells its details in production only to an operator. */
const ADMIN_KEY = randomBytes(32).toString("hex");

function startServer(providerUrl: string, libsqlUrl?: string): Promise<DevServer> {
  const vars: Record<string, string> =
    MAIL_MODE === "provider"
      ? {
          // Production as deployed: every setting it needs has a real value (health answers 200).
          ENVIRONMENT: "production",
          MAIL_PROVIDER_TOKEN: PROVIDER_TOKEN,
          SENDER_NAME: "Homework Helper",
          SENDER_POSTAL_ADDRESS: "1 Bench Street, Springfield",
          MAIL_API_URL: providerUrl,
          COMPANY_EMAIL: "team@homeworkhelper.app",
          AUTH_JWT_SECRET: randomBytes(32).toString("hex"),
          AUTH_ADMIN_KEY: ADMIN_KEY,
          SITE_URL: "https://homeworkhelper.app",
        }
      : { ENVIRONMENT: "development", MAIL_PROVIDER_TOKEN: "" };
  // Every notification a single e-mail (the costlier path: send, then mark sent), rather than
  // the digest the hourly cap turns a burst into. The per-client limits stay as configured:
  // each request comes from a client address of its own (see autocannonRequest).
  vars.NOTIFY_HOURLY_CAP = "1000000";
  // The joins of the call counts would use up the default daily budget of visitor e-mail.
  vars.VISITOR_EMAIL_DAILY_BUDGET = "1000000";
  if (libsqlUrl) vars.LIBSQL_URL = libsqlUrl;
  return startDevServer({ vars, tempPrefix: "bench-api-" });
}

/** Refuses to benchmark anything but the local D1 database and the chosen local mail path. */
async function checkLocalOnly(server: DevServer, driver: "d1" | "libsql" = "d1"): Promise<void> {
  const response = await fetch(`${server.baseUrl}/api/health`, {
    headers: { Authorization: `Bearer ${ADMIN_KEY}` },
    signal: AbortSignal.timeout(5_000),
  });
  const health = (await response.json()) as { database?: { driver?: string }; mail?: { transport?: string } };
  if (health.database?.driver !== driver || health.mail?.transport !== MAIL_MODE) {
    throw new Error(`Expected the local ${driver} database and the ${MAIL_MODE} transport, got ${JSON.stringify(health)}.`);
  }
}

/**
 * The stand-in for the AI provider's run endpoint: accepts every e-mail and counts them
 * (GET /count). It runs in its own process so it does not share autocannon's event loop.
 */
type StandInProvider = { url: string; process: ChildProcess; accepted: () => Promise<number> };

const STAND_IN_PROVIDER = `
const http = require("node:http");
let accepted = 0;
const server = http.createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    if (request.method === "GET" && request.url === "/count") return response.end(String(accepted));
    const authorized = request.headers.authorization === "Bearer " + process.argv[2];
    if (authorized) accepted += 1;
    response.writeHead(authorized ? 200 : 401, { "content-type": "application/json" });
    response.end(authorized ? '{"send_email_status":"success"}' : '{"error":"unauthorized"}');
  });
});
server.listen(0, process.argv[1], () => console.log(server.address().port));
`;

async function startStandInProvider(): Promise<StandInProvider> {
  const child = spawn(process.execPath, ["-e", STAND_IN_PROVIDER, HOST, PROVIDER_TOKEN], {
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
    accepted: async () => Number(await (await fetch(`${base}/count`)).text()),
  };
}

// ---------------------------------------------------------------------------------------------
// Measuring

type Measurement = {
  route: Route;
  result: AutocannonResult;
  /** Answers with a status other than the expected one (including other 2xx). */
  unexpected: number;
  /** The first unexpected answer, to say what went wrong. */
  firstUnexpected?: string;
};

let clientCounter = 0;
/**
 * A client address of its own for every request (10.0.0.0/8, which wrangler dev passes on as
 * CF-Connecting-IP): the per-client limits count every request, as in production, without any
 * one simulated client reaching its allowance.
 */
function nextClientIp(): string {
  clientCounter += 1;
  return `10.${(clientCounter >> 16) & 255}.${(clientCounter >> 8) & 255}.${clientCounter & 255}`;
}

function autocannonRequest(route: Route, onUnexpected: (status: number, body: string) => void): AutocannonRequest {
  const makeBody = route.body;
  const request: AutocannonRequest = {
    method: route.method,
    path: route.path,
    onResponse: (status, body) => {
      if (status !== route.expectedStatus) onUnexpected(status, body);
    },
  };
  if (!makeBody) return request;
  request.setupRequest = (previous) => ({
    ...previous,
    headers: { "content-type": "application/json", "cf-connecting-ip": nextClientIp() },
    body: JSON.stringify(makeBody()),
  });
  return request;
}

async function measure(baseUrl: string, route: Route, durationS: number): Promise<Measurement> {
  let firstUnexpected: string | undefined;
  const request = autocannonRequest(route, (status, body) => {
    firstUnexpected ??= `HTTP ${status}: ${body.slice(0, 300)}`;
  });
  const result = await autocannon({ url: baseUrl, connections: CONNECTIONS, duration: durationS, requests: [request] });
  const expected = result.statusCodeStats[String(route.expectedStatus)]?.count ?? 0;
  const answered = Object.values(result.statusCodeStats).reduce((sum, stat) => sum + stat.count, 0);
  return { route, result, unexpected: answered - expected, firstUnexpected };
}

// ---------------------------------------------------------------------------------------------
// Reporting

function failed(m: Measurement): boolean {
  return m.unexpected > 0 || m.result.errors > 0 || m.result.timeouts > 0;
}

function printTable(measurements: Measurement[]): void {
  const health = measurements[0]!;
  const header = ["route", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors", "vs health"];
  const rows = measurements.map((m) => [
    m.route.name,
    m.result.requests.average.toFixed(0),
    String(m.result.latency.p50),
    String(m.result.latency.p99),
    String(m.result.non2xx),
    String(m.result.errors),
    m === health ? "-" : `${(m.result.requests.average / health.result.requests.average).toFixed(2)}x`,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
}

function printTargets(measurements: Measurement[]): void {
  const health = measurements[0]!;
  // A route whose requests failed has no meaningful numbers: its targets are not met.
  const verdict = (m: Measurement, ok: boolean) => (failed(m) ? "FAIL (requests failed)" : ok ? "PASS" : "FAIL");
  console.log(
    `\nTargets: a join >= ${TARGET_JOIN_RATIO}x health throughput (issue 24), each other POST >= ${TARGET_RATIO}x, p99 < ${TARGET_P99_MS} ms at ${TARGET_CONNECTIONS} connections`,
  );
  if (CONNECTIONS !== TARGET_CONNECTIONS) {
    console.log(`  (this run used ${CONNECTIONS} connections; the targets are defined at ${TARGET_CONNECTIONS})`);
  }
  for (const m of measurements.slice(1)) {
    const ratio = m.result.requests.average / health.result.requests.average;
    const target = m.route.path === "/api/waitlist" ? TARGET_JOIN_RATIO : TARGET_RATIO;
    console.log(`  ${verdict(m, ratio >= target)}  ${m.route.name}: ${ratio.toFixed(2)}x health (>= ${target}x)`);
  }
  for (const m of measurements) {
    const p99 = m.result.latency.p99;
    console.log(`  ${verdict(m, p99 < TARGET_P99_MS)}  ${m.route.name}: p99 ${p99} ms (< ${TARGET_P99_MS} ms)`);
  }
}

function printFailures(measurements: Measurement[]): void {
  const bad = measurements.filter(failed);
  if (bad.length === 0) {
    console.log("\nAll requests succeeded with the expected status.");
    return;
  }
  console.log("\nFAILED REQUESTS:");
  for (const m of bad) {
    const { errors, timeouts, statusCodeStats } = m.result;
    const statuses = Object.entries(statusCodeStats)
      .map(([code, stat]) => `${code}: ${stat.count}`)
      .join(", ");
    console.log(
      `  ${m.route.name}: ${m.unexpected} answers not ${m.route.expectedStatus}, ${errors} errors (${timeouts} timeouts); statuses {${statuses}}`,
    );
    if (m.firstUnexpected) console.log(`    first unexpected answer: ${m.firstUnexpected}`);
  }
}

function printMachine(): void {
  const cpus = os.cpus();
  console.log(`Date:    ${new Date().toISOString()}`);
  console.log(
    `Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown CPU"}), ${os.platform()} ${os.release()}, Node ${process.version}`,
  );
  console.log(`         load average ${LOAD_AT_START.toFixed(2)} when the benchmark started`);
  console.log(
    `Run:     ${CONNECTIONS} connections, ${DURATION_S} s per route, wrangler dev on ${HOST}, e-mail via ${MAIL_MODE === "provider" ? "the provider transport (local stand-in)" : "the dev mailbox"}`,
  );
  console.log(
    `         every POST from a client address of its own (per-client limits counted, never reached); NOTIFY_HOURLY_CAP raised: every notification a single e-mail\n`,
  );
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  await buildSiteIfMissing();
  let server: DevServer | undefined;
  let standIn: LibsqlStandIn | undefined;
  const provider = await startStandInProvider();
  // The dev server cleans up after itself when the process exits, even during its startup.
  const onSignal = async () => {
    console.error("\nInterrupted: stopping wrangler dev.");
    await server?.stop();
    await stopGroup(provider.process);
    process.exit(130);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  process.once("exit", () => killGroupNow(provider.process));
  try {
    server = await startServer(provider.url);
    await checkLocalOnly(server);
    console.log(`wrangler dev is up at ${server.baseUrl}; warming up for ${WARMUP_S} s...\n`);
    await measure(server.baseUrl, ROUTES[0]!, WARMUP_S);

    const measurements: Measurement[] = [];
    for (const route of ROUTES) {
      console.log(`Measuring ${route.name} for ${DURATION_S} s...`);
      measurements.push(await measure(server.baseUrl, route, DURATION_S));
    }
    console.log("");
    printMachine();
    printTable(measurements);
    printTargets(measurements);
    printFailures(measurements);
    const mailFailed = MAIL_MODE === "provider" && !(await reportDeliveries(measurements, provider));
    await server.stop();
    server = undefined;
    let callsFailed = false;
    if (DB_CALLS) {
      console.log("\nCounting database calls: the same worker on the libSQL stand-in...");
      standIn = await startLibsqlStandIn();
      server = await startServer(provider.url, standIn.url);
      await checkLocalOnly(server, "libsql");
      callsFailed = !printCallFigures(await countCalls(server.baseUrl, standIn, provider));
    }
    return measurements.some(failed) || mailFailed || callsFailed ? 1 : 0;
  } finally {
    await server?.stop();
    await standIn?.stop();
    await stopGroup(provider.process);
  }
}

/**
 * Every stored waitlist entry and contact message must have reached the stand-in provider
 * (deliveries run after the responses, so they are given a moment to finish).
 */
async function reportDeliveries(measurements: Measurement[], provider: StandInProvider): Promise<boolean> {
  const stored = measurements
    .filter((m) => m.route.method === "POST")
    .reduce((sum, m) => sum + (m.result.statusCodeStats["201"]?.count ?? 0), 0);
  const deadline = Date.now() + 10_000;
  while ((await provider.accepted()) < stored && Date.now() < deadline) await sleep(100);
  const delivered = await provider.accepted();
  console.log(`Notifications: ${delivered} delivered to the stand-in provider for ${stored} stored submissions.`);
  if (delivered < stored) console.log("  FAIL  some notifications were not delivered: see the worker's notification.failed lines.");
  return delivered >= stored;
}

// ---------------------------------------------------------------------------------------------
// Database calls, counted by the libSQL stand-in

type CallFigures = {
  requestPath: { joins: number; calls: number; perJoin: number; max: number };
  refused: { requests: number; calls: number } | null;
  invalid: { requests: number; calls: number };
  mail: { joins: number; calls: number; requestPathCalls: number; delivered: number; perEmail: number; drainedMs: number } | null;
};

/** Waits until the stand-in has seen no call for `quietMs` (the answers' after-work, the queues' batches). */
async function settle(standIn: LibsqlStandIn, quietMs = 2_500, timeoutMs = 60_000): Promise<StandInCounts> {
  const deadline = Date.now() + timeoutMs;
  let last = await standIn.counts();
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    await sleep(250);
    const now = await standIn.counts();
    if (now.calls + now.closeOnly !== last.calls + last.closeOnly) {
      last = now;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= quietMs) return now;
  }
  return last;
}

async function postJoin(baseUrl: string, email: string, clientIp: string, body?: unknown): Promise<number> {
  const response = await fetch(`${baseUrl}/api/waitlist`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": clientIp },
    body: JSON.stringify(body ?? { ...ADULT_ANSWER, email, source: "bench" }),
  });
  await response.arrayBuffer();
  return response.status;
}

async function countCalls(baseUrl: string, standIn: LibsqlStandIn, provider: StandInProvider): Promise<CallFigures> {
  const calls = async () => (await standIn.counts()).calls;
  // 1. An accepted join's request path: one join at a time, the calls seen before its answer.
  const SEQUENTIAL = 20;
  const perJoin: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i += 1) {
    await settle(standIn, 1_500);
    const before = await calls();
    const status = await postJoin(baseUrl, `calls-${runId}-${i}@bench.test`, nextClientIp());
    if (status !== 201) throw new Error(`a join for the call count answered ${status}`);
    perJoin.push((await calls()) - before);
  }
  const requestPathTotal = perJoin.reduce((sum, n) => sum + n, 0);

  // 2. Refused over the per-client limit: one address joins until it is refused, then 20 more.
  await settle(standIn);
  const floodIp = "10.255.255.254";
  let refused: CallFigures["refused"] = null;
  for (let i = 0; i < 400; i += 1) {
    if ((await postJoin(baseUrl, `flood-${runId}-${i}@bench.test`, floodIp)) !== 429) continue;
    await settle(standIn);
    const before = await calls();
    let count = 0;
    for (let j = 0; j < 20; j += 1) {
      if ((await postJoin(baseUrl, `flood-${runId}-${i}-${j}@bench.test`, floodIp)) === 429) count += 1;
    }
    await settle(standIn);
    // A refusal that a new window let through would be a join: count only a clean run of refusals.
    if (count === 20) refused = { requests: count, calls: (await calls()) - before };
    break;
  }

  // 3. Invalid: an address that is not one, each from its own client.
  await settle(standIn);
  const beforeInvalid = await calls();
  let invalid = 0;
  for (let i = 0; i < 20; i += 1) {
    const status = await postJoin(baseUrl, "", nextClientIp(), { ...ADULT_ANSWER, email: `not-an-address-${i}`, source: "bench" });
    if (status === 400 || status === 422) invalid += 1;
  }
  await settle(standIn);
  const invalidFigures = { requests: invalid, calls: (await calls()) - beforeInvalid };

  // 4. The e-mails, amortised: a burst of joins, every call until the provider has them all.
  let mail: CallFigures["mail"] = null;
  if (MAIL_MODE === "provider") {
    await settle(standIn);
    const callsBefore = await calls();
    const deliveredBefore = await provider.accepted();
    const started = Date.now();
    let counter = 0;
    const result = await autocannon({
      url: baseUrl,
      connections: CONNECTIONS,
      duration: 0,
      amount: COUNT_JOINS,
      requests: [
        {
          method: "POST",
          path: "/api/waitlist",
          setupRequest: (request) => ({
            ...request,
            headers: { "content-type": "application/json", "cf-connecting-ip": nextClientIp() },
            body: JSON.stringify({ ...ADULT_ANSWER, email: `amortised-${runId}-${++counter}@bench.test`, source: "bench" }),
          }),
        },
      ],
    } as AutocannonOptions);
    const accepted = result.statusCodeStats["201"]?.count ?? 0;
    // Each join causes two e-mails (its confirmation and the team's notification).
    const deadline = Date.now() + 120_000;
    while ((await provider.accepted()) - deliveredBefore < 2 * accepted && Date.now() < deadline) await sleep(250);
    const drainedMs = Date.now() - started;
    await settle(standIn);
    const delivered = (await provider.accepted()) - deliveredBefore;
    const total = (await calls()) - callsBefore;
    const requestPathCalls = Math.round((requestPathTotal / SEQUENTIAL) * accepted);
    const mailCalls = Math.max(0, total - requestPathCalls);
    mail = {
      joins: accepted,
      calls: total,
      requestPathCalls,
      delivered,
      perEmail: delivered > 0 ? mailCalls / delivered : Number.NaN,
      drainedMs,
    };
  }
  return {
    requestPath: { joins: SEQUENTIAL, calls: requestPathTotal, perJoin: requestPathTotal / SEQUENTIAL, max: Math.max(...perJoin) },
    refused,
    invalid: invalidFigures,
    mail,
  };
}

function printCallFigures(figures: CallFigures): boolean {
  let ok = true;
  const verdict = (passed: boolean) => {
    if (!passed) ok = false;
    return passed ? "PASS" : "FAIL";
  };
  const { requestPath, refused, invalid, mail } = figures;
  console.log("\nDatabase calls (the libSQL stand-in's count of pipeline requests; the worker as above, LIBSQL_URL set):");
  console.log(
    `  ${verdict(requestPath.perJoin <= 1 && requestPath.max <= 1)}  an accepted join's request path: ${requestPath.perJoin.toFixed(2)} calls per join (${requestPath.calls} for ${requestPath.joins} joins one at a time, at most ${requestPath.max}; target 1)`,
  );
  if (refused) {
    console.log(
      `  ${verdict(refused.calls === 0)}  a request refused over the per-client limit (429): ${(refused.calls / refused.requests).toFixed(2)} calls (${refused.calls} for ${refused.requests}; target 0)`,
    );
  } else console.log(`  ${verdict(false)}  a request refused over the per-client limit: no clean run of 20 refusals from one address`);
  console.log(
    `  ${verdict(invalid.calls === 0 && invalid.requests === 20)}  a request that fails validation (400): ${invalid.requests > 0 ? (invalid.calls / invalid.requests).toFixed(2) : "-"} calls (${invalid.calls} for ${invalid.requests}; target 0)`,
  );
  if (mail) {
    console.log(
      `  ${verdict(mail.perEmail <= TARGET_MAIL_CALLS && mail.delivered >= 2 * mail.joins)}  per e-mail sent, amortised: ${mail.perEmail.toFixed(3)} calls (${mail.joins} joins at ${CONNECTIONS} connections: ${mail.calls} calls in all until ${mail.delivered} e-mails were delivered in ${(mail.drainedMs / 1000).toFixed(1)} s, less ${mail.requestPathCalls} on the request paths; target <= ${TARGET_MAIL_CALLS})`,
    );
  }
  return ok;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`\nBenchmark failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
