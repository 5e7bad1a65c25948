/**
 * Runs `npm run dev` (the Vite dev server with the worker in workerd) as a developer would, for
 * the dev loop's smoke test and benchmark: the repository's own .dev.vars and local database
 * (created and migrated by `npm run dev:prepare` when missing), on 127.0.0.1 at a free port (the
 * PORT setting), in its own process group so that stopping it also stops Vite and workerd.
 *
 * Node-only; imported by Node scripts run with type stripping, hence the explicit `.ts` in
 * imports of this file.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { CHILD_ENV, HOST, ROOT, freePort, killGroupNow, stopGroup, tail } from "./dev-server.ts";

/** Cold start on a busy 2-core machine: Vite's dependency scan and the migrations take most of it. */
const STARTUP_TIMEOUT_MS = 180_000;

export type NpmDev = {
  /** http://127.0.0.1:<port>, without a trailing slash. */
  baseUrl: string;
  /** How long from the spawn of `npm run dev` until GET /api/health answered 200. */
  startupMs: number;
  logFile: string;
  process: ChildProcess;
  /** Stops the dev server and everything it started, then deletes its log (unless kept). */
  stop: () => Promise<void>;
};

/**
 * Starts `npm run dev` and resolves once GET /api/health answers 200 (the worker runs and its
 * database is migrated).
 * A start that fails or times out rejects with the end of its output and leaves nothing running.
 */
export async function startNpmDev(options: { startupTimeoutMs?: number; keepLog?: boolean } = {}): Promise<NpmDev> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "npm-dev-"));
  const logFile = path.join(workDir, "dev.log");
  const port = await freePort();
  const fd = openSync(logFile, "a");
  const child = spawn("npm", ["run", "dev"], {
    cwd: ROOT,
    env: { ...CHILD_ENV, PORT: String(port) },
    stdio: ["ignore", fd, fd],
    detached: true,
  });
  closeSync(fd);
  const started = Date.now();
  const cleanUpNow = () => {
    killGroupNow(child);
    if (!options.keepLog) rmSync(workDir, { recursive: true, force: true });
  };
  process.once("exit", cleanUpNow);
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await stopGroup(child);
      process.off("exit", cleanUpNow);
      if (!options.keepLog) rmSync(workDir, { recursive: true, force: true });
    })();
    return stopped;
  };

  const baseUrl = `http://${HOST}:${port}`;
  try {
    const timeoutMs = options.startupTimeoutMs ?? STARTUP_TIMEOUT_MS;
    const deadline = started + timeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`npm run dev exited during startup. Its output:\n${tail(logFile)}`);
      if (Date.now() > deadline)
        throw new Error(`npm run dev did not answer /api/health within ${timeoutMs / 1000} s. Its output:\n${tail(logFile)}`);
      const health = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
      if (health?.status === 200) break;
      await sleep(250);
    }
    return { baseUrl, startupMs: Date.now() - started, logFile, process: child, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
