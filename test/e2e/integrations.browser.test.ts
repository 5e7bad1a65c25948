/**
 * The console's Integrations (issue 25 §1) in headless Chromium against the worker under wrangler
 * dev: an operator signs in, adds a Standard Webhooks endpoint pointing at a receiver this test
 * runs on 127.0.0.1 (development's one exception to https), copies nothing but reads the secret
 * shown once, sends a test event and sees the receiver's status and answer (the receiver checks
 * the signature with the standardwebhooks package); a visitor joins, the receiver gets the signed
 * waitlist.joined event and the operator sees the delivery in the endpoint's recent deliveries.
 * Also: axe-core on the endpoint's screen, and no page-level sideways scrolling at 360 px.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { admin } from "../../web/src/admin/content";
import { integrations as text } from "../../web/src/admin/integrations-content";
import { waitlistForm } from "../../web/src/form-content";
import { CONSOLE_PATH } from "../../web/src/routes";
import { axeViolations, cspViolations, describeViolations, useBrowser } from "./browser";
import { signInToConsole } from "./console-sign-in";
import { answerAge, uniqueEmail } from "./support";

const baseUrl = inject("baseUrl");
const { newContext, newTab, watches } = useBrowser(baseUrl);

/** This file's operator (OPERATOR_EMAILS in test/e2e/global-setup.ts: one per console file, each signing in within the code cooldown). */
const OPERATOR = "integrations-operator@example.com";
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 740 };
const ANSWER = "thanks from the e2e receiver";

// ---------------------------------------------------------------------------------------------
// The receiver: every request it got, answered 200 with a short text.

type Received = { headers: IncomingHttpHeaders; body: string; path: string };
let receiver: Server;
let received: Received[] = [];
let receiverUrl = "";
/** Endpoints added so far: each gets a path of its own at the receiver. */
let endpoints = 0;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), path: request.url ?? "" });
      response.writeHead(200, { "Content-Type": "text/plain" });
      response.end(ANSWER);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** Console lines the running test expects (the browser logs the refused address's 400). */
let expectedConsole: RegExp[] = [];

beforeEach(() => {
  expectedConsole = [];
});

afterEach(() => {
  for (const watch of watches()) {
    expect(watch.errors, "uncaught errors in the page").toEqual([]);
    expect(watch.foreignRequests, "requests to other origins").toEqual([]);
    expect(cspViolations(watch), "Content-Security-Policy violations").toEqual([]);
    const unexpected = watch.console.filter((line) => !expectedConsole.some((pattern) => pattern.test(line)));
    expect(unexpected, "console errors and warnings").toEqual([]);
  }
});

/** The requests the receiver got, checked against the secret with the standardwebhooks package. */
/**
 * What reached `path` (one endpoint's own: the dev server is shared with the other e2e files, whose
 * joins reach every endpoint wanting waitlist.joined), each verified with that endpoint's secret.
 */
function verified(secret: string, path: string): { type: string; data: Record<string, unknown>; id: string }[] {
  const hook = new Webhook(secret);
  return received
    .filter((request) => request.path === path)
    .map(({ headers, body }) => {
      const payload = hook.verify(body, {
        "webhook-id": String(headers["webhook-id"]),
        "webhook-timestamp": String(headers["webhook-timestamp"]),
        "webhook-signature": String(headers["webhook-signature"]),
      }) as { type: string; data: Record<string, unknown> };
      return { ...payload, id: String(headers["webhook-id"]) };
    });
}

// ---------------------------------------------------------------------------------------------
// Helpers (as test/e2e/admin.browser.test.ts's)

async function operatorConsole(ctx: BrowserContext): Promise<Page> {
  const { page } = await newTab(ctx);
  await signInToConsole(page, baseUrl, OPERATOR);
  await page.goto(`${baseUrl}${CONSOLE_PATH}`);
  await page.getByRole("heading", { level: 1, name: admin.title }).waitFor();
  return page;
}

async function joinAsVisitor(email: string): Promise<void> {
  const ctx = await newContext({ viewport: DESKTOP });
  const { page } = await newTab(ctx);
  await page.goto(`${baseUrl}/?utm_source=e2e-hooks#/`);
  await expect
    .poll(() => page.evaluate<boolean>(`document.getElementById("root")?.hasAttribute("data-started") === true`), { timeout: 10_000 })
    .toBe(true);
  const form = page.getByRole("form", { name: waitlistForm.defaultLabel });
  await answerAge(form);
  await form.getByRole("textbox", { name: waitlistForm.emailLabel }).fill(email);
  await form.getByRole("button", { name: waitlistForm.defaultLabel }).click();
  await form.getByRole("status").getByText(waitlistForm.successTitle, { exact: true }).waitFor();
  await ctx.close();
}

const PAGE_OVERFLOW = `(() => {
  const root = document.documentElement;
  return root.scrollWidth > root.clientWidth ? root.scrollWidth : 0;
})()`;

// ---------------------------------------------------------------------------------------------

/** Opens the console's Integrations, adds a Standard endpoint to the receiver, and reads its secret (shown once). */
async function addEndpoint(
  page: Page,
  name: string,
  options: { refusedFirst?: boolean } = {},
): Promise<{ section: Locator; secret: string; path: string }> {
  const path = `/hooks/e2e/${++endpoints}`;
  await page.getByRole("navigation", { name: admin.nav.label }).getByRole("link", { name: admin.nav.integrations }).click();
  const section = page.getByRole("region", { name: text.title, exact: true });
  await section.getByRole("button", { name: text.add }).click();
  await section.getByRole("textbox", { name: text.form.name }).fill(name);
  const url = section.getByRole("textbox", { name: text.form.url });
  if (options.refusedFirst) {
    // An address in a private network: the server refuses it (a 400, which the browser logs), and says why at the field.
    expectedConsole.push(/status of 400/);
    await url.fill("https://10.0.0.7/hook");
    await section.getByRole("button", { name: text.form.create }).click();
    await expect.poll(() => url.getAttribute("aria-invalid")).toBe("true");
    const described = (await url.getAttribute("aria-describedby")) ?? "";
    const said = await Promise.all(described.split(" ").map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(said.join(" ")).toMatch(/private|reserved|not allowed|refused/i);
    await expectNoAxe(page, "the add form with a refused address");
  }
  await url.fill(`${receiverUrl}${path}`);
  // waitlist.joined is checked to begin with.
  expect(await section.getByRole("checkbox", { name: /waitlist\.joined/ }).isChecked()).toBe(true);
  await section.getByRole("button", { name: text.form.create }).click();
  await section.getByRole("heading", { name, level: 3 }).waitFor();
  const secret = await section.getByRole("textbox", { name: text.secret.label }).inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
  await section.getByText(text.secret.once).waitFor();
  return { section, secret, path };
}

describe("the console's integrations", () => {
  it("an operator adds an endpoint (its secret shown once) and sends a test event the receiver verifies", async () => {
    received = [];
    const ctx = await newContext({ viewport: DESKTOP });
    const page = await operatorConsole(ctx);
    const name = `E2E test ${Date.now()}`;
    const { section, secret, path } = await addEndpoint(page, name, { refusedFirst: true });

    // A test event: the receiver's status and the first bytes of its answer; its signature checks out.
    await section.getByRole("button", { name: text.actions.test }).click();
    await section.getByText(/The receiver answered 200 in/).waitFor();
    await section.getByText(ANSWER, { exact: true }).waitFor();
    const tests = verified(secret, path).filter((event) => event.type === "webhook.test");
    expect(tests).toHaveLength(1);
    await expectNoAxe(page, "an endpoint's screen with its secret and a test's answer");

    // At a phone's width the page does not scroll sideways.
    await page.setViewportSize(PHONE);
    expect(await page.evaluate<number>(PAGE_OVERFLOW)).toBe(0);
    await expectNoAxe(page, "an endpoint's screen at 360 px");

    // Leaving the endpoint forgets its secret: opened again, it is not shown.
    await section.getByRole("button", { name: text.back }).click();
    await section.getByRole("table", { name: text.list.caption }).waitFor();
    await section.getByRole("button", { name: text.list.open(name) }).click();
    await section.getByRole("button", { name: text.actions.test }).waitFor();
    expect(await section.getByRole("textbox", { name: text.secret.label }).count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
  });

  it("a visitor's join reaches the receiver, signed, and the operator sees the delivery", async () => {
    received = [];
    const ctx = await newContext({ viewport: DESKTOP });
    const page = await operatorConsole(ctx);
    const { section, secret, path } = await addEndpoint(page, `E2E joins ${Date.now()}`);

    const email = uniqueEmail("hooks");
    await joinAsVisitor(email);
    const joinedEvent = () => verified(secret, path).find((event) => event.type === "waitlist.joined" && event.data.email === email);
    await expect.poll(() => joinedEvent() !== undefined, { timeout: 30_000, interval: 500 }).toBe(true);
    const id = joinedEvent()?.id ?? "";
    expect(id).toMatch(/^msg_/);

    const deliveries = section.getByRole("table", { name: text.deliveries.caption });
    await expect
      .poll(
        async () => {
          await section.getByRole("button", { name: text.refresh }).click();
          await section.getByRole("status").getByText(text.refreshed).first().waitFor();
          return deliveries.getByText(id, { exact: true }).count();
        },
        { timeout: 15_000, interval: 1_000 },
      )
      .toBe(1);
    const row = deliveries.getByRole("row").filter({ hasText: id });
    expect(await row.getByText(/\b200\b/).count()).toBe(1);
    expect(await row.getByText(text.deliveries.status.delivered).count()).toBe(1);
  });
});

async function expectNoAxe(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `axe-core on ${what}:\n${describeViolations(violations)}`).toEqual([]);
}
