/**
 * The site in a Chromium profile with JavaScript turned off (issue 9, §1 and §2): the home page
 * is complete and accessible as the build prerendered it, the demo shows its finished solution
 * (not an empty window at 0%), a note says that signing in needs JavaScript, and the waitlist
 * and contact forms work: the browser posts them, the server answers with a page that says what
 * happened and leads back.
 */
import type { Page } from "playwright-core";
import { afterEach, describe, expect, inject, it } from "vitest";
import { demo, noScript } from "../../web/src/content";
import { contactForm, waitlistForm } from "../../web/src/form-content";
import { FORM_PAGE_TEXT } from "@shared/public-forms";
import { axeViolations, cspViolations, describeViolations, useBrowser } from "./browser";
import { uniqueEmail, waitForMail, answerAge } from "./support";

const baseUrl = inject("baseUrl");
const { newContext, newTab, openTab, watches } = useBrowser(baseUrl);

/** Console lines the running test expects (Chromium logs a 4xx answer to a form post). */
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

const DESKTOP = { width: 1280, height: 720 };

async function openHomeWithoutJs(viewport = DESKTOP): Promise<Page> {
  const ctx = await newContext({ viewport, javaScriptEnabled: false });
  const { page } = await openTab(ctx, "/");
  await page.getByRole("heading", { level: 1 }).waitFor();
  return page;
}

/** The page the server answers a form post with: its message, and the way back to the site. */
async function expectFormPage(page: Page, path: string, message: string): Promise<void> {
  await page.waitForURL(`${baseUrl}${path}`);
  // The first: a refused field's problem is said above the form and again at its field.
  await page.getByText(message, { exact: true }).first().waitFor();
  const back = page.getByRole("link", { name: FORM_PAGE_TEXT.backLink });
  expect(await back.isVisible()).toBe(true);
  expect(await back.getAttribute("href")).toMatch(/^\//);
}

/**
 * axe-core on a page answered to a form post without JavaScript. axe needs JavaScript, so the
 * page's HTML (it has no script) is served again to a tab with JavaScript on.
 */
async function expectNoAxeViolations(html: string, what: string): Promise<void> {
  const ctx = await newContext({ viewport: { width: 360, height: 740 } });
  const { page } = await newTab(ctx);
  await page.route(`${baseUrl}/axe-check`, (route) => route.fulfill({ status: 200, contentType: "text/html", body: html }));
  await page.goto(`${baseUrl}/axe-check`);
  const violations = await axeViolations(page);
  expect(violations, `axe-core on ${what}:\n${describeViolations(violations)}`).toEqual([]);
}

describe("without JavaScript", () => {
  it("shows the demo's finished solution: every step typed, 100%", async () => {
    const page = await openHomeWithoutJs();
    const window = page.locator(".demo__window");

    expect(await window.isVisible()).toBe(true);
    expect(await window.getAttribute("data-complete")).toBe("true");
    expect(await page.locator(".demo__percent").textContent()).toBe("100%");
    expect(await page.locator(".demo__meter").getAttribute("value")).toBe("100");
    expect(await page.locator(".demo__typed").allTextContents()).toEqual(demo.steps.map((step) => step.text));
    expect(await page.locator(".demo__rest").allTextContents()).toEqual(demo.steps.map(() => ""));
    // Every step is on screen (a pending step is invisible).
    for (const step of await page.locator(".demo__step").all()) expect(await step.isVisible()).toBe(true);
  });

  it("says that signing in needs JavaScript, at the top of the page", async () => {
    const page = await openHomeWithoutJs();
    const note = page.getByText(noScript.signIn, { exact: true });

    expect(await note.isVisible()).toBe(true);
    const noteBox = await note.boundingBox();
    const headerBox = await page.getByRole("banner").boundingBox();
    expect(noteBox!.y + noteBox!.height).toBeLessThanOrEqual(headerBox!.y + 1);
    // The Login link is still there; the note says what it needs.
    expect(await page.getByRole("banner").getByRole("link", { name: "Login" }).count()).toBe(1);
  });

  it("finds no accessibility violations (axe-core)", async () => {
    // axe-core needs JavaScript, and with JavaScript off a page runs none, not even through the
    // DevTools protocol. So the page is served as a browser without JavaScript reads it: the
    // start script left out, the <noscript> note's content in the page; JavaScript stays on for axe.
    const ctx = await newContext({ viewport: DESKTOP });
    const { page } = await newTab(ctx);
    await page.route(`${baseUrl}/`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(/<script>[\s\S]*?<\/script>/g, "").replace(/<\/?noscript>/g, "");
      await route.fulfill({ response, body: html });
    });
    await page.goto(`${baseUrl}/`);
    await page.getByText(noScript.signIn, { exact: true }).waitFor();
    expect(await page.locator("script").count()).toBe(0);

    const violations = await axeViolations(page);
    expect(violations, `axe-core on the home page without JavaScript:\n${describeViolations(violations)}`).toEqual([]);
  });

  it("joins the waitlist: the browser posts the form, the server's page says so and leads back", async () => {
    const page = await openHomeWithoutJs();
    const form = page.getByRole("form", { name: waitlistForm.defaultLabel });
    const email = uniqueEmail("nojs");

    // The age question's selects are the page's own: the browser posts them with the e-mail.
    await answerAge(form);
    await form.getByRole("textbox", { name: waitlistForm.emailLabel }).fill(email);
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/waitlist");
    await form.getByRole("button", { name: waitlistForm.defaultLabel }).click();
    expect((await answer).status()).toBe(201);
    await expectFormPage(page, "/api/waitlist", waitlistForm.successTitle);
    expect(await page.getByRole("main").textContent()).toContain(waitlistForm.successDetail);

    // Stored and notified, like a join made by the app.
    await waitForMail(baseUrl, (m) => m.title === "New Waitlist Submission" && m.body_html.includes(email), {
      what: `waitlist notification for ${email}`,
    });

    await page.getByRole("link", { name: FORM_PAGE_TEXT.backLink }).click();
    await page.getByRole("form", { name: waitlistForm.defaultLabel }).waitFor();
  });

  it("tells a malformed address on the server's page, with the API's words and status", async () => {
    expectedConsole = [/status of 400/];
    const page = await openHomeWithoutJs();
    const form = page.getByRole("form", { name: waitlistForm.ctaLabel });

    await answerAge(form);
    await form.getByRole("textbox", { name: waitlistForm.emailLabel }).fill("ada@school");
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/waitlist");
    await form.getByRole("button", { name: waitlistForm.ctaLabel }).click();
    expect((await answer).status()).toBe(400);
    await expectFormPage(page, "/api/waitlist", waitlistForm.messages.emailInvalid);
  });

  it("sends the contact form: the browser posts it, the server's page confirms", async () => {
    const page = await openHomeWithoutJs();
    const form = page.getByRole("form", { name: "Contact Form" });
    const address = uniqueEmail("nojs-contact");

    await form.getByRole("textbox", { name: "Name", exact: true }).fill("Ada Lovelace");
    await form.getByRole("textbox", { name: "Email", exact: true }).fill(address);
    await form.getByRole("textbox", { name: "Message", exact: true }).fill("Sent without JavaScript");
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/forms/contact");
    await form.getByRole("button", { name: contactForm.submit }).click();
    expect((await answer).status()).toBe(201);
    await expectFormPage(page, "/api/forms/contact", contactForm.messages.success);
    await waitForMail(baseUrl, (m) => m.title === "[Contact Form] New submission" && m.body_html.includes(address), {
      what: `contact notification from ${address}`,
    });
  });

  it("gives a refused contact form back on a 360 px phone with the message kept, the field's problem at it; fixed, it sends", async () => {
    expectedConsole = [/status of 400/];
    const page = await openHomeWithoutJs({ width: 360, height: 740 });
    const form = page.getByRole("form", { name: "Contact Form" });
    const text = "A question typed without JavaScript <b>& kept</b>\nover two lines";

    await form.getByRole("textbox", { name: "Name", exact: true }).fill("Ada Lovelace");
    // The browser lets an address without a dot in its domain through; the server does not.
    await form.getByRole("textbox", { name: "Email", exact: true }).fill("ada@school");
    await form.getByRole("textbox", { name: "Message", exact: true }).fill(text);
    const refused = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/forms/contact");
    await form.getByRole("button", { name: contactForm.submit }).click();
    expect((await refused).status()).toBe(400);
    await page.waitForURL(`${baseUrl}/api/forms/contact`);

    // The page's form holds everything typed, and says what to fix at the field.
    const again = page.getByRole("form", { name: "Contact Form" });
    const email = again.getByRole("textbox", { name: "Email", exact: true });
    expect(await again.getByRole("textbox", { name: "Name", exact: true }).inputValue()).toBe("Ada Lovelace");
    expect(await again.getByRole("textbox", { name: "Message", exact: true }).inputValue()).toBe(text);
    expect(await email.inputValue()).toBe("ada@school");
    expect(await email.getAttribute("aria-invalid")).toBe("true");
    const describedBy = await email.getAttribute("aria-describedby");
    expect(await page.locator(`#${describedBy}`).textContent()).toBe(waitlistForm.messages.emailInvalid);
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(360);
    await expectNoAxeViolations(await page.content(), "the refused contact form's page");

    const address = uniqueEmail("nojs-refill");
    await email.fill(address);
    const sent = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/forms/contact");
    await again.getByRole("button", { name: contactForm.submit }).click();
    expect((await sent).status()).toBe(201);
    await expectFormPage(page, "/api/forms/contact", contactForm.messages.success);
    const mail = await waitForMail(baseUrl, (m) => m.title === "[Contact Form] New submission" && m.body_html.includes(address), {
      what: `contact notification from ${address}`,
    });
    expect(mail.body_html).toContain("&lt;b&gt;&amp; kept&lt;/b&gt;<br>");
  });
});
