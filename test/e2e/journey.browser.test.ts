/**
 * The joiner's journey in Chromium (issue 16), as a student on a phone (360 px) and on a laptop
 * (1280 px) goes through it, and without JavaScript: join on the home page, open the link of the
 * confirmation e-mail (read from the dev mailbox), press "Confirm my place", see the place, copy
 * the referral link; a friend opens that link, joins and confirms, and the first person's place
 * moves up. Then "My place" (/#/me) with every action: join with one click, leave, resend the
 * confirmation, download my data, delete everything (typed confirmation, then signed out).
 *
 * Every person is a new address, so the tests share nothing but the server; places are compared
 * before and after, never assumed (the other runs' entries are in the same line).
 * E2E_SHOTS_DIR=/some/dir saves screenshots of each step there, to look at.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, describe, expect, inject, it } from "vitest";
import { header } from "../../web/src/content";
import { waitlistForm } from "../../web/src/form-content";
import { login } from "../../web/src/pages/login/content";
import { ME_TEXT } from "../../web/src/pages/me/content";
import { JOURNEY_TEXT } from "@shared/journey-text";
import { FORM_PAGE_TEXT } from "@shared/public-forms";
import { axeViolations, cspViolations, describeViolations, useBrowser } from "./browser";
import { type DevMail, latestMailId, readCode, uniqueEmail, waitForMail, answerAge, birthFields } from "./support";

const baseUrl = inject("baseUrl");
const { newContext, newTab, watches } = useBrowser(baseUrl);

/** Console lines the running test expects (Chromium logs every 4xx answer a page gets). */
let expectedConsole: RegExp[] = [];

afterEach(() => {
  for (const watch of watches()) {
    expect(watch.errors, "uncaught errors in the page").toEqual([]);
    expect(watch.foreignRequests, "requests to other origins").toEqual([]);
    expect(cspViolations(watch), "Content-Security-Policy violations").toEqual([]);
    expect(
      watch.console.filter((line) => !expectedConsole.some((pattern) => pattern.test(line))),
      "console errors and warnings",
    ).toEqual([]);
  }
  expectedConsole = [];
});

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 720 };
const CONFIRM_TITLE = /^Confirm your place on the .+ waitlist$/;
const PLACE = /^You're #([\d,]+) in line$/;

// ---------------------------------------------------------------------------------------------
// Helpers

const shotsDir = process.env.E2E_SHOTS_DIR;

/** A screenshot (the full page unless `fullPage` is false) when E2E_SHOTS_DIR is set, to look at the journey; nothing otherwise. */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  if (!shotsDir) return;
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage });
}

/** The confirmation e-mail to `email` (the newest), waiting for it: it is sent after the join's answer. */
function confirmationMail(email: string, after = 0): Promise<DevMail> {
  return waitForMail(baseUrl, (m) => m.id > after && m.receivers.includes(email) && CONFIRM_TITLE.test(m.title), {
    what: `confirmation e-mail to ${email}`,
  });
}

/** The e-mail's link to the confirmation page: the button's, the same in its plain text. */
function confirmLink(mail: DevMail): string {
  const href = /href="([^"]*\/confirm\?token=[^"]+)"/.exec(mail.body_html)?.[1];
  if (!href) throw new Error(`The e-mail "${mail.title}" has no confirmation link: ${mail.body_html}`);
  const link = href.replace(/&amp;/g, "&");
  expect(link.startsWith(`${baseUrl}/confirm?token=`)).toBe(true);
  expect(mail.body_text, "the plain-text alternative carries the link too").toContain(link);
  return link;
}

/** The place the page's headline says ("You're #12 in line" is 12). */
async function placeOn(page: Page): Promise<number> {
  const headline = (await page.getByRole("heading", { level: 1 }).textContent()) ?? "";
  const match = PLACE.exec(headline.trim());
  if (!match) throw new Error(`The headline is not a place: "${headline}"`);
  return Number(match[1]!.replace(/,/g, ""));
}

/** The app has started (main.tsx marks #root): its forms send JSON and show their status. */
async function appStarted(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate<boolean>(`document.getElementById("root")?.hasAttribute("data-started") === true`), { timeout: 10_000 })
    .toBe(true);
}

/** Joins with the home page's first form (the app's, with JavaScript), from `address` (the home page or a referral link). */
async function joinWithApp(page: Page, address: string, email: string): Promise<void> {
  await page.goto(address);
  await appStarted(page);
  const form = page.getByRole("form", { name: waitlistForm.defaultLabel });
  await answerAge(form);
  await form.getByRole("textbox", { name: waitlistForm.emailLabel }).fill(email);
  await form.getByRole("button", { name: waitlistForm.defaultLabel }).click();
  await form.getByRole("status").getByText(waitlistForm.successTitle, { exact: true }).waitFor();
}

/**
 * Opens the confirmation e-mail's link: the page asks, and opening it confirmed nothing; then
 * presses "Confirm my place" and returns the place shown.
 */
async function confirmFromMail(page: Page, email: string, shotName?: string): Promise<number> {
  await page.goto(confirmLink(await confirmationMail(email)));
  await page.getByRole("heading", { level: 1, name: JOURNEY_TEXT.confirmTitle }).waitFor();
  if (shotName) await shot(page, `${shotName}-prompt`);
  await page.getByRole("button", { name: JOURNEY_TEXT.confirmButton }).click();
  await page.getByRole("heading", { level: 1, name: PLACE }).waitFor();
  if (shotName) await shot(page, `${shotName}-place`);
  return placeOn(page);
}

/** The figure the share box shows for `label` (friends waiting, friends confirmed). */
async function friends(page: Page, label: string): Promise<number> {
  const value = await page.locator(".share__friends div").filter({ hasText: label }).locator("dd").textContent();
  return Number(value);
}

/** Joins and confirms `email` through the API and the confirmation page's POST (no browser): its page's place and link. */
async function confirmedByApi(email: string, ref?: string): Promise<{ link: string; place: number; code: string }> {
  const joined = await fetch(`${baseUrl}/api/waitlist`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, ...birthFields(), ...(ref ? { ref } : {}) }),
  });
  expect(joined.status).toBe(201);
  const link = confirmLink(await confirmationMail(email));
  const token = new URL(link).searchParams.get("token")!;
  const page = await fetch(`${baseUrl}/confirm`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
    body: new URLSearchParams({ token }),
  });
  const html = await page.text();
  expect(page.status).toBe(200);
  const place = /You(?:'|&#39;|&#x27;)re #([\d,]+) in line/.exec(html)?.[1];
  const code = /data-share-link>[^<]*\/\?ref=([A-Z0-9]{8})<\/textarea>/.exec(html)?.[1];
  if (!place || !code) throw new Error(`POST /confirm showed no place or code: ${html.slice(0, 500)}`);
  return { link, place: Number(place.replace(/,/g, "")), code };
}

/** The place the confirmation page shows for a link (GET: a confirmed entry's page). */
async function placeByLink(link: string): Promise<number> {
  const html = await (await fetch(link)).text();
  const place = /You(?:'|&#39;|&#x27;)re #([\d,]+) in line/.exec(html)?.[1];
  if (!place) throw new Error(`GET ${link} showed no place: ${html.slice(0, 500)}`);
  return Number(place.replace(/,/g, ""));
}

/**
 * Five people confirmed just before the next one (by the API, no browser): their keys are
 * unboosted, so one referral of the next person moves it past exactly these five, whatever the
 * line holds before them.
 */
async function fiveAhead(): Promise<void> {
  await Promise.all(Array.from({ length: 5 }, (_, n) => confirmedByApi(uniqueEmail(`ahead-${n}`))));
}

async function expectNoAxeViolations(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `axe-core on ${what}:\n${describeViolations(violations)}`).toEqual([]);
}

/** What sticks out sideways on the page (nothing may: a 360 px phone must not scroll sideways). */
const PAGE_OVERFLOW = `document.documentElement.scrollWidth - document.documentElement.clientWidth`;

// ---------------------------------------------------------------------------------------------

describe.each([
  { name: "phone", viewport: PHONE },
  { name: "desktop", viewport: DESKTOP },
])("the journey at $viewport.width px", ({ name, viewport }) => {
  it("joins, confirms from the e-mail, copies the referral link; a friend joins through it and confirms, and the place moves up", async () => {
    const ctx = await newContext({ viewport, permissions: ["clipboard-read", "clipboard-write"] });
    const { page } = await newTab(ctx);
    const email = uniqueEmail(`journey-${name}`);
    await fiveAhead();

    await joinWithApp(page, `${baseUrl}/`, email);
    await shot(page, `${name}-1-joined`);
    const mail = await confirmationMail(email);
    if (shotsDir && name === "phone") {
      // The e-mail as the dev mailbox shows it, on a phone (one more page load: only when looking).
      await page.goto(`${baseUrl}/dev/mailbox`);
      await page.getByRole("heading", { level: 2, name: mail.title }).first().waitFor();
      await shot(page, "phone-0-mailbox", false);
    }

    // Opening the link asks first (a mail scanner opening it confirms nothing), then the button confirms.
    const place = await confirmFromMail(page, email, `${name}-2-confirm`);
    expect(place).toBeGreaterThan(0);
    expect(await page.evaluate<number>(PAGE_OVERFLOW)).toBe(0);
    await page.getByText(JOURNEY_TEXT.linkLabel, { exact: true }).waitFor();
    expect(await page.getByText(/moves you up 5 places\.$/).count()).toBe(1);
    expect(await friends(page, JOURNEY_TEXT.friendsConfirmed)).toBe(0);
    await expectNoAxeViolations(page, `the place page at ${viewport.width} px`);

    // Copy: the link is on the clipboard, as the field shows it.
    const field = page.getByRole("textbox", { name: JOURNEY_TEXT.linkLabel });
    const link = await field.inputValue();
    expect(link).toMatch(new RegExp(`^${baseUrl.replace(/[.]/g, "\\.")}/\\?ref=[2-9A-HJKMNP-Z]{8}$`));
    await page.getByRole("button", { name: JOURNEY_TEXT.copy, exact: true }).click();
    await page.getByRole("status").getByText(JOURNEY_TEXT.copied, { exact: true }).waitFor();
    expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(link);
    // The share links carry it too.
    const whatsapp = await page.getByRole("link", { name: "WhatsApp" }).getAttribute("href");
    expect(decodeURIComponent(whatsapp ?? "")).toContain(link);

    // A friend, in a browser of their own, opens the link, joins and confirms.
    const friendCtx = await newContext({ viewport });
    const { page: friendPage } = await newTab(friendCtx);
    const friendEmail = uniqueEmail(`friend-${name}`);
    await joinWithApp(friendPage, link, friendEmail);
    // Joined, not yet confirmed: counted as waiting on the first person's page (GET: confirmed already).
    await page.goto(confirmLink(mail));
    await page.getByText(JOURNEY_TEXT.alreadyConfirmed, { exact: true }).waitFor();
    expect(await placeOn(page)).toBe(place);
    expect(await friends(page, JOURNEY_TEXT.friendsPending)).toBe(1);

    const friendPlace = await confirmFromMail(friendPage, friendEmail, `${name}-3-friend`);
    expect(friendPlace).toBeGreaterThan(place);

    // The first person's page, opened again: moved up past the five just ahead, the friend counted.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: PLACE }).waitFor();
    expect(await placeOn(page)).toBe(place - 5);
    expect(await friends(page, JOURNEY_TEXT.friendsConfirmed)).toBe(1);
    expect(await friends(page, JOURNEY_TEXT.friendsPending)).toBe(0);
    await shot(page, `${name}-4-moved-up`);
  });
});

describe("without JavaScript", () => {
  it("joins through a referral link (form post), confirms (form post) and sees the place; the referrer moves up", async () => {
    await fiveAhead();
    const referrer = await confirmedByApi(uniqueEmail("nojs-referrer"));
    const ctx = await newContext({ viewport: PHONE, javaScriptEnabled: false });
    const { page } = await newTab(ctx);
    const email = uniqueEmail("nojs-journey");

    // The worker carried ?ref= into the prerendered form's hidden field; the browser posts it.
    await page.goto(`${baseUrl}/?ref=${referrer.code}`);
    const form = page.getByRole("form", { name: waitlistForm.defaultLabel });
    expect(await form.locator('input[type="hidden"][name="ref"]').inputValue()).toBe(referrer.code);
    await answerAge(form);
    await form.getByRole("textbox", { name: waitlistForm.emailLabel }).fill(email);
    await form.getByRole("button", { name: waitlistForm.defaultLabel }).click();
    await page.waitForURL(`${baseUrl}/api/waitlist`);
    await page.getByText(waitlistForm.successTitle, { exact: true }).first().waitFor();
    expect(await page.getByRole("link", { name: FORM_PAGE_TEXT.backLink }).isVisible()).toBe(true);

    // The link opened in two tabs: both ask. The first press confirms, the second finds it confirmed.
    const link = confirmLink(await confirmationMail(email));
    const { page: second } = await newTab(ctx);
    for (const tab of [page, second]) {
      await tab.goto(link);
      await tab.getByRole("heading", { level: 1, name: JOURNEY_TEXT.confirmTitle }).waitFor();
    }
    await shot(page, "nojs-phone-prompt");
    await page.getByRole("button", { name: JOURNEY_TEXT.confirmButton }).click();
    await page.getByRole("heading", { level: 1, name: PLACE }).waitFor();
    await shot(page, "nojs-phone-place");
    const place = await placeOn(page);
    expect(place).toBeGreaterThan(referrer.place);
    // The link is in its field to select and copy; the Copy button needs JavaScript, so it stays hidden.
    expect(await page.getByRole("textbox", { name: JOURNEY_TEXT.linkLabel }).inputValue()).toMatch(/\/\?ref=[2-9A-HJKMNP-Z]{8}$/);
    expect(await page.getByRole("button", { name: JOURNEY_TEXT.copy, exact: true }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Telegram" }).isVisible()).toBe(true);

    await second.getByRole("button", { name: JOURNEY_TEXT.confirmButton }).click();
    await second.getByText(JOURNEY_TEXT.alreadyConfirmed, { exact: true }).waitFor();
    expect(await placeOn(second)).toBe(place);

    expect(await placeByLink(referrer.link)).toBe(referrer.place - 5);
  });
});

// ---------------------------------------------------------------------------------------------
// My place

/** Signs `email` in on the login page that "My place" links to, and waits to be back on /#/me. */
async function signInToMyPlace(page: Page, email: string): Promise<void> {
  await page.goto(`${baseUrl}/#/me`);
  await page.getByRole("link", { name: ME_TEXT.signedOut.link }).click();
  await page.getByRole("heading", { name: "Sign In" }).waitFor();
  const mark = await latestMailId(baseUrl);
  await page.getByLabel(login.emailLabel).fill(email);
  await page.getByRole("button", { name: login.emailStep.submit }).click();
  await page.getByRole("heading", { name: "Verify Code" }).waitFor();
  await page.getByLabel(login.codeLabel).fill(await readCode(baseUrl, email, { after: mark }));
  await page.getByRole("button", { name: login.codeStep.submit }).click();
  await expect.poll(() => new URL(page.url()).hash, { timeout: 10_000 }).toBe("#/me");
}

/** The status "My place" shows (its words: "Not on the waitlist", "Waiting for confirmation", "Confirmed"). */
async function statusOn(page: Page, status: keyof typeof ME_TEXT.status): Promise<void> {
  await page.locator(".me__status").getByText(ME_TEXT.status[status], { exact: true }).waitFor();
}

describe.each([
  { name: "phone", viewport: PHONE },
  { name: "desktop", viewport: DESKTOP },
])("My place (/#/me) at $viewport.width px", ({ name, viewport }) => {
  it("joins with one click, leaves, resends the confirmation, downloads the data, deletes everything and is signed out", async () => {
    const ctx: BrowserContext = await newContext({ viewport, acceptDownloads: true });
    const { page } = await newTab(ctx);
    const email = uniqueEmail(`me-${name}`);
    await signInToMyPlace(page, email);

    // The header's address leads here.
    const addressLink = page.getByRole("banner").getByRole("link", { name: new RegExp(header.myPlaceLink), includeHidden: true });
    expect(await addressLink.getAttribute("href")).toMatch(/#\/me$/);

    // Not on the list: join with one click, confirmed at once (signing in proved the address).
    await statusOn(page, "none");
    await answerAge(page.locator(".me__join"));
    await page.getByRole("button", { name: ME_TEXT.none.join }).click();
    await statusOn(page, "confirmed");
    await page.getByText(ME_TEXT.none.joined, { exact: true }).waitFor();
    await page.locator(".me__place").getByText(PLACE).waitFor();
    expect(await page.getByRole("textbox", { name: JOURNEY_TEXT.linkLabel }).inputValue()).toMatch(/\/\?ref=[2-9A-HJKMNP-Z]{8}$/);
    expect(await page.evaluate<number>(PAGE_OVERFLOW)).toBe(0);
    await expectNoAxeViolations(page, `My place, confirmed, at ${viewport.width} px`);
    await shot(page, `${name}-5-me-confirmed`);

    // Leave, after saying yes.
    await page.getByRole("button", { name: ME_TEXT.leave.button }).click();
    await page.getByRole("button", { name: ME_TEXT.leave.confirm }).click();
    await statusOn(page, "none");
    await page.getByText(ME_TEXT.leave.left, { exact: true }).waitFor();

    // Joined again from the home page's form (no sign-in proof there): pending, so the resend is offered.
    const joined = await fetch(`${baseUrl}/api/waitlist`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, ...birthFields() }),
    });
    expect(joined.status).toBe(201);
    await confirmationMail(email);
    const mark = await latestMailId(baseUrl);
    await page.reload();
    await statusOn(page, "pending");
    await page.getByRole("button", { name: ME_TEXT.pending.resend }).click();
    await page.getByText(ME_TEXT.pending.resent, { exact: true }).waitFor();
    // A new confirmation e-mail arrives (by id: other tests' mail may push older ones off the mailbox's page).
    await confirmationMail(email, mark);
    await shot(page, `${name}-6-me-pending`);

    // Download my data: the readable file (worker/shared/my-data.ts), indented as the worker wrote it.
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: ME_TEXT.data.download }).click();
    const file = await (await download).path();
    const text = readFileSync(file, "utf8");
    expect(text.startsWith('{\n  "about this file": {')).toBe(true);
    const data = JSON.parse(text) as Record<string, unknown>;
    expect(data["your email address"]).toBe(email);
    await page.getByText(ME_TEXT.data.downloaded, { exact: true }).waitFor();

    // Delete everything: a wrong address is refused at the field, the right one erases and signs out.
    const accessToken = await page.evaluate<string>(`JSON.parse(localStorage.getItem("hwh-auth")).access_token`);
    await page.getByRole("button", { name: ME_TEXT.erase.open }).click();
    const field = page.getByLabel(ME_TEXT.erase.fieldLabel(email));
    await field.fill(`other-${email}`);
    await page.getByRole("button", { name: ME_TEXT.erase.confirm, exact: true }).click();
    await page.getByText(ME_TEXT.erase.mismatch, { exact: true }).waitFor();
    await field.fill(email.toUpperCase());
    // The page ends its session after the erasure; the server, whose user is gone, answers its sign-out 403.
    expectedConsole = [/status of 403/];
    await page.getByRole("button", { name: ME_TEXT.erase.confirm, exact: true }).click();
    await page.getByRole("heading", { name: ME_TEXT.erase.doneTitle }).waitFor();
    await page.getByText(ME_TEXT.erase.done, { exact: true }).waitFor();
    // Signed out: the header offers Login (in the closed menu on a phone).
    await page.getByRole("banner").getByRole("link", { name: header.loginLink, includeHidden: true }).waitFor({ state: "attached" });
    await shot(page, `${name}-7-me-erased`);

    // Gone on the server too: the session with the user (its token refused), and the entry.
    const me = await fetch(`${baseUrl}/api/me`, { headers: { Authorization: `Bearer ${accessToken}` } });
    expect(me.status).toBe(401);
    await page.reload();
    await page.getByRole("link", { name: ME_TEXT.signedOut.link }).waitFor();
  });
});

describe("My place's times in the visitor's own time zone (issue 22)", () => {
  it("a student in Germany (Chromium in Europe/Berlin) reads the joined and confirmed times in Berlin's time, the zone named", async () => {
    const timeZone = "Europe/Berlin";
    const ctx = await newContext({ viewport: PHONE, timezoneId: timeZone });
    const { page } = await newTab(ctx);
    await signInToMyPlace(page, uniqueEmail("me-berlin"));
    await statusOn(page, "none");
    await answerAge(page.locator(".me__join"));
    await page.getByRole("button", { name: ME_TEXT.none.join }).click();
    await statusOn(page, "confirmed");

    const times = await page.evaluate<[string, string][]>(
      `[...document.querySelectorAll(".me__facts time")].map((time) => [time.getAttribute("datetime"), time.textContent])`,
    );
    expect(times).toHaveLength(2);
    for (const [iso, text] of times) {
      const at = new Date(iso);
      const date = at.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone });
      const time = at.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone });
      // CET in winter, CEST in summer: never the UTC the server stores.
      expect(text, iso).toMatch(new RegExp(`^${date}, ${time} CES?T$`));
    }
  });
});
