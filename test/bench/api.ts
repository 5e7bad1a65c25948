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
 * Options (env): BENCH_DURATION seconds per route (default 10), BENCH_CONNECTIONS (default 20),
 * BENCH_MAIL provider (default) or dev-mailbox.
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
type AutocannonOptions = { url: string; connections: number; duration: number; requests: AutocannonRequest[] };
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
const TARGET_RATIO = 0.6;
const TARGET_P99_MS = 50;
const TARGET_CONNECTIONS = 20;
const MAIL_MODE = process.env.BENCH_MAIL === "dev-mailbox" ? "dev-mailbox" : "provider";
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

function startServer(providerUrl: string): Promise<DevServer> {
  const vars: Record<string, string> =
    MAIL_MODE === "provider"
      ? {
          // Production as deployed: every setting it needs has a real value (health answers 200).
          ENVIRONMENT: "production",
          MAIL_PROVIDER_TOKEN: "bench-token",
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
  return startDevServer({ vars, tempPrefix: "bench-api-" });
}

/** Refuses to benchmark anything but the local D1 database and the chosen local mail path. */
async function checkLocalOnly(server: DevServer): Promise<void> {
  const response = await fetch(`${server.baseUrl}/api/health`, {
    headers: { Authorization: `Bearer ${ADMIN_KEY}` },
    signal: AbortSignal.timeout(5_000),
  });
  const health = (await response.json()) as { database?: { driver?: string }; mail?: { transport?: string } };
  if (health.database?.driver !== "d1" || health.mail?.transport !== MAIL_MODE) {
    throw new Error(`Expected the local D1 database and the ${MAIL_MODE} transport, got ${JSON.stringify(health)}.`);
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
    const authorized = request.headers.authorization === "Bearer bench-token";
    if (authorized) accepted += 1;
    response.writeHead(authorized ? 200 : 401, { "content-type": "application/json" });
    response.end(authorized ? '{"send_email_status":"success"}' : '{"error":"unauthorized"}');
  });
});
server.listen(0, process.argv[1], () => console.log(server.address().port));
`;

async function startStandInProvider(): Promise<StandInProvider> {
  const child = spawn(process.execPath, ["-e", STAND_IN_PROVIDER, HOST], { stdio: ["ignore", "pipe", "inherit"], detached: true });
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
  console.log(`\nTargets: each POST >= ${TARGET_RATIO}x health throughput, p99 < ${TARGET_P99_MS} ms at ${TARGET_CONNECTIONS} connections`);
  if (CONNECTIONS !== TARGET_CONNECTIONS) {
    console.log(`  (this run used ${CONNECTIONS} connections; the targets are defined at ${TARGET_CONNECTIONS})`);
  }
  for (const m of measurements.slice(1)) {
    const ratio = m.result.requests.average / health.result.requests.average;
    console.log(`  ${verdict(m, ratio >= TARGET_RATIO)}  ${m.route.name}: ${ratio.toFixed(2)}x health (>= ${TARGET_RATIO}x)`);
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
    return measurements.some(failed) || mailFailed ? 1 : 0;
  } finally {
    await server?.stop();
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

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`\nBenchmark failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
