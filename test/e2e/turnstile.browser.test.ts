/**
 * Cloudflare Turnstile on the public forms, in Chromium, against a worker of its own that has
 * both Turnstile keys (the shared e2e server has none): the page names the site key and its
 * policy admits Turnstile's origin; the first load asks Turnstile for nothing; a visitor's first
 * focus in a form loads Turnstile's script once and renders that form's widget; a submission
 * carries the widget's token, which the worker checks with siteverify before storing anything.
 *
 * Nothing reaches Cloudflare: siteverify is a local stand-in the worker is pointed at, and
 * Turnstile's script is a fake Playwright serves in its place (./turnstile-stand-ins.ts). Every
 * page is checked after each test as in site.browser.test.ts; the only other origin a page may
 * ask is that script's.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { contactForm, waitlistForm } from "../../web/src/form-content";
import { SITE_KEY_META, TURNSTILE_SCRIPT_URL } from "../../web/src/turnstile/names";
import { run, startDevServer, tail, type DevServer } from "../support/dev-server.ts";
import { PAGE_TIMEOUT_MS, cspViolations, launchChromium, watchPage, type PageWatch } from "./browser";
import { listMailbox, uniqueEmail, waitForMail, answerAge, birthFormFields } from "./support";
import { PASSING_TOKEN_PREFIX, fakeTurnstileScript, startSiteverify, type SiteverifyStandIn } from "./turnstile-stand-ins";

const SITE_KEY = "1x00000000000000000000AA";
const SECRET_KEY = "e2e-turnstile-secret";
const TURNSTILE_ORIGIN = "https://challenges.cloudflare.com";
const DESKTOP = { width: 1280, height: 720 };

let workDir: string | undefined;
let server: DevServer | undefined;
let siteverify: SiteverifyStandIn | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  workDir = mkdtempSync(path.join(os.tmpdir(), "e2e-turnstile-"));
  const siteDir = path.join(workDir, "dist");
  const buildLog = path.join(workDir, "build.log");
  siteverify = await startSiteverify();
  // The current site, built as global-setup.ts builds it for the shared server.
  await run(process.execPath, ["web/build.ts", "--out-dir", siteDir], buildLog, { NODE_ENV: "production" }).catch((error: unknown) => {
    throw new Error(`${(error as Error).message} Its log:\n${tail(buildLog)}`);
  });
  server = await startDevServer({
    assetsDir: siteDir,
    tempPrefix: "e2e-turnstile-server-",
    // Every test posts from 127.0.0.1 (one client to the rate-limit bindings); the limits are the worker tests' business.
    raisedRateLimits: 100_000,
    vars: {
      ENVIRONMENT: "development",
      MAIL_PROVIDER_TOKEN: "",
      AUTH_JWT_SECRET: randomBytes(32).toString("hex"),
      AUTH_ADMIN_KEY: randomBytes(32).toString("base64url"),
      TURNSTILE_SITE_KEY: SITE_KEY,
      TURNSTILE_SECRET_KEY: SECRET_KEY,
      TURNSTILE_VERIFY_URL: siteverify.url,
      NOTIFY_HOURLY_CAP: "100000",
    },
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await siteverify?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const baseUrl = () => {
  if (!server) throw new Error("The Turnstile test server is not running.");
  return server.baseUrl;
};

// ---------------------------------------------------------------------------------------------
// Pages, watched as in site.browser.test.ts

const contexts = new Set<BrowserContext>();
let watches: PageWatch[] = [];
/** Console errors and warnings the running test expects (a refused request logs one). */
let expectedConsole: RegExp[] = [];

beforeEach(() => {
  watches = [];
  expectedConsole = [];
});

afterEach(async () => {
  const open = [...contexts];
  contexts.clear();
  await Promise.all(open.map((ctx) => ctx.close()));
  for (const watch of watches) {
    expect(watch.errors, "uncaught errors in the page").toEqual([]);
    // The fake script stands where Turnstile's would be; nothing else may leave the site.
    expect(
      watch.foreignRequests.filter((url) => url !== TURNSTILE_SCRIPT_URL),
      "requests to other origins",
    ).toEqual([]);
    expect(cspViolations(watch), "Content-Security-Policy violations").toEqual([]);
    const unexpected = watch.console.filter((line) => !expectedConsole.some((pattern) => pattern.test(line)));
    expect(unexpected, "console errors and warnings").toEqual([]);
  }
});

type Tab = { page: Page; watch: PageWatch; turnstileRequests: string[]; widgetChunkRequests: string[] };

/**
 * The home page, started, in a fresh profile whose requests to Turnstile's origin are answered
 * by the fake script (tokens `${tokenPrefix}-...`, which siteverify's stand-in judges by).
 */
async function openHome(tokenPrefix = PASSING_TOKEN_PREFIX): Promise<Tab> {
  if (!browser) throw new Error("The browser is not running.");
  const ctx = await browser.newContext({ viewport: DESKTOP });
  ctx.setDefaultTimeout(PAGE_TIMEOUT_MS);
  contexts.add(ctx);
  const page = await ctx.newPage();
  const watch = watchPage(page, baseUrl());
  watches.push(watch);
  const turnstileRequests: string[] = [];
  const widgetChunkRequests: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === TURNSTILE_ORIGIN) turnstileRequests.push(request.url());
    if (/^\/assets\/widget-[\w-]+\.js$/.test(url.pathname)) widgetChunkRequests.push(url.pathname);
  });
  await page.route(
    (url) => url.origin === TURNSTILE_ORIGIN,
    (route) =>
      route.request().url() === TURNSTILE_SCRIPT_URL
        ? route.fulfill({ status: 200, contentType: "text/javascript", body: fakeTurnstileScript(tokenPrefix) })
        : route.abort(),
  );
  await page.goto(`${baseUrl()}/`);
  await expect
    .poll(() => page.evaluate<boolean>(`document.getElementById("root")?.hasAttribute("data-started") === true`), {
      timeout: 10_000,
      message: "the home page's app never started",
    })
    .toBe(true);
  return { page, watch, turnstileRequests, widgetChunkRequests };
}

type FakeLog = { renders: { id: string; form: string | null; options: Record<string, unknown> }[]; resets: string[]; removes: string[] };

const fakeLog = (page: Page) => page.evaluate<FakeLog | null>("window.__turnstile ?? null");

async function rendersIn(page: Page, count: number): Promise<FakeLog> {
  await expect
    .poll(async () => (await fakeLog(page))?.renders.length ?? 0, { timeout: 10_000, message: `${count} widget(s) rendered` })
    .toBe(count);
  return (await fakeLog(page))!;
}

const isPost = (pathname: string) => (request: Request) => request.method() === "POST" && new URL(request.url()).pathname === pathname;

// ---------------------------------------------------------------------------------------------

describe("the page", () => {
  it("names the site key and admits Turnstile's origin in its policy", async () => {
    const response = await fetch(`${baseUrl()}/`, { signal: AbortSignal.timeout(10_000) });
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy") ?? "";
    const directives = new Map(
      csp.split(";").map((directive) => {
        const [name = "", ...values] = directive.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get("script-src")).toContain(TURNSTILE_ORIGIN);
    expect(directives.get("frame-src")).toEqual([TURNSTILE_ORIGIN]);
    expect(csp).not.toContain("'unsafe-inline'");
    // Under the name the forms read (TURNSTILE_META in worker/shared/public-forms.ts).
    expect(await response.text()).toContain(`<meta name="${SITE_KEY_META}" content="${SITE_KEY}">`);
  });

  it("asks Turnstile for nothing until a form is used, then loads its script once for every form", async () => {
    const { page, turnstileRequests, widgetChunkRequests } = await openHome();
    await page.waitForLoadState("networkidle");
    expect(turnstileRequests, "Turnstile requests on the first load").toEqual([]);
    expect(widgetChunkRequests, "the widget's code on the first load").toEqual([]);
    expect(await page.evaluate<boolean>("typeof window.turnstile === 'undefined'")).toBe(true);

    await page.getByRole("form", { name: "Join the Inner Circle" }).getByRole("textbox", { name: "Email address" }).focus();
    let log = await rendersIn(page, 1);
    expect(log.renders[0]).toEqual({
      id: "fake-widget-1",
      form: "Join the Inner Circle",
      options: {
        sitekey: SITE_KEY,
        callback: "function",
        "expired-callback": "function",
        "error-callback": "function",
        appearance: "interaction-only",
        "response-field": false,
      },
    });

    // Two more forms started: two more widgets, from the one script.
    await page.getByRole("form", { name: "Contact Form" }).getByRole("textbox", { name: "Name", exact: true }).focus();
    await page.getByRole("form", { name: "Get Early Access" }).getByRole("textbox", { name: "Email address" }).focus();
    log = await rendersIn(page, 3);
    expect(log.renders.map((render) => render.form)).toEqual(["Join the Inner Circle", "Contact Form", "Get Early Access"]);
    expect(turnstileRequests).toEqual([TURNSTILE_SCRIPT_URL]);
    expect(widgetChunkRequests).toHaveLength(1);
    expect(await page.locator(`script[src="${TURNSTILE_SCRIPT_URL}"]`).count()).toBe(1);
  });
});

describe("the waitlist", () => {
  it("joins with the widget's token, which the worker has verified; the next join uses a new token", async () => {
    const { page } = await openHome();
    const form = page.getByRole("form", { name: "Join the Inner Circle" });
    const input = form.getByRole("textbox", { name: "Email address" });
    const email = uniqueEmail("turnstile");

    await answerAge(form);
    await input.fill(email);
    const request = page.waitForRequest(isPost("/api/waitlist"));
    const answer = page.waitForResponse((response) => isPost("/api/waitlist")(response.request()));
    await form.getByRole("button", { name: "Join the Inner Circle" }).click();
    const body = (await request).postDataJSON() as Record<string, string>;
    const token = body["cf-turnstile-response"];
    expect(body).toEqual({
      email,
      ...birthFormFields(),
      source: "hero",
      website: "",
      "cf-turnstile-response": expect.stringMatching(/^pass-/),
    });
    expect((await answer).status()).toBe(201);
    await form.getByRole("status").getByText("Success! You're on the list.", { exact: true }).waitFor();
    expect(siteverify!.calls.filter((call) => call.response === token)).toEqual([
      expect.objectContaining({ secret: SECRET_KEY, response: token }),
    ]);
    await waitForMail(baseUrl(), (mail) => mail.title === "New Waitlist Submission" && mail.body_html.includes(email), {
      what: `waitlist notification for ${email}`,
    });

    // Tokens are single-use: the widget was reset, and the next join carries a new one.
    await expect.poll(async () => (await fakeLog(page))?.resets).toEqual(["fake-widget-1"]);
    await form.getByRole("button", { name: "Add another email" }).click();
    await answerAge(form);
    await input.fill(uniqueEmail("turnstile-again"));
    const again = page.waitForRequest(isPost("/api/waitlist"));
    await form.getByRole("button", { name: "Join the Inner Circle" }).click();
    const second = ((await again).postDataJSON() as Record<string, string>)["cf-turnstile-response"];
    expect(second).toMatch(/^pass-/);
    expect(second).not.toBe(token);
    await form.getByRole("status").getByText("Success! You're on the list.", { exact: true }).waitFor();
  });

  it("shows the not-verified sentence for a token Cloudflare refuses, and stores nothing", async () => {
    expectedConsole = [/status of 403/];
    const { page } = await openHome("refused");
    const form = page.getByRole("form", { name: "Get Early Access" });
    const refused = uniqueEmail("refused");

    await answerAge(form);
    await form.getByRole("textbox", { name: "Email address" }).fill(refused);
    const answer = page.waitForResponse((response) => isPost("/api/waitlist")(response.request()));
    await form.getByRole("button", { name: "Get Early Access" }).click();
    const response = await answer;
    expect(response.status()).toBe(403);
    const token = (response.request().postDataJSON() as Record<string, string>)["cf-turnstile-response"];
    expect(token).toMatch(/^refused-/);
    await form.getByRole("alert").getByText(waitlistForm.messages.notVerified, { exact: true }).waitFor();
    expect(await form.getByRole("status").textContent()).toBe("");
    expect(siteverify!.calls.filter((call) => call.response === token)).toHaveLength(1);

    // Stored, it would have been notified at once. A join sent after it is notified; by then
    // the refused one's e-mail would be there too.
    const { page: other } = await openHome();
    const accepted = uniqueEmail("accepted");
    const otherForm = other.getByRole("form", { name: "Get Early Access" });
    await answerAge(otherForm);
    await otherForm.getByRole("textbox", { name: "Email address" }).fill(accepted);
    await otherForm.getByRole("button", { name: "Get Early Access" }).click();
    await otherForm.getByRole("status").getByText("Success! You're on the list.", { exact: true }).waitFor();
    await waitForMail(baseUrl(), (mail) => mail.body_html.includes(accepted), { what: `waitlist notification for ${accepted}` });
    expect((await listMailbox(baseUrl())).filter((mail) => mail.body_html.includes(refused))).toEqual([]);
  });
});

describe("the contact form", () => {
  it("is sent with its own widget's token", async () => {
    const { page } = await openHome();
    const form = page.getByRole("form", { name: "Contact Form" });
    const address = uniqueEmail("turnstile-contact");

    await form.getByRole("textbox", { name: "Name", exact: true }).fill("Ada Lovelace");
    await form.getByRole("textbox", { name: "Email", exact: true }).fill(address);
    await form.getByRole("textbox", { name: "Message", exact: true }).fill("Sent past Turnstile");
    const request = page.waitForRequest(isPost("/api/forms/contact"));
    const answer = page.waitForResponse((response) => isPost("/api/forms/contact")(response.request()));
    await form.getByRole("button", { name: "Send Message" }).click();
    const token = ((await request).postDataJSON() as Record<string, string>)["cf-turnstile-response"];
    expect(token).toMatch(/^pass-/);
    expect((await answer).status()).toBe(201);
    await form.getByRole("status").getByText(contactForm.messages.success, { exact: true }).waitFor();
    expect(siteverify!.calls.filter((call) => call.response === token)).toHaveLength(1);
    const log = await fakeLog(page);
    expect(log?.renders.map((render) => render.form)).toEqual(["Contact Form"]);
  });
});
