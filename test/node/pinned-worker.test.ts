/**
 * The worker tests' runtime (test/support/pinned-worker.ts, what vitest.config.ts gives the plugin)
 * beside a wrangler.toml that has a developer's files next to it: a .dev.vars, or a .env with
 * wrangler told to take the shell's variables too (CLOUDFLARE_INCLUDE_PROCESS_ENV). Wrangler, asked
 * as the plugin asks it, loads their values (so these files are real decoys); the pinned runtime
 * has wrangler.toml's [vars] and the tests' values only. test/worker/pinned-settings.test.ts checks
 * the running worker tests' settings.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";
import { pinnedWorker } from "../support/pinned-worker.ts";

const WRANGLER_TOML = fileURLToPath(new URL("../../wrangler.toml", import.meta.url));
const TEST_VALUES = { ENVIRONMENT: "development", AUTH_ADMIN_KEY: "the-tests-admin-key" };

const workDir = mkdtempSync(path.join(os.tmpdir(), "pinned-worker-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));
afterEach(() => {
  vi.unstubAllEnvs();
});

/** A copy of wrangler.toml in a directory of its own, with `files` (name to content) beside it. */
function projectWith(name: string, files: Record<string, string>): string {
  const dir = path.join(workDir, name);
  mkdirSync(dir);
  const configPath = path.join(dir, "wrangler.toml");
  copyFileSync(WRANGLER_TOML, configPath);
  for (const [file, content] of Object.entries(files)) writeFileSync(path.join(dir, file), content);
  return configPath;
}

/** The bindings wrangler gives a runtime for `configPath` when asked as the plugin asks (no env files). */
function wranglersOwnBindings(configPath: string): Record<string, unknown> {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(unstable_readConfig({ config: configPath }), undefined, {
    overrides: { enableContainers: false },
  });
  return (workerOptions.bindings ?? {}) as Record<string, unknown>;
}

/** wrangler.toml's [vars] with the tests' values over them: all a pinned runtime may have. */
function expectedSettings(): Record<string, unknown> {
  return { ...unstable_readConfig({ config: WRANGLER_TOML }).vars, ...TEST_VALUES };
}

describe("the worker tests' runtime", () => {
  it("takes nothing from a .dev.vars beside wrangler.toml", () => {
    const configPath = projectWith("dev-vars", {
      ".dev.vars": "AUTH_ADMIN_KEY=from-dev-vars\nOPERATOR_EMAILS=operator@example.com\nDEV_VARS_ONLY=yes\n",
    });
    expect(wranglersOwnBindings(configPath)).toMatchObject({
      AUTH_ADMIN_KEY: "from-dev-vars",
      OPERATOR_EMAILS: "operator@example.com",
      DEV_VARS_ONLY: "yes",
    });

    const { settings, options } = pinnedWorker(configPath, TEST_VALUES, { TEST_MIGRATIONS: [] });

    expect(settings).toEqual(expectedSettings());
    expect(options.miniflare.bindings).toEqual({ ...expectedSettings(), TEST_MIGRATIONS: [] });
    expect(options.miniflare.bindings).toMatchObject({ AUTH_ADMIN_KEY: "the-tests-admin-key", OPERATOR_EMAILS: "" });
  });

  it("takes nothing from a .env or the shell's variables, even when wrangler is told to take them", () => {
    vi.stubEnv("CLOUDFLARE_INCLUDE_PROCESS_ENV", "true");
    vi.stubEnv("SHELL_ONLY_SETTING", "from-the-shell");
    const configPath = projectWith("dot-env", { ".env": "AUTH_ADMIN_KEY=from-dot-env\nDOT_ENV_ONLY=yes\n" });
    expect(wranglersOwnBindings(configPath)).toMatchObject({
      AUTH_ADMIN_KEY: "from-dot-env",
      DOT_ENV_ONLY: "yes",
      SHELL_ONLY_SETTING: "from-the-shell",
    });

    const { settings, options } = pinnedWorker(configPath, TEST_VALUES);

    expect(settings).toEqual(expectedSettings());
    expect(options.miniflare.bindings).toEqual(expectedSettings());
  });

  it("is wrangler.toml's worker otherwise: its entry point, database, queues and compatibility date", () => {
    const configPath = projectWith("runtime", {});
    const config = unstable_readConfig({ config: configPath });

    const { options } = pinnedWorker(configPath, TEST_VALUES);

    // Miniflare's options, as wrangler gives them (its declared type leaves most of them out).
    const runtime = options.miniflare as unknown as Record<string, Record<string, unknown> | string>;
    expect(options.main).toBe(path.join(path.dirname(configPath), "worker", "index.ts"));
    expect(runtime.compatibilityDate).toBe(config.compatibility_date);
    expect(Object.keys(runtime.d1Databases!)).toEqual(config.d1_databases.map((database: { binding: string }) => database.binding));
    expect(Object.keys(runtime.queueProducers!)).toEqual(config.queues.producers?.map((queue: { binding: string }) => queue.binding));
    expect(Object.keys(runtime.queueConsumers!)).toEqual(config.queues.consumers?.map((queue: { queue: string }) => queue.queue));
  });
});
