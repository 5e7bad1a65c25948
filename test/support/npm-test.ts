/**
 * `npm test`: everything a change must pass, in the least time on a two-core machine.
 *
 * 1. The browser check (test/support/chromium.ts): with no Chromium, its help and nothing else.
 * 2. One build of the site into web/dist, which the worker tests serve and the e2e server copies
 *    (E2E_SITE_DIR; `npm run test:e2e` alone builds its own).
 * 3. Vitest (every project), with the lint and the type check (`wrangler types --check`, then
 *    `tsc -b`) running beside it: they only read the sources (tsc writes to node_modules/.cache),
 *    so nothing they do can change a test. Vitest's output is shown as it runs; each check's is
 *    held back and shown after it (in full when the check failed, as one line when it passed), so
 *    no two outputs are mixed.
 *
 * The run fails when any of them fails. Arguments go to vitest (`npm test -- --project worker`).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumPathOrExit } from "./chromium.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };

type Outcome = { name: string; code: number; output: string; seconds: number };

/** Runs a command in the project root; `shown` lets its output through as it comes, otherwise it is kept. */
function run(name: string, command: string, args: string[], options: { shown: boolean; env?: NodeJS.ProcessEnv }): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: options.env ?? ENV,
      stdio: options.shown ? "inherit" : ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const finish = (code: number, extra = "") =>
      resolve({ name, code, output: output + extra, seconds: (performance.now() - started) / 1000 });
    child.on("error", (error) => finish(1, `\n${name} could not start: ${error.message}\n`));
    child.on("exit", (code, signal) => finish(code ?? 1, signal ? `\n${name} ended by ${signal}\n` : ""));
  });
}

function report(check: Outcome): void {
  const verdict = check.code === 0 ? "passed" : `FAILED (exit code ${check.code})`;
  console.log(`\n${check.name}: ${verdict} in ${check.seconds.toFixed(1)} s`);
  if (check.code !== 0) console.log(check.output.trimEnd());
}

chromiumPathOrExit();

const build = await run("build", "npm", ["run", "build"], { shown: true, env: { ...ENV, NODE_ENV: "production" } });
if (build.code !== 0) process.exit(build.code);

const checks = [
  run("lint (npm run lint)", "npm", ["run", "lint"], { shown: false }),
  run("type check (npm run typecheck)", "npm", ["run", "typecheck"], { shown: false }),
];
const vitest = await run("vitest", "npx", ["vitest", "run", ...process.argv.slice(2)], {
  shown: true,
  env: { ...ENV, E2E_SITE_DIR: path.join(ROOT, "web", "dist") },
});
const done = await Promise.all(checks);
for (const check of done) report(check);

const failed = [vitest, ...done].filter((outcome) => outcome.code !== 0);
if (failed.length > 0) {
  console.log(`\nnpm test failed: ${failed.map((outcome) => outcome.name).join(", ")}.`);
  process.exit(1);
}
console.log("\nnpm test passed: vitest, lint and type check.");
