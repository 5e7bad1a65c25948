/**
 * Dev loop benchmark (`npm run bench:dev`): how long a change to web/src/content.ts takes to show
 * in the open page, with the dev server (`npm run dev`) and with the old loop (`npm run build`,
 * then reloading the page `npm start` serves).
 *
 * 1. `npm run dev` on a free port (the repository's .dev.vars and local database, as a developer
 *    runs it; its cold start is printed too), the home page open in headless Chromium, a waitlist
 *    address typed into the form (state the page must keep).
 * 2. BENCH_RUNS times (default 5): the hero's eyebrow line in content.ts is replaced by a new
 *    string, and the time from writing the file until the page shows it (a MutationObserver in the
 *    page, then the next animation frame: the frame that paints it) is taken. Then the file is
 *    restored, and the time until the page shows the original line again is taken as well. The
 *    page must not reload meanwhile: no second load event, the typed address still there.
 * 3. The old loop, BENCH_OLD_RUNS times (default 2; 0 skips it): the site built into a temporary
 *    directory and served by `wrangler dev` (as `npm start` serves web/dist), the same edit, then
 *    `node web/build.ts` and a reload, until the page shows the new line.
 *
 * content.ts is always restored to what it was when the benchmark started (also on Ctrl-C).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM_FLAGS, chromiumPathOrExit } from "../support/chromium.ts";
import { ROOT, run, startDevServer, tail, type DevServer } from "../support/dev-server.ts";
import { startNpmDev, type NpmDev } from "../support/npm-dev.ts";
import { positiveInteger } from "./options.ts";

// Before anything is started: with no browser, the help and exit code 1.
const CHROMIUM_PATH = chromiumPathOrExit();
const RUNS = positiveInteger("BENCH_RUNS", 5);
const OLD_RUNS = process.env.BENCH_OLD_RUNS === "0" ? 0 : positiveInteger("BENCH_OLD_RUNS", 2);
/** How long one edit may take to show before the run fails. */
const SHOW_TIMEOUT_MS = 30_000;

const CONTENT_FILE = path.join(ROOT, "web/src/content.ts");
const EYEBROW = "Coming soon: AI homework help for students";
const TYPED_ADDRESS = "dev-loop@example.com";

const original = readFileSync(CONTENT_FILE, "utf8");
const eyebrowLine = `eyebrow: ${JSON.stringify(EYEBROW)},`;
if (original.split(eyebrowLine).length !== 2) throw new Error(`web/src/content.ts should hold the line ${eyebrowLine} once.`);
const withEyebrow = (text: string) => original.replace(eyebrowLine, `eyebrow: ${JSON.stringify(text)},`);
const restore = () => {
  if (readFileSync(CONTENT_FILE, "utf8") !== original) writeFileSync(CONTENT_FILE, original);
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    restore();
    process.exit(130);
  });
}

/**
 * Page code (a string: the tests and benchmarks are type-checked without the DOM library) that
 * resolves with Date.now() at the animation frame after the page's text first contains `text`.
 */
function whenShown(text: string): string {
  return `new Promise((resolve) => {
    const shown = () => document.body.textContent.includes(${JSON.stringify(text)});
    const done = () => requestAnimationFrame(() => resolve(Date.now()));
    if (shown()) return done();
    const observer = new MutationObserver(() => {
      if (shown()) { observer.disconnect(); done(); }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  })`;
}

/** Writes content.ts and resolves with the milliseconds until the page showed `expected`. */
async function editToScreen(page: Page, text: string, expected = text): Promise<number> {
  const shown = page.evaluate(whenShown(expected)) as Promise<number>;
  const written = Date.now();
  writeFileSync(CONTENT_FILE, text === EYEBROW ? original : withEyebrow(text));
  const at = await Promise.race([
    shown,
    sleep(SHOW_TIMEOUT_MS).then(() => Promise.reject(new Error(`"${expected}" did not show within ${SHOW_TIMEOUT_MS / 1000} s.`))),
  ]);
  return at - written;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const ms = (value: number) => `${Math.round(value)} ms`;
const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
const summary = (values: number[], format: (value: number) => string) =>
  `median ${format(median(values))} (min ${format(Math.min(...values))}, max ${format(Math.max(...values))}; each: ${values.map(format).join(", ")})`;

async function devLoop(browser: Browser): Promise<void> {
  console.log("Starting npm run dev…");
  let dev: NpmDev | undefined;
  try {
    dev = await startNpmDev({ keepLog: true });
    console.log(`  npm run dev answered /api/health ${seconds(dev.startupMs)} after its start (log: ${dev.logFile})`);
    const page = await browser.newPage();
    let loads = 0;
    page.on("load", () => (loads += 1));
    const opened = Date.now();
    await page.goto(`${dev.baseUrl}/`);
    await page.waitForSelector("#root[data-started]", { timeout: 60_000 });
    console.log(
      `  home page started ${seconds(Date.now() - opened)} after the first navigation (Vite transforms the modules on first request)`,
    );
    await page.locator('input[type="email"]').first().fill(TYPED_ADDRESS);
    const loadsBefore = loads;

    const edits: number[] = [];
    const reverts: number[] = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const text = `Dev loop edit ${run}: ${Math.random().toString(36).slice(2, 8)}`;
      edits.push(await editToScreen(page, text));
      reverts.push(await editToScreen(page, EYEBROW));
      await sleep(300);
    }
    const kept = (await page.locator('input[type="email"]').first().inputValue()) === TYPED_ADDRESS;
    const reloaded = loads !== loadsBefore;

    console.log(`\nDev loop (npm run dev), ${RUNS} edits of web/src/content.ts:`);
    console.log(`  edit to screen:   ${summary(edits, ms)}`);
    console.log(`  revert to screen: ${summary(reverts, ms)}`);
    console.log(
      `  page reloaded: ${reloaded ? "YES (FAIL: fast refresh fell back to a full reload)" : "no"}; typed address kept: ${kept ? "yes" : "NO (FAIL)"}`,
    );
    if (reloaded || !kept) process.exitCode = 1;
  } catch (error) {
    if (dev) console.error(`npm run dev's output:\n${tail(dev.logFile)}`);
    throw error;
  } finally {
    restore();
    await dev?.stop();
    if (dev) rmSync(path.dirname(dev.logFile), { recursive: true, force: true });
  }
}

async function oldLoop(browser: Browser): Promise<void> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "bench-dev-loop-"));
  const siteDir = path.join(workDir, "dist");
  const buildLog = path.join(workDir, "build.log");
  const build = () => run(process.execPath, ["web/build.ts", "--out-dir", siteDir], buildLog, { NODE_ENV: "production" });
  let server: DevServer | undefined;
  try {
    console.log("\nOld loop: building the site and starting wrangler dev on it…");
    await build();
    server = await startDevServer({
      assetsDir: siteDir,
      tempPrefix: "bench-dev-loop-server-",
      vars: { ENVIRONMENT: "development", MAIL_PROVIDER_TOKEN: "" },
    });
    const page = await browser.newPage();
    await page.goto(`${server.baseUrl}/`);
    await page.waitForSelector("#root[data-started]", { timeout: 60_000 });

    const builds: number[] = [];
    const totals: number[] = [];
    for (let run = 1; run <= OLD_RUNS; run += 1) {
      const text = `Old loop edit ${run}: ${Math.random().toString(36).slice(2, 8)}`;
      const written = Date.now();
      writeFileSync(CONTENT_FILE, withEyebrow(text));
      await build();
      builds.push(Date.now() - written);
      // wrangler dev notices the new files on its own; until it has, a reload may still get the old page.
      for (;;) {
        await page.reload({ waitUntil: "load" });
        if ((await page.evaluate(`document.body.textContent.includes(${JSON.stringify(text)})`)) === true) break;
        if (Date.now() - written > SHOW_TIMEOUT_MS) throw new Error(`"${text}" did not show within ${SHOW_TIMEOUT_MS / 1000} s.`);
        await sleep(100);
      }
      totals.push(Date.now() - written);
      restore();
    }
    console.log(`Old loop (npm run build, then a reload of npm start's page), ${OLD_RUNS} edits:`);
    console.log(`  build:            ${summary(builds, seconds)}`);
    console.log(
      `  edit to screen:   ${summary(totals, seconds)} (the reload at once after the build; a person adds their own reaction time)`,
    );
  } catch (error) {
    console.error(`Build log:\n${tail(buildLog)}`);
    if (server) console.error(`wrangler dev's log:\n${tail(server.logFile)}`);
    throw error;
  } finally {
    restore();
    await server?.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
try {
  await devLoop(browser);
  if (OLD_RUNS > 0) await oldLoop(browser);
} finally {
  restore();
  await browser.close();
}
