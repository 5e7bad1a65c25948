/**
 * Web benchmark (`npm run bench:web`): Lighthouse on the home page, with a bare page as the floor.
 *
 * It builds the site (prerendered home page) into a temporary directory, adds floor.html there
 * (a bare static HTML page with the same headline and nothing else), serves both with
 * `wrangler dev` (the worker and its static assets, as deployed, on a fresh local database), and
 * runs Lighthouse (the npm package, with the Chromium test/support/chromium.ts finds) three times on each, mobile
 * defaults (simulated slow 4G and 4x CPU slowdown). For each page it prints the median run by
 * performance score: the four category scores, FCP, LCP, TBT, CLS, the number of requests, and
 * the gzip size of the JavaScript and CSS the page loaded (each file fetched again and gzipped
 * here at level 9, so the figure does not depend on the server's compression level). Then the
 * targets. wrangler dev serves the files as the edge does: gzip-compressed, with the _headers
 * file applied.
 *
 * Then "form usable": on a slow 3G profile (400 kbit/s each way, 400 ms round trip, CPU 4x
 * slower, through the DevTools protocol in playwright-core's Chromium), the time from the start
 * of navigation until a waitlist submission is accepted by the server, typed and sent as soon as
 * the form is on screen (whether the app has started or not), next to the first paint of the
 * same load. The server's per-client limits are raised for this part (every load comes from
 * 127.0.0.1).
 *
 * Missed targets print FAIL but do not fail the run; a Lighthouse error does (exit code 1).
 * Options (env): BENCH_RUNS (default 3, also the form-usable runs), BENCH_KEEP_REPORTS=dir keeps
 * the JSON reports.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { buildSite } from "../../web/build.ts";
import { CHROMIUM_FLAGS, chromiumPathOrExit } from "../support/chromium.ts";
import { randomBytes } from "node:crypto";
import { startDevServer, type DevServer } from "../support/dev-server.ts";
import { positiveInteger } from "./options.ts";

// Before anything is built or started: with no browser, the help and exit code 1.
const CHROMIUM_PATH = chromiumPathOrExit();
const RUNS = positiveInteger("BENCH_RUNS", 3);
const KEEP_REPORTS = process.env.BENCH_KEEP_REPORTS;

const TARGETS = {
  performance: 98,
  accessibility: 100,
  "best-practices": 100,
  seo: 100,
  cls: 0,
  /** The home page's TBT: at most this, or the floor's own TBT + tbtOverFloorMs when the floor measures above tbtFloorNoiseMs. */
  tbtMs: 50,
  tbtFloorNoiseMs: 25,
  tbtOverFloorMs: 25,
  lcpVsFloor: 1.15,
  gzipJsKb: 90,
};

/** The slow 3G profile of issue 9: 400 kbit/s each way, 400 ms round trip, a 4x slower CPU. */
const SLOW_3G = { latency: 400, downloadThroughput: (400 * 1000) / 8, uploadThroughput: (400 * 1000) / 8, cpuSlowdown: 4 };

/** The TBT the home page may have, given the floor's: 50 ms, or the floor's + 25 ms on a machine where even the floor blocks. */
function tbtLimit(floorTbtMs: number): number {
  return floorTbtMs > TARGETS.tbtFloorNoiseMs ? floorTbtMs + TARGETS.tbtOverFloorMs : TARGETS.tbtMs;
}

// ---------------------------------------------------------------------------------------------
// The pages

/** The prerendered home page's headline (its first h1), as the built index.html shows it. */
function headlineOf(indexHtml: string): string {
  const match = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(indexHtml);
  if (!match) throw new Error("The built index.html has no prerendered <h1>.");
  return match[1]!.replace(/<[^>]+>/g, "").trim();
}

/** The floor: what the browser needs at the very least to show the headline. */
function floorPage(headline: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${headline}</title>
<meta name="description" content="${headline}">
</head>
<body>
<main><h1>${headline}</h1></main>
</body>
</html>
`;
}

// ---------------------------------------------------------------------------------------------
// Lighthouse

type Category = "performance" | "accessibility" | "best-practices" | "seo";
const CATEGORIES: Category[] = ["performance", "accessibility", "best-practices", "seo"];

type NetworkRequest = { url: string; resourceType?: string; statusCode?: number };

type Result = {
  scores: Record<Category, number>;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  requests: NetworkRequest[];
  failedAudits: string[];
};

async function runLighthouse(url: string, port: number): Promise<{ result: Result; json: string }> {
  const runnerResult = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: CATEGORIES });
  if (!runnerResult) throw new Error(`Lighthouse returned nothing for ${url}.`);
  const lhr = runnerResult.lhr;
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const numeric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (typeof value !== "number") throw new Error(`Lighthouse gave no ${id} for ${url}.`);
    return value;
  };
  const scores = Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)])) as Record<
    Category,
    number
  >;
  const details = lhr.audits["network-requests"]?.details as { items?: NetworkRequest[] } | undefined;
  const failedAudits = Object.values(lhr.categories)
    .filter((category) => category.id !== "performance")
    .flatMap((category) => category.auditRefs)
    .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
    .map((ref) => `${ref.id}: ${lhr.audits[ref.id]?.title}`);
  return {
    result: {
      scores,
      fcpMs: numeric("first-contentful-paint"),
      lcpMs: numeric("largest-contentful-paint"),
      tbtMs: numeric("total-blocking-time"),
      cls: numeric("cumulative-layout-shift"),
      requests: details?.items ?? [],
      failedAudits,
    },
    json: String(runnerResult.report),
  };
}

/** The middle run by performance score (ties: the middle LCP), as Lighthouse's own CLI advises. */
function medianRun(results: Result[]): Result {
  const sorted = [...results].sort((a, b) => a.scores.performance - b.scores.performance || a.lcpMs - b.lcpMs);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** gzip -9 bytes of every script and stylesheet the page loaded. */
async function gzipBytes(requests: NetworkRequest[], type: "Script" | "Stylesheet"): Promise<{ files: number; bytes: number }> {
  const urls = [...new Set(requests.filter((request) => request.resourceType === type).map((request) => request.url))];
  let bytes = 0;
  for (const url of urls) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    bytes += gzipSync(body, { level: 9 }).length;
  }
  return { files: urls.length, bytes };
}

// ---------------------------------------------------------------------------------------------
// Output

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${Math.round(value)} ms`;
const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");

/** gzip -9 bytes of the CSS inlined in the page's HTML (<style> elements), which the build puts there. */
async function inlineCssBytes(url: string): Promise<{ elements: number; bytes: number }> {
  const html = await (await fetch(url)).text();
  const styles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]!);
  return { elements: styles.length, bytes: styles.reduce((sum, css) => sum + gzipSync(Buffer.from(css), { level: 9 }).length, 0) };
}

async function describe(name: string, url: string, result: Result) {
  const js = await gzipBytes(result.requests, "Script");
  const css = await gzipBytes(result.requests, "Stylesheet");
  const inline = await inlineCssBytes(url);
  console.log(`\n${name}`);
  console.log(
    `  scores       performance ${result.scores.performance}  accessibility ${result.scores.accessibility}  best practices ${result.scores["best-practices"]}  SEO ${result.scores.seo}`,
  );
  console.log(`  metrics      FCP ${ms(result.fcpMs)}  LCP ${ms(result.lcpMs)}  TBT ${ms(result.tbtMs)}  CLS ${result.cls.toFixed(3)}`);
  console.log(`  requests     ${result.requests.length}`);
  console.log(
    `  gzip         JavaScript ${kb(js.bytes)} in ${js.files} file(s)  CSS ${kb(css.bytes + inline.bytes)} (${css.files} file(s), ${inline.elements} inline <style>)`,
  );
  for (const audit of result.failedAudits) console.log(`  not passed   ${audit}`);
  return { js, css };
}

// ---------------------------------------------------------------------------------------------
// Form usable

type FormUsable = { firstPaintMs: number; acceptedMs: number; hydratedBeforeSubmit: boolean };

/**
 * One load of the home page on the slow 3G profile: fills the hero's e-mail field and age question and submits
 * the moment the form is on screen, and measures from the start of navigation until the server
 * accepts the join (its answer arrives), and until the first paint.
 */
async function measureFormUsable(baseUrl: string, run: number): Promise<FormUsable> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: SLOW_3G.latency,
      downloadThroughput: SLOW_3G.downloadThroughput,
      uploadThroughput: SLOW_3G.uploadThroughput,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: SLOW_3G.cpuSlowdown });

    const accepted = page.waitForResponse((response) => response.url() === `${baseUrl}/api/waitlist` && response.status() < 300, {
      timeout: 60_000,
    });
    const started = Date.now();
    await page.goto(`${baseUrl}/`, { waitUntil: "commit", timeout: 60_000 });
    const form = page.locator('form[aria-label="Join the Inner Circle"]');
    await form.locator('input[type="email"]').fill(`bench-usable-${Date.now()}-${run}@bench.example`, { timeout: 60_000 });
    // The neutral age question (issue 23), answered as an adult.
    await form.locator('select[name="birth_month"]').selectOption("1", { timeout: 60_000 });
    await form.locator('select[name="birth_year"]').selectOption("1990", { timeout: 60_000 });
    // The first paint of this load (relative to its navigation), read before the submit may
    // navigate away to the server's answer page.
    let firstPaintMs = NaN;
    for (let tries = 0; Number.isNaN(firstPaintMs) && tries < 100; tries += 1) {
      firstPaintMs = Number(await page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN"));
      if (Number.isNaN(firstPaintMs)) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Whether the app had taken over when the visitor pressed the button (main.tsx marks #root
    // data-started once it runs).
    const hydratedBeforeSubmit = await page.evaluate("document.getElementById('root')?.hasAttribute('data-started') === true");
    await form.locator('button[type="submit"]').click({ timeout: 60_000 });
    await accepted;
    const acceptedMs = Date.now() - started;
    return { firstPaintMs, acceptedMs, hydratedBeforeSubmit: hydratedBeforeSubmit === true };
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "bench-web-"));
  const siteDir = path.join(workDir, "dist");
  let server: DevServer | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    console.log("Building the site...");
    await buildSite(siteDir);
    writeFileSync(path.join(siteDir, "floor.html"), floorPage(headlineOf(readFileSync(path.join(siteDir, "index.html"), "utf8"))));

    console.log("Starting wrangler dev...");
    server = await startDevServer({
      assetsDir: siteDir,
      tempPrefix: "bench-web-server-",
      // Every load comes from 127.0.0.1: the form-usable runs must not meet the per-client limit
      // (wrangler.toml's rate-limit bindings, raised for this server).
      raisedRateLimits: 100_000,
      // The join keys its journey (the mailbox's keyed hash) with the server secret, as deployed.
      vars: {
        ENVIRONMENT: "development",
        MAIL_PROVIDER_TOKEN: "",
        AUTH_JWT_SECRET: randomBytes(32).toString("hex"),
      },
    });
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS });

    const pages = [
      { name: "Home page (/)", url: `${server.baseUrl}/` },
      { name: "Floor (bare HTML with the same headline)", url: `${server.baseUrl}/floor.html` },
    ];
    // Warm-up: the first load compiles the worker's code paths and fills caches.
    for (const page of pages) await fetch(page.url);

    const medians: Result[] = [];
    for (const page of pages) {
      const results: Result[] = [];
      for (let run = 1; run <= RUNS; run += 1) {
        console.log(`Lighthouse ${page.name}, run ${run} of ${RUNS}...`);
        const { result, json } = await runLighthouse(page.url, Number(chrome.port));
        results.push(result);
        if (KEEP_REPORTS) {
          mkdirSync(KEEP_REPORTS, { recursive: true });
          writeFileSync(path.join(KEEP_REPORTS, `${page.url.endsWith("floor.html") ? "floor" : "home"}-${run}.json`), json);
        }
      }
      medians.push(medianRun(results));
    }

    const [homeRun, floorRun] = medians as [Result, Result];
    console.log(
      `\nLighthouse ${RUNS} run(s) per page, mobile defaults, median run by performance score; served by wrangler dev on 127.0.0.1.`,
    );
    const homeAssets = await describe(pages[0]!.name, pages[0]!.url, homeRun);
    await describe(pages[1]!.name, pages[1]!.url, floorRun);

    const lcpRatio = homeRun.lcpMs / floorRun.lcpMs;
    const checks: [string, boolean][] = [
      [`performance ${homeRun.scores.performance} >= ${TARGETS.performance}`, homeRun.scores.performance >= TARGETS.performance],
      [`accessibility ${homeRun.scores.accessibility} = ${TARGETS.accessibility}`, homeRun.scores.accessibility >= TARGETS.accessibility],
      [
        `best practices ${homeRun.scores["best-practices"]} = ${TARGETS["best-practices"]}`,
        homeRun.scores["best-practices"] >= TARGETS["best-practices"],
      ],
      [`SEO ${homeRun.scores.seo} = ${TARGETS.seo}`, homeRun.scores.seo >= TARGETS.seo],
      [`CLS ${homeRun.cls.toFixed(3)} = ${TARGETS.cls}`, homeRun.cls <= TARGETS.cls],
      [
        `TBT ${ms(homeRun.tbtMs)} <= ${ms(tbtLimit(floorRun.tbtMs))} (${floorRun.tbtMs > TARGETS.tbtFloorNoiseMs ? `the floor's ${ms(floorRun.tbtMs)} + ${TARGETS.tbtOverFloorMs} ms` : `${TARGETS.tbtMs} ms`})`,
        homeRun.tbtMs <= tbtLimit(floorRun.tbtMs),
      ],
      [
        `LCP ${ms(homeRun.lcpMs)} is ${lcpRatio.toFixed(2)}x the floor's ${ms(floorRun.lcpMs)} (<= ${TARGETS.lcpVsFloor}x)`,
        lcpRatio <= TARGETS.lcpVsFloor,
      ],
      [`gzipped JavaScript ${kb(homeAssets.js.bytes)} <= ${TARGETS.gzipJsKb} KB`, homeAssets.js.bytes <= TARGETS.gzipJsKb * 1024],
    ];
    console.log("\nTargets (home page)");
    for (const [label, ok] of checks) console.log(`  ${verdict(ok)}  ${label}`);

    console.log(`\nForm usable: slow 3G (400 kbit/s, ${SLOW_3G.latency} ms RTT), CPU ${SLOW_3G.cpuSlowdown}x, ${RUNS} load(s)`);
    const usable: FormUsable[] = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const result = await measureFormUsable(server.baseUrl, run);
      usable.push(result);
      console.log(
        `  run ${run}: first paint ${ms(result.firstPaintMs)}, join accepted ${ms(result.acceptedMs)} after navigation (${result.hydratedBeforeSubmit ? "the app had started" : "sent by the page itself, before the app started"})`,
      );
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    console.log(
      `  median: first paint ${ms(median(usable.map((run) => run.firstPaintMs)))}, join accepted ${ms(median(usable.map((run) => run.acceptedMs)))}`,
    );
  } finally {
    await chrome?.kill();
    await server?.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
