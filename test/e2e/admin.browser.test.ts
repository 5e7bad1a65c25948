/**
 * The operator console (/admin/) in headless Chromium against the worker under wrangler dev: an
 * operator signs in on the site's login page (code from the dev mailbox), sees a new sign-up in
 * the figures and the waitlist, downloads the CSV, erases the address with the typed
 * confirmation and finds nothing stored afterwards; someone else signed in sees "not authorised";
 * nobody signed in gets the sign-in link. Also: the page's own headers (noindex, revalidated, the
 * site's CSP), no console errors or CSP violations, axe-core at phone and desktop widths, and no
 * page-level horizontal scrolling at 320 and 360 px, nor with text at 200%.
 */
import { readFile } from "node:fs/promises";
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import type { AdminStats } from "@shared/admin";
import { admin } from "../../web/src/admin/content";
import { PAGE_SIZE } from "../../web/src/admin/api";
import { LOGIN_URL } from "../../web/src/admin/session";
import { CONSOLE_PATH } from "../../web/src/routes";
import { waitlistForm } from "../../web/src/form-content";
import { axeViolations, cspViolations, describeViolations, useBrowser } from "./browser";
import { signInToConsole } from "./console-sign-in";
import { uniqueEmail, answerAge, birthFields } from "./support";

const baseUrl = inject("baseUrl");
const { newContext, newTab, watches } = useBrowser(baseUrl);

/** The operator of the e2e server (OPERATOR_EMAILS in test/e2e/global-setup.ts). */
const OPERATOR = "operator@example.com";
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 740 };

/** Console errors the running test expects (the browser logs every 401/403 answer, for one). */
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

// ---------------------------------------------------------------------------------------------
// Helpers

const hashOf = (page: Page) => new URL(page.url()).hash;

/** Opens the console and waits until it shows the figures and the waitlist's first page. */
async function openConsole(page: Page): Promise<void> {
  await page.goto(`${baseUrl}${CONSOLE_PATH}`);
  await page.getByRole("heading", { level: 1, name: admin.title }).waitFor();
  await page
    .getByRole("region", { name: admin.waitlist.title, exact: true })
    .getByRole("status")
    .filter({ hasText: /on page 1/ })
    .waitFor();
}

/** A signed-in operator's tab showing the console. */
async function operatorConsole(ctx: BrowserContext): Promise<Page> {
  const { page } = await newTab(ctx);
  await signInToConsole(page, baseUrl, OPERATOR);
  await openConsole(page);
  return page;
}

/** The number the overview shows for `label`. */
async function figure(page: Page, label: string): Promise<number> {
  const text = await page
    .getByRole("region", { name: admin.overview.title, exact: true })
    .locator(".figure")
    .filter({ hasText: label })
    .locator("dd")
    .textContent();
  return Number((text ?? "").replace(/,/g, ""));
}

/** Joins the waitlist as a visitor would: the hero form of the home page, in a profile of its own. */
async function joinAsVisitor(email: string): Promise<void> {
  const ctx = await newContext({ viewport: DESKTOP });
  const { page } = await newTab(ctx);
  await page.goto(`${baseUrl}/?utm_source=e2e-console&utm_campaign=launch#/`);
  // The app has started (main.tsx marks #root): the form sends JSON and shows its status.
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

/** What sticks out sideways: the page itself (it may not scroll), as a list for a clear failure. */
const PAGE_OVERFLOW = `(() => {
  const root = document.documentElement;
  const wide = [...document.querySelectorAll("body *")].filter((el) => {
    if (el.closest(".table-scroll")) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.right > root.clientWidth + 1;
  });
  return (root.scrollWidth > root.clientWidth ? ["the page (scrollWidth " + root.scrollWidth + " > " + root.clientWidth + ")"] : [])
    .concat(wide.slice(0, 10).map((el) => el.tagName.toLowerCase() + (typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\\s+/).join(".") : "")));
})()`;

async function expectNoAxeViolations(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `axe-core on ${what}:\n${describeViolations(violations)}`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------

describe("operator console", () => {
  it("an operator sees a new sign-up, downloads the CSV, and erases the address with the typed confirmation", async () => {
    const ctx = await newContext({ viewport: DESKTOP });
    const page = await operatorConsole(ctx);
    await page.getByRole("banner").getByText(admin.signedInAs(OPERATOR), { exact: true }).waitFor();

    // A visitor joins through the site's form.
    const email = uniqueEmail("console");
    await joinAsVisitor(email);

    // The figures, refreshed, count them; the waitlist shows them, with their form and campaign.
    const overview = page.getByRole("region", { name: admin.overview.title, exact: true });
    // Other e2e files run beside this one on the same server and may join or erase meanwhile, so
    // the refreshed figures are checked against the answer they were refreshed from, whose total
    // the new sign-up is in (it was stored before the refresh asked).
    const refreshed = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/admin/stats");
    await overview.getByRole("button", { name: admin.overview.refresh }).click();
    const stats = (await (await refreshed).json()) as AdminStats;
    await overview.getByRole("status").getByText(admin.overview.refreshed).waitFor();
    expect(await figure(page, admin.overview.total)).toBe(stats.waitlist.total);
    expect(await figure(page, admin.overview.last24h)).toBe(stats.waitlist.last24h);
    expect(stats.waitlist.last24h).toBeGreaterThanOrEqual(1);

    const waitlist = page.getByRole("region", { name: admin.waitlist.title, exact: true });
    await page.reload();
    await openConsole(page);
    const row = waitlist.getByRole("row").filter({ has: page.getByRole("rowheader", { name: email }) });
    // Newest first: a new sign-up is on the first page (unless a parallel test added 25 more).
    if ((await row.count()) === 0) {
      await waitlist.getByRole("searchbox", { name: admin.waitlist.searchLabel }).fill(email);
      await waitlist.getByRole("button", { name: admin.table.searchButton }).click();
      await waitlist
        .getByRole("status")
        .getByText(admin.table.showing(1, 1, email, 1, PAGE_SIZE))
        .waitFor();
    }
    await row.waitFor();
    expect(await row.getByRole("cell").allTextContents()).toEqual(expect.arrayContaining(["hero", "e2e-console / – / launch"]));

    // Search finds it by part of the address.
    const part = email.slice(0, email.indexOf("@"));
    await waitlist.getByRole("searchbox", { name: admin.waitlist.searchLabel }).fill(part.toUpperCase());
    await waitlist.getByRole("button", { name: admin.table.searchButton }).click();
    await waitlist
      .getByRole("status")
      .getByText(admin.table.showing(1, 1, part.toUpperCase(), 1, PAGE_SIZE))
      .waitFor();
    await row.waitFor();

    // The CSV, fetched with the token and saved: it holds the address.
    const downloading = page.waitForEvent("download");
    await waitlist.getByRole("button", { name: admin.table.download }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = await readFile(await download.path(), "utf8");
    expect(csv).toContain(email);
    expect(csv.split(/\r?\n/)[0]).toMatch(/email/i);
    await waitlist.getByRole("status").getByText(admin.table.downloaded(download.suggestedFilename())).waitFor();

    // Erasure: look up, the typed confirmation, erase, the counts; then nothing is stored.
    const erasure = page.getByRole("region", { name: admin.erasure.title, exact: true });
    await erasure.getByLabel(admin.erasure.lookupLabel).fill(email);
    await erasure.getByRole("button", { name: admin.erasure.lookup }).click();
    await erasure.getByRole("heading", { name: admin.erasure.storedTitle(email) }).waitFor();
    await erasure.getByRole("heading", { name: admin.erasure.waitlistEntry }).waitFor();
    const erase = erasure.getByRole("button", { name: admin.erasure.erase });
    expect(await erase.isDisabled()).toBe(true);
    const confirm = erasure.getByLabel(admin.erasure.confirmLabel(email));
    await confirm.fill("someone-else@example.test");
    expect(await erase.isDisabled()).toBe(true);
    await confirm.fill(email);
    expect(await erase.isDisabled()).toBe(false);
    // The address goes in the body of a POST, never in the request's address.
    const deleted = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/admin/people/erase");
    await erase.click();
    expect((await deleted).status()).toBe(200);
    expect((await deleted).request().postDataJSON()).toEqual({ email });
    await erasure.getByText(admin.erasure.erased(email, { waitlist: 1, submissions: 0, users: 0 })).waitFor();
    await expect
      .poll(() => page.evaluate<string>("document.activeElement?.textContent ?? ''"))
      .toBe(admin.erasure.erased(email, { waitlist: 1, submissions: 0, users: 0 }));

    await erasure.getByRole("button", { name: admin.erasure.lookup }).click();
    await erasure.getByText(admin.erasure.nothingStored(email)).waitFor();
    expect(await erase.count()).toBe(0);
    // The waitlist, loaded again, no longer has it.
    await waitlist.getByText(admin.table.noMatch(part.toUpperCase())).waitFor();
  });

  it("someone signed in who is no operator sees 'Not authorised', and can sign out", async () => {
    expectedConsole = [/status of 403/];
    const ctx = await newContext({ viewport: DESKTOP });
    const { page } = await newTab(ctx);
    const email = uniqueEmail("not-operator");
    await signInToConsole(page, baseUrl, email);
    await page.goto(`${baseUrl}${CONSOLE_PATH}`);

    await page.getByRole("heading", { level: 1, name: admin.notAuthorised.title }).waitFor();
    await page.getByText(admin.notAuthorised.text(email), { exact: true }).waitFor();
    expect(await page.getByRole("table").count()).toBe(0);
    await expectNoAxeViolations(page, "the not-authorised view");

    await page.getByRole("button", { name: admin.signOut }).click();
    await page.getByRole("heading", { level: 1, name: admin.signedOut.title }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("hwh-auth"))).toBeNull();
  });

  it("nobody signed in gets the sign-in link; /admin reaches the page, which is noindex and revalidated, under the site's CSP; signing in elsewhere opens it", async () => {
    const ctx = await newContext({ viewport: PHONE });
    const { page } = await newTab(ctx);
    const response = await page.goto(`${baseUrl}/admin`);
    expect(new URL(page.url()).pathname).toBe(CONSOLE_PATH);
    expect(response?.status()).toBe(200);
    const headers = response!.headers();
    expect(headers["x-robots-tag"]).toBe("noindex, nofollow");
    expect(headers["cache-control"]).toMatch(/max-age=0, must-revalidate|no-cache/);
    expect(headers["content-security-policy"]).toMatch(/script-src 'self'/);
    expect(headers["content-security-policy"]).not.toContain("unsafe-inline");
    expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex, nofollow");

    await page.getByRole("heading", { level: 1, name: admin.signedOut.title }).waitFor();
    await page.getByText(admin.signedOut.text, { exact: true }).waitFor();
    expect(await page.evaluate<string[]>(PAGE_OVERFLOW)).toEqual([]);
    await expectNoAxeViolations(page, "the signed-out view");

    // The site never links to the console, and robots.txt keeps crawlers out of it.
    const robots = await (await fetch(`${baseUrl}/robots.txt`)).text();
    expect(robots).toMatch(/^Disallow: \/admin\/$/m);

    await page.getByRole("link", { name: admin.signedOut.link }).click();
    // The sign-in page, told to come back here (its "next").
    await expect.poll(() => hashOf(page)).toBe(new URL(LOGIN_URL, baseUrl).hash);
    await page.getByRole("heading", { name: "Sign In" }).waitFor();
    expect(await page.locator(`a[href*="admin"]`).count()).toBe(0);

    // A console left open while the operator signs in in another tab carries on by itself.
    const { page: waiting } = await newTab(ctx);
    await waiting.goto(`${baseUrl}${CONSOLE_PATH}`);
    await waiting.getByRole("heading", { level: 1, name: admin.signedOut.title }).waitFor();
    await page.bringToFront();
    await signInToConsole(page, baseUrl, OPERATOR);
    await page.getByRole("heading", { level: 1, name: admin.title }).waitFor();
    await waiting.getByRole("heading", { level: 1, name: admin.title }).waitFor();
    await waiting.getByText(admin.signedInAs(OPERATOR), { exact: true }).waitFor();
  });

  it("has no axe violations and no page-level sideways scrolling at phone and desktop widths, with data, the day table and a lookup shown", async () => {
    // Something in each list, whatever ran before.
    await joinAsVisitor(uniqueEmail("axe"));
    const form = await fetch(`${baseUrl}/api/forms/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: baseUrl },
      body: JSON.stringify({
        name: "Axe Tester",
        email: uniqueEmail("axe-message"),
        message: "A rather long message to see how the table wraps it on a phone.",
        website: "",
      }),
    });
    expect(form.status).toBe(201);

    for (const viewport of [PHONE, { width: 320, height: 640 }, DESKTOP]) {
      const ctx = await newContext({ viewport });
      const page = await operatorConsole(ctx);
      await page.getByRole("region", { name: admin.messages.title, exact: true }).getByRole("table").waitFor();
      const where = `${viewport.width} px`;
      expect(await page.evaluate<string[]>(PAGE_OVERFLOW), `sideways overflow at ${where}`).toEqual([]);
      await expectNoAxeViolations(page, `the console at ${where}`);

      await page.getByText(admin.chart.showTable).click();
      await page.getByRole("table", { name: admin.chart.tableCaption }).waitFor();
      const erasure = page.getByRole("region", { name: admin.erasure.title, exact: true });
      await erasure.getByLabel(admin.erasure.lookupLabel).fill(OPERATOR);
      await erasure.getByRole("button", { name: admin.erasure.lookup }).click();
      await erasure.getByRole("heading", { name: admin.erasure.storedTitle(OPERATOR) }).waitFor();
      expect(await page.evaluate<string[]>(PAGE_OVERFLOW), `sideways overflow at ${where}, day table and lookup shown`).toEqual([]);
      await expectNoAxeViolations(page, `the console at ${where} with the day table and a lookup`);
      await ctx.close();
    }
  });

  it("the referral review: at 1280 px the clusters' table fills the section with its verdict in view and addresses stay whole; at 360 px it scrolls in its box and says so (issue 22 review)", async () => {
    const ring = "ringleader.max@mailnest.example";
    const school = "amelie.schmidt@schule-nord.example.de";
    const clusters = { withinDay: 8, domains: 1 };
    // The review as the reviewer's ring and school made it (the stats answer's referrals; the rest is the server's).
    const referrals: AdminStats["referrals"] = {
      confirmed: 11,
      viralCoefficient: 0.25,
      top: [
        { email: school, code: "C3UMKYX4", referrals: 6 },
        { email: ring, code: "P44ZX44M", referrals: 5 },
      ],
      flagged: [
        { email: ring, code: "P44ZX44M", referrals: 5, fromOneNetwork: 8 },
        { email: school, code: "C3UMKYX4", referrals: 6, fromOneNetwork: 6 },
      ],
      clusters: [
        { code: "P44ZX44M", ...clusters, total: 8, byNetwork: [8], withinHour: 8, spanHours: 0, lookAlike: 8, reading: "ring" },
        {
          code: "C3UMKYX4",
          ...clusters,
          total: 6,
          byNetwork: [6],
          withinHour: 1,
          withinDay: 2,
          spanHours: 120,
          lookAlike: 1,
          reading: "group",
        },
      ],
      voided: [
        { code: "P44ZX44M", total: 3, fromOneNetwork: 3 },
        { code: "C3UMKYX4", total: 0, fromOneNetwork: 0 },
      ],
      flagAt: 5,
    };
    const text = admin.referrals.clusters;
    for (const viewport of [DESKTOP, PHONE]) {
      const ctx = await newContext({ viewport });
      await ctx.route("**/api/admin/stats", async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, json: { ...((await response.json()) as AdminStats), referrals } });
      });
      const page = await operatorConsole(ctx);
      const where = `${viewport.width} px`;
      const table = page.getByRole("table", { name: text.title });
      await table.waitFor();
      const box = page.getByRole("region", { name: text.title, exact: true });
      const sizes = await box.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      const hint = page.locator('[id$="-clusters-hint"]');
      if (viewport === DESKTOP) {
        expect(sizes.scroll, `the clusters' table scrolls at ${where}`).toBeLessThanOrEqual(sizes.client);
        const region = (await box.boundingBox())!;
        // The section's width (about 1,180 px), not a box of 24rem.
        expect(region.width).toBeGreaterThan(900);
        for (const cell of [table.getByRole("columnheader", { name: text.reads }), table.getByRole("cell", { name: text.reading.ring })]) {
          const seen = (await cell.boundingBox())!;
          expect(seen.x + seen.width, `"${await cell.textContent()}" beyond the box at ${where}`).toBeLessThanOrEqual(
            region.x + region.width + 1,
          );
        }
        expect(await hint.count()).toBe(0);
        // The addresses above and in the table take one line each: nothing breaks them letter by letter.
        const lines = (name: string, email: string) =>
          page
            .getByRole("table", { name, exact: true })
            .getByRole("rowheader", { name: email })
            .evaluate((el) => {
              // How many lines its text takes: its boxes by their top.
              const range = el.ownerDocument.createRange();
              range.selectNodeContents(el);
              return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
            });
        for (const name of [admin.referrals.top.title, admin.referrals.flagged.title, text.title])
          expect(await lines(name, ring), name).toBe(1);
      } else {
        expect(sizes.scroll, `the clusters' table fits at ${where}`).toBeGreaterThan(sizes.client);
        expect(await hint.isVisible()).toBe(true);
        expect(await hint.textContent()).toBe(text.scrollHint);
      }
      expect(await page.evaluate<string[]>(PAGE_OVERFLOW), `sideways overflow at ${where}`).toEqual([]);
      await ctx.close();
    }
  });

  it("with the browser's text size at 200% on a phone, only the tables scroll sideways", async () => {
    const ctx = await newContext({ viewport: PHONE });
    const { page } = await newTab(ctx);
    // What the browser's text size setting does (page zoom would shrink the viewport instead).
    const joined = await fetch(`${baseUrl}/api/waitlist`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: baseUrl },
      body: JSON.stringify({ email: uniqueEmail("large-text"), ...birthFields(), source: "cta", website: "" }),
    });
    expect(joined.status).toBe(201);
    const cdp = await ctx.newCDPSession(page);
    await cdp.send("Page.setFontSizes", { fontSizes: { standard: 32, fixed: 26 } });
    await signInToConsole(page, baseUrl, OPERATOR);
    await openConsole(page);
    expect(await page.evaluate<string>("getComputedStyle(document.documentElement).fontSize")).toBe("32px");
    expect(await page.evaluate<string[]>(PAGE_OVERFLOW)).toEqual([]);
    // The waitlist's region scrolls sideways by itself, and says so.
    const region = page.getByRole("region", { name: admin.waitlist.caption });
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await page.getByText(admin.table.scrollHint).first().isVisible()).toBe(true);
  });
});
