/**
 * Runs the worker under `wrangler dev` for end-to-end tests and benchmarks: a fresh, migrated
 * local D1 database in a temporary directory, 127.0.0.1 on a free port, and settings given only
 * on the command line, so a developer's .dev.vars cannot change what is tested or measured.
 *
 * Node-only (child processes, process groups); imported by Node scripts run with type stripping,
 * hence the explicit `.ts` in imports of this file.
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { randomBytes } from "node:crypto";
import { withRaisedRateLimits } from "./rate-limit-config.ts";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const HOST = "127.0.0.1";
const STARTUP_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;

/**
 * Keeps wrangler quiet about telemetry and off the network, and uses this process's Node. A
 * developer's shell cannot choose the settings either: wrangler takes no variable of the shell
 * as a setting (CLOUDFLARE_INCLUDE_PROCESS_ENV) and no environment of wrangler.toml (CLOUDFLARE_ENV).
 */
export const CHILD_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_INCLUDE_PROCESS_ENV: "false",
  CLOUDFLARE_ENV: undefined,
  CI: "true",
};

// ---------------------------------------------------------------------------------------------
// Processes

/**
 * Runs a command in the project root to completion; its output goes to `logFile` (or this
 * terminal). `env` adds to (or overrides) CHILD_ENV.
 */
export function run(command: string, args: string[], logFile?: string, env: Record<string, string> = {}): Promise<void> {
  const fd = logFile ? openSync(logFile, "a") : undefined;
  const stdio: SpawnOptions["stdio"] = fd === undefined ? "inherit" : ["ignore", fd, fd];
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...CHILD_ENV, ...env }, stdio });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(" ")} failed (${signal ?? `exit code ${code}`}).`));
    });
  }).finally(() => {
    if (fd !== undefined) closeSync(fd);
  });
}

/** A port nobody listens on right now, on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Stops a process started with detached: true, and everything it started (its process group). */
export async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || !groupAlive(pid)) return;
  signalGroup(pid, "SIGTERM");
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (groupAlive(pid) && Date.now() < deadline) await sleep(100);
  if (groupAlive(pid)) signalGroup(pid, "SIGKILL");
}

/** Last resort when the process exits without reaching its own cleanup: synchronous, no waiting. */
export function killGroupNow(child: ChildProcess | undefined): void {
  if (child?.pid !== undefined) signalGroup(child.pid, "SIGKILL");
}

/** The last lines of a log file, to show why something failed. */
export function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

// ---------------------------------------------------------------------------------------------
// The server

export type DevServerOptions = {
  /**
   * Settings passed as `--var NAME:value`. They override wrangler.toml's [vars], and they are the
   * only source of secrets: the env file wrangler reads instead of .dev.vars is empty.
   */
  vars?: Record<string, string>;
  /** Where wrangler's output goes (appended). By default a file in the server's temporary directory. */
  logFile?: string;
  /** A built site to serve instead of wrangler.toml's assets directory (web/dist). */
  assetsDir?: string;
  /** Name prefix of the temporary directory that holds the database. */
  tempPrefix?: string;
  /** How long to wait for GET /api/health to answer 200. */
  startupTimeoutMs?: number;
  /** Runs on the migrated database (its --persist-to directory) before the server starts: seeding. */
  beforeStart?: (persistDir: string, logFile: string) => Promise<void>;
  /** This port instead of a free one (a benchmark's own). */
  port?: number;
  /**
   * This directory (made by the caller, who deletes it) instead of a new temporary one: a server
   * started again on the database a stopped one left (bench:campaigns' crash run).
   */
  persistDir?: string;
  /** More `wrangler dev` arguments, e.g. `--test-scheduled`. */
  extraArgs?: string[];
  /**
   * Test-only: run with a copy of wrangler.toml whose [[ratelimits]] limits (the public routes'
   * flood limits, which no setting changes) are this many a period, because every browser and
   * load generator of a local run is one client (127.0.0.1, or none). Never a production switch:
   * the copy lives beside wrangler.toml (its paths are relative) only while the server runs.
   */
  raisedRateLimits?: number;
};

export type DevServer = {
  /** http://127.0.0.1:<port>, without a trailing slash. */
  baseUrl: string;
  logFile: string;
  process: ChildProcess;
  /** Stops wrangler dev and everything it started, then deletes the temporary directory. */
  stop: () => Promise<void>;
};

/**
 * Applies the migrations to a new temporary directory, starts `wrangler dev` there in its own
 * process group and resolves once GET /api/health answers 200. Startup failures reject with the
 * end of wrangler's log and leave nothing running. Should this process exit before stop() is
 * called, the server is killed and its directory removed on the way out.
 */
export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const ownDir = options.persistDir === undefined;
  const configFile = options.raisedRateLimits === undefined ? undefined : raisedConfigFile(options.raisedRateLimits);
  const workDir = options.persistDir ?? mkdtempSync(path.join(os.tmpdir(), options.tempPrefix ?? "dev-server-"));
  const logFile = options.logFile ?? path.join(workDir, "wrangler.log");
  let child: ChildProcess | undefined;
  const cleanUpNow = () => {
    killGroupNow(child);
    if (ownDir) rmSync(workDir, { recursive: true, force: true });
    if (configFile) rmSync(configFile, { force: true });
  };
  process.once("exit", cleanUpNow);

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      if (child) await stopGroup(child);
      process.off("exit", cleanUpNow);
      if (ownDir) rmSync(workDir, { recursive: true, force: true });
      if (configFile) rmSync(configFile, { force: true });
    })();
    return stopped;
  };

  try {
    await applyMigrations(workDir, logFile).catch((error: unknown) => {
      throw new Error(`${(error as Error).message} Its log:\n${tail(logFile)}`);
    });
    await options.beforeStart?.(workDir, logFile);
    const port = options.port ?? (await freePort());
    child = await spawnWrangler(workDir, logFile, port, options, configFile);
    const baseUrl = `http://${HOST}:${port}`;
    await waitUntilHealthy(baseUrl, child, logFile, options.startupTimeoutMs ?? STARTUP_TIMEOUT_MS);
    return { baseUrl, logFile, process: child, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function applyMigrations(persistDir: string, logFile: string): Promise<void> {
  await run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", persistDir], logFile);
}

/**
 * Starts wrangler dev in its own process group, so stopping it also stops workerd. The empty
 * --env-file replaces .dev.vars; --var overrides wrangler.toml.
 */
async function spawnWrangler(
  persistDir: string,
  logFile: string,
  port: number,
  options: DevServerOptions,
  configFile: string | undefined,
): Promise<ChildProcess> {
  const inspectorPort = await freePort();
  const emptyEnvFile = path.join(persistDir, "empty.env");
  writeFileSync(emptyEnvFile, "# Intentionally empty: this server ignores .dev.vars and .env.\n");
  const args = [
    "wrangler",
    "dev",
    "--ip",
    HOST,
    "--port",
    String(port),
    "--inspector-ip",
    HOST,
    "--inspector-port",
    String(inspectorPort),
    "--persist-to",
    persistDir,
    "--env-file",
    emptyEnvFile,
    "--show-interactive-dev-session=false",
    ...(configFile ? ["--config", configFile] : []),
    ...(options.assetsDir ? ["--assets", options.assetsDir] : []),
    ...(options.extraArgs ?? []),
    ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
  ];
  const fd = openSync(logFile, "a");
  const child = spawn("npx", args, { cwd: ROOT, env: CHILD_ENV, stdio: ["ignore", fd, fd], detached: true });
  closeSync(fd);
  return child;
}

/**
 * A copy of wrangler.toml with its [[ratelimits]] limits raised to `limit`, written beside it (its
 * paths are relative to it) under a name .gitignore keeps out; the caller deletes it.
 */
function raisedConfigFile(limit: number): string {
  const file = path.join(ROOT, `wrangler.raised-limits.${process.pid}.${randomBytes(4).toString("hex")}.toml`);
  const original = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8");
  writeFileSync(
    file,
    `# Generated by test/support/dev-server.ts for a local test run; deleted when it stops.\n${withRaisedRateLimits(original, limit)}`,
  );
  return file;
}

/** Polls GET /api/health until it answers 200, the server exits, or the time runs out. */
async function waitUntilHealthy(baseUrl: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`wrangler dev exited during startup. Its log:\n${tail(logFile)}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  throw new Error(`wrangler dev did not answer /api/health within ${timeoutMs / 1000} s. Its log:\n${tail(logFile)}`);
}
