/**
 * bench:webhooks (issue 25 §4; docs/benchmarks.md): joins fanned out to three stand-in receivers
 * (test/support/webhook-receivers.ts: healthy, slow 1-3 s, down for the first minute) on a fresh
 * local D1 under `wrangler dev` (development: http://127.0.0.1 endpoints allowed). Three endpoints
 * are added through the operator API (AUTH_ADMIN_KEY), each wanting waitlist.joined; then the joins
 * (distinct addresses, each client its own CF-Connecting-IP), and the bench waits until every
 * receiver has every join's event, the scheduled handler run every --cron-every seconds as
 * production's cron. The receivers verify each signature with the npm `standardwebhooks` package
 * and count deliveries by webhook-id (a repeat of an id is a duplicate: we aim for none). Printed:
 * joins/s; per receiver the time to drain, events/s, attempts (the receiver's count and the
 * worker's, with refused connections), duplicates, signature failures. A delivery to the down
 * receiver whose first attempt and retry 5 s later failed waits for the next step, 5 minutes.
 * Options: --joins (10000), --connections (100), --down-seconds (60), --down-mode (503 | refuse),
 * --cron-every (300), --drain-timeout (7200) seconds. A quick try:
 *   npm run bench:webhooks -- --joins 500 --down-seconds 20
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { ADULT_ANSWER } from "../support/age.ts";
import { HOST, ROOT, run, startDevServer, stopGroup } from "../support/dev-server.ts";
import { runFigures, workerRecord } from "./webhooks-record.ts";
import { RECEIVER_NAMES, startWebhookReceivers, type DownMode, type ReceiverName, type Report } from "../support/webhook-receivers.ts";

/** autocannon (no bundled types): the part used here. */
type Request = { headers?: Record<string, string>; body?: string; [key: string]: unknown };
type Options = { url: string; connections: number; amount: number; timeout: number; requests: Record<string, unknown>[] };
type Result = { errors: number; statusCodeStats: Record<string, { count: number }> };
const autocannon = createRequire(import.meta.url)("autocannon") as (options: Options) => PromiseLike<Result>;

const { values: args } = parseArgs({
  options: {
    joins: { type: "string", default: "10000" },
    connections: { type: "string", default: "100" },
    "down-seconds": { type: "string", default: "60" },
    "down-mode": { type: "string", default: "503" },
    "cron-every": { type: "string", default: "300" },
    "drain-timeout": { type: "string", default: "7200" },
  },
});
function whole(name: keyof typeof args): number {
  const value = Number(args[name]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number, got "${args[name]}".`);
  return value;
}
const JOINS = whole("joins");
const CONNECTIONS = whole("connections");
const DOWN_S = whole("down-seconds");
const CRON_EVERY_S = whole("cron-every");
const DRAIN_TIMEOUT_S = whole("drain-timeout");
const DOWN_MODE = args["down-mode"] as DownMode;
if (DOWN_MODE !== "503" && DOWN_MODE !== "refuse") throw new Error(`--down-mode must be 503 or refuse, got "${DOWN_MODE}".`);
const ADMIN_KEY = randomBytes(32).toString("hex");
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
let ok = true;
function check(passed: boolean, text: string): void {
  if (!passed) ok = false;
  console.log(`  ${passed ? "PASS" : "FAIL"}  ${text}`);
}

/** Adds a Standard Webhooks endpoint wanting waitlist.joined through the operator API (the admin key): its id and secret. */
async function addEndpoint(baseUrl: string, name: string, url: string): Promise<{ id: number; secret: string }> {
  const response = await fetch(`${baseUrl}/api/admin/webhooks`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ name: `bench ${name}`, url, kind: "standard", events: ["waitlist.joined"] }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST /api/admin/webhooks answered ${response.status}: ${text.slice(0, 300)}`);
  const created = JSON.parse(text) as { endpoint: { id: number }; secret: string | null };
  if (!created.secret) throw new Error(`the endpoint for ${name} came without a secret`);
  return { id: created.endpoint.id, secret: created.secret };
}

async function main(): Promise<void> {
  if (!existsSync(path.join(ROOT, "web/dist"))) await run("npm", ["run", "build"]);
  const cpus = os.cpus();
  console.log(`Date:    ${new Date().toISOString()}`);
  console.log(
    `Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown CPU"}), Node ${process.version}; load average ${os.loadavg()[0]?.toFixed(2)}`,
  );
  console.log(
    `Run:     ${JOINS} joins at ${CONNECTIONS} connections; receivers healthy, slow (1-3 s), down (${DOWN_S} s, ${DOWN_MODE === "503" ? "HTTP 503" : "connections refused"}); cron every ${CRON_EVERY_S} s`,
  );
  const receivers = await startWebhookReceivers(HOST);
  const persistDir = mkdtempSync(path.join(os.tmpdir(), "bench-webhooks-d1-"));
  const server = await startDevServer({
    vars: {
      ENVIRONMENT: "development",
      AUTH_JWT_SECRET: randomBytes(32).toString("hex"),
      AUTH_ADMIN_KEY: ADMIN_KEY,
      WEBHOOK_SECRETS_KEY: randomBytes(32).toString("hex"),
      VISITOR_EMAIL_DAILY_BUDGET: "1000000",
    },
    persistDir,
    raisedRateLimits: 1_000_000,
    extraArgs: ["--test-scheduled"],
    startupTimeoutMs: 120_000,
  });
  const stopAll = async () => {
    await server.stop();
    await stopGroup(receivers.process);
  };
  process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));
  try {
    const ids: Partial<Record<ReceiverName, number>> = {};
    const secrets: Partial<Record<ReceiverName, string>> = {};
    for (const name of RECEIVER_NAMES)
      ({ id: ids[name], secret: secrets[name] } = await addEndpoint(server.baseUrl, name, receivers.urls[name]));
    await receivers.setSecrets(secrets as Record<ReceiverName, string>);
    console.log(`  endpoints ${RECEIVER_NAMES.map((name) => `${name} #${ids[name]}`).join(", ")} (waitlist.joined)`);

    const prefix = `hooks-${Date.now().toString(36)}-`;
    const addresses: string[] = [];
    let firstUnexpected: string | undefined;
    await receivers.goDown(DOWN_S, DOWN_MODE);
    const started = Date.now();
    const result = await autocannon({
      url: server.baseUrl,
      connections: CONNECTIONS,
      amount: JOINS,
      timeout: 30,
      requests: [
        {
          method: "POST",
          path: "/api/waitlist",
          setupRequest: (request: Request): Request => {
            const n = addresses.length + 1;
            const email = `${prefix}${n}@bench.test`;
            addresses.push(email);
            const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
            return {
              ...request,
              headers: { "content-type": "application/json", "cf-connecting-ip": ip },
              body: JSON.stringify({ ...ADULT_ANSWER, email, source: "bench" }),
            };
          },
          onResponse: (status: number, body: string) => {
            if (status !== 201) firstUnexpected ??= `HTTP ${status}: ${body.slice(0, 300)}`;
          },
        },
      ],
    });
    const burstMs = Date.now() - started;
    const joined = result.statusCodeStats["201"]?.count ?? 0;
    const statuses = Object.entries(result.statusCodeStats).map(([code, stat]) => `${code}: ${stat.count}`);
    console.log(
      `\n  joins: ${joined} answered 201 in ${seconds(burstMs)} (${(joined / (burstMs / 1000)).toFixed(0)} joins/s); statuses {${statuses.join(", ")}}; ${result.errors} errors`,
    );
    if (firstUnexpected) console.log(`  first answer other than 201: ${firstUnexpected}`);
    check(joined === JOINS && result.errors === 0, `every join answered 201 (${joined} of ${JOINS})`);

    // Drain: until every receiver has every join's event, the cron run as production would.
    const wanted = new Set(addresses);
    const have = (report: Report, name: ReceiverName) => report[name].emails.filter((email) => wanted.has(email)).length;
    let report = await receivers.report();
    let cronRuns = 0;
    let nextCron = started + CRON_EVERY_S * 1000;
    let lastLine = "";
    let lastPrinted = 0;
    const deadline = started + DRAIN_TIMEOUT_S * 1000;
    while (Date.now() < deadline && RECEIVER_NAMES.some((name) => have(report, name) < JOINS)) {
      if (Date.now() >= nextCron) {
        cronRuns += 1;
        nextCron += CRON_EVERY_S * 1000;
        await fetch(`${server.baseUrl}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`).catch(() => null);
      }
      const line = RECEIVER_NAMES.map((name) => `${name} ${have(report, name)}`).join(", ");
      if (line !== lastLine && Date.now() - lastPrinted >= 15_000) {
        console.log(`  ${seconds(Date.now() - started)}: ${line}`);
        [lastLine, lastPrinted] = [line, Date.now()];
      }
      await sleep(2_000);
      report = await receivers.report();
    }
    await sleep(5_000); // anything late (a repeat) shows in the counts
    report = await receivers.report();
    await server.stop();
    const record = await workerRecord(persistDir);
    const runs = runFigures(server.logFile);

    console.log(`\n  the scheduled handler ran ${cronRuns} time(s); the worker stored ${record.events} event(s)`);
    console.log(
      `  consumer runs: ${runs.runs} (most lanes in one: ${runs.mostLanes}; ${runs.budgetSpent} ended by the time budget); ${runs.dbCalls} claims and records for ${runs.delivered} delivered (${((100 * runs.dbCalls) / Math.max(1, runs.delivered)).toFixed(1)} per 100)`,
    );
    let total = 0;
    let last = 0;
    for (const name of RECEIVER_NAMES) {
      const seen = report[name];
      const got = new Set(seen.emails.filter((email) => wanted.has(email)));
      total += seen.delivered;
      last = Math.max(last, seen.lastDeliveredAt);
      const rows = record.rows.filter((row) => row.endpoint_id === ids[name]);
      const attempts = rows.reduce((sum, row) => sum + row.attempts, 0);
      const statuses = rows.map((row) => `${row.status} ${row.n}`).join(", ") || "none";
      const span = seen.lastDeliveredAt - seen.firstDeliveredAt;
      console.log(`\n  ${name}:`);
      console.log(
        `    ${seen.delivered} delivered; drained ${seen.lastDeliveredAt ? seconds(seen.lastDeliveredAt - started) : "never"} after the first join (${seen.lastDeliveredAt ? seconds(Math.max(0, seen.lastDeliveredAt - started - burstMs)) : "-"} after the last answer); ${span > 0 ? (seen.delivered / (span / 1000)).toFixed(1) : "-"} events/s while delivering`,
      );
      console.log(
        `    attempts: ${seen.requests} reached it (${seen.refused} answered 503 while down); the worker counts ${attempts} (deliveries: ${statuses})`,
      );
      check(got.size === JOINS, `${name}: every join's event delivered (${got.size} of ${JOINS})`);
      check(seen.duplicates === 0, `${name}: no webhook-id delivered twice (${seen.duplicates} duplicates)`);
      check(
        seen.badSignatures === 0,
        `${name}: every signature verified by standardwebhooks (${seen.badSignatures} failures${seen.badSignatures ? `: ${JSON.stringify(seen.badSignatureReasons)}` : ""})`,
      );
    }
    if (last > 0)
      console.log(
        `\n  all receivers: ${total} events in ${seconds(last - started)} from the first join (${(total / ((last - started) / 1000)).toFixed(1)} events/s)`,
      );
    const downLast = report.down.lastDeliveredAt - started - DOWN_S * 1000;
    console.log(
      `  down: its outage ended ${DOWN_S} s after the first join, its last event came ${seconds(downLast)} after that (a delivery whose first attempt and its retry 5 s later both failed waits for the next step: 5 minutes, ±10%)`,
    );
  } finally {
    await stopAll();
    rmSync(persistDir, { recursive: true, force: true });
  }
}

main().then(
  () => {
    console.log(ok ? "\nAll checks passed." : "\nSome checks FAILED (see above).");
    process.exit(ok ? 0 : 1);
  },
  (error: unknown) => {
    console.error(`\nBenchmark failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
