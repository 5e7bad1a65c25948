/**
 * Headless Chromium for the e2e browser tests (the one test/support/chromium.ts finds, through playwright-core):
 * one browser per test worker, a fresh context (profile) per test, pages watched for what a test
 * should fail on, and the axe-core accessibility check.
 *
 * Page code is passed as strings ("expressions"): these tests are type-checked without the DOM
 * library. page.evaluate runs them through the DevTools protocol, which the page's
 * Content-Security-Policy does not restrict; page.waitForFunction with a string, or
 * page.addScriptTag, would be refused by it (no 'unsafe-eval', no inline scripts).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page, type Response } from "playwright-core";
import { afterEach, beforeAll, beforeEach } from "vitest";
import { CHROMIUM_FLAGS, chromiumPath } from "../support/chromium.ts";

/** How long a test waits for anything in a page before failing. */
export const PAGE_TIMEOUT_MS = 15_000;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: CHROMIUM_FLAGS,
  });
}

let shared: Promise<Browser> | undefined;

/**
 * The browser of this test worker. The e2e project does not isolate its files (vitest.config.ts),
 * so the files a worker runs one after the other share it instead of each starting one (a second
 * or more each); every test still gets a new profile (newContext). Playwright closes it when the
 * worker ends.
 */
function sharedBrowser(): Promise<Browser> {
  shared ??= launchChromium().then((browser) => {
    browser.on("disconnected", () => {
      shared = undefined;
    });
    return browser;
  });
  return shared;
}

/** What a page did that a test may fail on. */
export type PageWatch = {
  /** Uncaught errors (pageerror). */
  errors: string[];
  /** Requests to any other origin than the server under test. */
  foreignRequests: string[];
  /** Console errors and warnings, as "error: text" (Chromium logs CSP refusals here too). */
  console: string[];
};

/** Starts watching a page; call before it loads anything. */
export function watchPage(page: Page, baseUrl: string): PageWatch {
  const watch: PageWatch = { errors: [], foreignRequests: [], console: [] };
  page.on("pageerror", (error) => watch.errors.push(error.message));
  page.on("request", (request) => {
    if (!request.url().startsWith(`${baseUrl}/`)) watch.foreignRequests.push(request.url());
  });
  page.on("console", (message) => {
    const type = message.type();
    if (type === "error" || type === "warning") watch.console.push(`${type}: ${message.text()}`);
  });
  return watch;
}

/** The console lines of a watch that report a Content-Security-Policy violation. */
export function cspViolations(watch: PageWatch): string[] {
  return watch.console.filter((line) => /Refused to|Content Security Policy/i.test(line));
}

export type Tab = { page: Page; watch: PageWatch };

export type BrowserSession = {
  /** A new browser profile for the running test, closed after it, with the page timeout set. */
  newContext: (options?: BrowserContextOptions) => Promise<BrowserContext>;
  /** A watched page that has not loaded anything yet (for routes or init scripts set before loading). */
  newTab: (ctx: BrowserContext) => Promise<Tab>;
  /** A watched page showing `hashPath` (e.g. "/login") once its page is in, and the answer to its load. */
  openTab: (ctx: BrowserContext, hashPath: string) => Promise<Tab & { response: Response | null }>;
  /** The watches of every page opened in the running test so far. */
  watches: () => readonly PageWatch[];
};

/**
 * Registers the hooks of a browser test file (the worker's browser before all, each test's
 * contexts closed after it) and returns what its tests use. Call once, at the top level.
 */
export function useBrowser(baseUrl: string): BrowserSession {
  let browser: Browser | undefined;
  const contexts = new Set<BrowserContext>();
  let watches: PageWatch[] = [];

  beforeAll(async () => {
    browser = await sharedBrowser();
  });

  beforeEach(() => {
    watches = [];
  });

  afterEach(async () => {
    const open = [...contexts];
    contexts.clear();
    await Promise.all(open.map((ctx) => ctx.close()));
  });

  async function newContext(options?: BrowserContextOptions): Promise<BrowserContext> {
    if (!browser) throw new Error("The browser is not running: call useBrowser() at the top level of the test file.");
    const ctx = await browser.newContext(options);
    ctx.setDefaultTimeout(PAGE_TIMEOUT_MS);
    contexts.add(ctx);
    return ctx;
  }

  async function newTab(ctx: BrowserContext): Promise<Tab> {
    const page = await ctx.newPage();
    const watch = watchPage(page, baseUrl);
    watches.push(watch);
    return { page, watch };
  }

  async function openTab(ctx: BrowserContext, hashPath: string): Promise<Tab & { response: Response | null }> {
    const tab = await newTab(ctx);
    const response = await tab.page.goto(`${baseUrl}/#${hashPath}`);
    // Until the start script has put a deep link's page in, the prerendered home page is still in
    // the document (hidden: html[data-route-pending]), and a locator could find its fields.
    await tab.page.locator("html:not([data-route-pending])").waitFor({ state: "attached" });
    return { ...tab, response };
  }

  return { newContext, newTab, openTab, watches: () => watches };
}

// ---------------------------------------------------------------------------------------------
// Accessibility

/** The rule sets every page must pass: WCAG 2.0 and 2.1, levels A and AA, and axe's best practices. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] as const;

export type AxeViolation = {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
};

let axeSource: string | undefined;

/**
 * Runs axe-core on the page as it is now and returns the violations. axe is put into the page
 * with page.evaluate, which the page's CSP does not apply to (a <script> tag would be refused).
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  if (!(await page.evaluate<boolean>("typeof window.axe === 'object'"))) await page.evaluate(axeSource);
  return page.evaluate<AxeViolation[]>(
    `axe.run(document, { runOnly: { type: "tag", values: ${JSON.stringify(AXE_TAGS)} } }).then((results) =>
      results.violations.map(({ id, impact, help, nodes }) =>
        ({ id, impact, help, nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })) })))`,
  );
}

/** Violations as lines a failing assertion can show: rule, impact, what to fix, and where. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map(
      (violation) =>
        `${violation.id} (${violation.impact ?? "no impact"}): ${violation.help}\n` +
        violation.nodes
          .map((node) => `  at ${JSON.stringify(node.target)}${node.failureSummary ? `: ${node.failureSummary.replace(/\s+/g, " ")}` : ""}`)
          .join("\n"),
    )
    .join("\n");
}
