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
import type { BrowserContext, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { admin } from "../../web/src/admin/content";
import { integrations as text } from "../../web/src/admin/integrations-content";
import { LOGIN_URL } from "../../web/src/admin/session";
import { waitlistForm } from "../../web/src/form-content";
import { login } from "../../web/src/pages/login/content";
import { CONSOLE_PATH } from "../../web/src/routes";
import { axeViolations, cspViolations, describeViolations, useBrowser } from "./browser";
import { answerAge, latestMailId, readCode, uniqueEmail } from "./support";

const baseUrl = inject("baseUrl");
const { newContext, newTab, watches } = useBrowser(baseUrl);

/** The operator of the e2e server (OPERATOR_EMAILS in test/e2e/global-setup.ts). */
const OPERATOR = "operator@example.com";
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 740 };
const ANSWER = "thanks from the e2e receiver";

// ---------------------------------------------------------------------------------------------
// The receiver: every request it got, answered 200 with a short text.

type Received = { headers: IncomingHttpHeaders; body: string; path: string };
let receiver: Server;
let received: Received[] = [];
let receiverUrl = "";

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
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/e2e`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

afterEach(() => {
  for (const watch of watches()) {
    expect(watch.errors, "uncaught errors in the page").toEqual([]);
    expect(watch.foreignRequests, "requests to other origins").toEqual([]);
    expect(cspViolations(watch), "Content-Security-Policy violations").toEqual([]);
    expect(watch.console, "console errors and warnings").toEqual([]);
  }
});

/** The requests the receiver got, checked against the secret with the standardwebhooks package. */
function verified(secret: string): { type: string; data: Record<string, unknown>; id: string }[] {
  const hook = new Webhook(secret);
  return received.map(({ headers, body }) => {
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

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${baseUrl}${LOGIN_URL}`);
  await page.getByRole("heading", { name: "Sign In" }).waitFor();
  const mark = await latestMailId(baseUrl);
  await page.getByLabel(login.emailLabel).fill(email);
  await page.getByRole("button", { name: login.emailStep.submit }).click();
  await page.getByRole("heading", { name: "Verify Code" }).waitFor();
  await page.getByLabel(login.codeLabel).fill(await readCode(baseUrl, email, { after: mark }));
  await page.getByRole("button", { name: login.codeStep.submit }).click();
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 5_000 }).toBe(CONSOLE_PATH);
}

async function operatorConsole(ctx: BrowserContext): Promise<Page> {
  const { page } = await newTab(ctx);
  await signIn(page, OPERATOR);
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

describe("the console's integrations", () => {
  it("an operator adds an endpoint, sends a test the receiver verifies, and sees a visitor's join delivered", async () => {
    received = [];
    const ctx = await newContext({ viewport: DESKTOP });
    const page = await operatorConsole(ctx);
    await page.getByRole("navigation", { name: admin.nav.label }).getByRole("link", { name: admin.nav.integrations }).click();
    const section = page.getByRole("region", { name: text.title, exact: true });
    await section.getByRole("button", { name: text.add }).click();

    const name = `E2E receiver ${Date.now()}`;
    await section.getByRole("textbox", { name: text.form.name }).fill(name);
    await section.getByRole("textbox", { name: text.form.url }).fill(receiverUrl);
    // waitlist.joined is checked to begin with.
    expect(await section.getByRole("checkbox", { name: /waitlist\.joined/ }).isChecked()).toBe(true);
    await section.getByRole("button", { name: text.form.create }).click();

    // The secret, shown once.
    await section.getByRole("heading", { name, level: 3 }).waitFor();
    const secret = await section.getByRole("textbox", { name: text.secret.label }).inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    await section.getByText(text.secret.once).waitFor();

    // A test event: the receiver's status and the first bytes of its answer; its signature checks out.
    await section.getByRole("button", { name: text.actions.test }).click();
    await section.getByText(/The receiver answered 200 in/).waitFor();
    await section.getByText(ANSWER, { exact: true }).waitFor();
    expect(received).toHaveLength(1);
    expect(received[0]?.path).toBe("/hooks/e2e");
    expect(verified(secret)).toHaveLength(1);

    await expectNoAxe(page, "an endpoint's screen with its secret and a test's answer");

    // A visitor joins: the receiver gets waitlist.joined (signed), and the console lists the delivery.
    const email = uniqueEmail("hooks");
    await joinAsVisitor(email);
    await expect
      .poll(() => verified(secret).filter((event) => event.type === "waitlist.joined" && event.data.email === email).length, {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(1);
    const joined = verified(secret).find((event) => event.type === "waitlist.joined" && event.data.email === email);
    await expect
      .poll(
        async () => {
          await section.getByRole("button", { name: text.refresh }).click();
          await section.getByRole("status").getByText(text.refreshed).first().waitFor();
          return section
            .getByRole("table", { name: text.deliveries.caption })
            .getByText(joined?.id ?? "-", { exact: true })
            .count();
        },
        { timeout: 15_000, interval: 1_000 },
      )
      .toBe(1);
    const row = section
      .getByRole("table", { name: text.deliveries.caption })
      .getByRole("row")
      .filter({ hasText: joined?.id ?? "-" });
    expect(await row.getByText("200", { exact: true }).count()).toBe(1);
    expect(await row.getByText(text.deliveries.status.delivered).count()).toBe(1);

    // At a phone's width the page does not scroll sideways.
    await page.setViewportSize(PHONE);
    expect(await page.evaluate<number>(PAGE_OVERFLOW)).toBe(0);
    await expectNoAxe(page, "an endpoint's screen at 360 px");
  });
});

async function expectNoAxe(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `axe-core on ${what}:\n${describeViolations(violations)}`).toEqual([]);
}
