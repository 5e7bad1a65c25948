/**
 * The site in headless Chromium against the worker under wrangler dev: the two-step sign-in of
 * spec §2 (Login), its messages (§5, §8), the header's auth status in every open tab, logout and
 * the hash routes. Codes are read from the dev mailbox, as a user would read their e-mail.
 */
import type { Page, Response } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { header, login } from "../../web/src/content";
import { useBrowser } from "./browser";
import { latestMailId, otherCode, readCode, uniqueEmail } from "./support";

const baseUrl = inject("baseUrl");

/** One Chromium for this file; each test's contexts (browser profiles) are closed after it. */
const { newContext, openTab } = useBrowser(baseUrl);

/**
 * Waits until the auth client is loaded and listening. The site loads auth-js (its own chunk,
 * assets/auth-js-*.js) once the page is idle when a session is stored: wait for that script, then
 * for the network to settle (the client subscribes as soon as the script has run).
 */
async function authReady(page: Page): Promise<void> {
  await page.waitForFunction(LAZY_SCRIPT_LOADED);
  await page.waitForLoadState("networkidle");
}

/** Runs in the page (a string: these tests are type-checked without the DOM library). */
const LAZY_SCRIPT_LOADED = `performance.getEntriesByType("resource").some((entry) =>
  new URL(entry.name).pathname.startsWith("/assets/auth-js-"))`;

const hashOf = (page: Page) => new URL(page.url()).hash;

/**
 * Holds the next request to an auth route until `release()`, so a test can see the page while it
 * waits for the server ('Sending...', disabled inputs).
 */
async function holdAuthRequest(page: Page, route: "otp" | "verify"): Promise<{ release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    `${baseUrl}/auth/v1/${route}`,
    async (intercepted) => {
      await released;
      await intercepted.continue();
    },
    { times: 1 },
  );
  return { release };
}

function authResponse(page: Page, route: "otp" | "verify"): Promise<Response> {
  return page.waitForResponse((response) => response.url() === `${baseUrl}/auth/v1/${route}` && response.request().method() === "POST");
}

/** Step one for `email`: fills it in, sends, and waits for the code step. */
async function requestCode(page: Page, email: string): Promise<void> {
  await page.getByLabel(login.emailLabel).fill(email);
  await page.getByRole("button", { name: login.emailStep.submit }).click();
  await page.getByRole("heading", { name: "Verify Code" }).waitFor();
}

describe("login page", () => {
  it("signs in with the e-mailed code, shows the user in every tab, and logs out everywhere", async () => {
    const ctx = await newContext();
    const email = uniqueEmail("browser");

    const { page, watch } = await openTab(ctx, "/");
    const banner = page.getByRole("banner");
    await banner.getByRole("link", { name: "Login" }).waitFor();
    // A second tab, open before the sign-in, follows it without a reload.
    const { page: otherTab, watch: otherWatch } = await openTab(ctx, "/");
    await otherTab.getByRole("banner").getByRole("link", { name: "Login" }).waitFor();
    // A visitor who is not signed in does not download auth-js at all.
    await otherTab.waitForLoadState("networkidle");
    expect(await otherTab.evaluate(LAZY_SCRIPT_LOADED)).toBe(false);
    // Background tabs get throttled timers and no animation frames: work in the first tab.
    await page.bringToFront();

    await banner.getByRole("link", { name: "Login" }).click();
    await expect.poll(() => hashOf(page)).toBe("#/login");
    await page.getByRole("heading", { name: "Sign In" }).waitFor();

    // Empty e-mail: the spec's message, nothing sent.
    await page.getByRole("button", { name: login.emailStep.submit }).click();
    await page.getByRole("alert").getByText("Please enter your email address.", { exact: true }).waitFor();

    // Sending: busy label, inputs and button disabled, until the server answers.
    const emailInput = page.getByLabel(login.emailLabel);
    await emailInput.fill(email);
    const held = await holdAuthRequest(page, "otp");
    const mark = await latestMailId(baseUrl);
    const otpAnswer = authResponse(page, "otp");
    await page.getByRole("button", { name: login.emailStep.submit }).click();
    const sendingButton = page.getByRole("button", { name: "Sending..." });
    await sendingButton.waitFor();
    expect(await sendingButton.isDisabled()).toBe(true);
    expect(await emailInput.isDisabled()).toBe(true);
    held.release();
    expect((await otpAnswer).status()).toBe(200);

    // The code step.
    await page.getByRole("heading", { name: "Verify Code" }).waitFor();
    await page.getByText(`A 6-digit code was sent to ${email}.`, { exact: true }).waitFor();
    await page.getByRole("status").getByText("Verification code sent to your email!", { exact: true }).waitFor();
    const resend = page.getByRole("button", { name: "Resend code or change email" });
    expect(await resend.count()).toBe(0); // hidden while a success message shows
    const codeInput = page.getByLabel(login.codeLabel);
    expect(await codeInput.getAttribute("maxlength")).toBe("6");
    expect(await codeInput.getAttribute("inputmode")).toBe("numeric");
    expect(await codeInput.getAttribute("autocomplete")).toBe("one-time-code");
    expect(await codeInput.getAttribute("pattern")).toBe("[0-9]{6}");
    const code = await readCode(baseUrl, email, { after: mark });

    // A wrong code: the server's message, and the way back to step one.
    await codeInput.fill(otherCode(code));
    const rejected = authResponse(page, "verify");
    await page.getByRole("button", { name: login.codeStep.submit }).click();
    const rejection = await rejected;
    expect(rejection.status()).toBe(403);
    const rejectionBody = (await rejection.json()) as { msg?: string; message?: string };
    const serverMessage = rejectionBody.msg ?? rejectionBody.message;
    expect(serverMessage).toEqual(expect.any(String));
    await page.getByRole("alert").getByText(serverMessage!, { exact: true }).waitFor();
    await resend.waitFor();

    // Empty code.
    await codeInput.fill("");
    await page.getByRole("button", { name: login.codeStep.submit }).click();
    await page.getByRole("alert").getByText("Please enter the verification code.", { exact: true }).waitFor();

    // The right code: busy, then success, then home after 1.5 s.
    await codeInput.fill(code);
    const heldVerify = await holdAuthRequest(page, "verify");
    await page.getByRole("button", { name: login.codeStep.submit }).click();
    const verifyingButton = page.getByRole("button", { name: "Verifying..." });
    await verifyingButton.waitFor();
    expect(await verifyingButton.isDisabled()).toBe(true);
    expect(await codeInput.isDisabled()).toBe(true);
    expect(await resend.count()).toBe(0); // hidden while busy
    heldVerify.release();
    await page.getByRole("status").getByText("Successfully logged in! Redirecting...", { exact: true }).waitFor();
    const shownAt = Date.now();
    expect(await resend.count()).toBe(0);
    expect(hashOf(page)).toBe("#/login");
    await expect.poll(() => hashOf(page), { timeout: 5_000, interval: 50 }).toBe("#/");
    const waited = Date.now() - shownAt;
    expect(waited).toBeGreaterThanOrEqual(1_200);
    expect(waited).toBeLessThan(4_000);

    // Signed in: the header shows the e-mail and Logout, here and in the other tab.
    await banner.getByText(email).waitFor();
    await banner.getByRole("button", { name: "Logout" }).waitFor();
    expect(await banner.getByRole("link", { name: "Login" }).count()).toBe(0);
    await otherTab.getByRole("banner").getByText(email).waitFor();

    // A reload keeps the session (auth-js stored it).
    await page.reload();
    await banner.getByText(email).waitFor();
    await authReady(page);
    await banner.getByText(email).waitFor();

    // Logout from the login page: back home, signed out in both tabs.
    await page.goto(`${baseUrl}/#/login`);
    await banner.getByRole("button", { name: "Logout" }).click();
    await expect.poll(() => hashOf(page)).toBe("#/");
    await banner.getByRole("link", { name: "Login" }).waitFor();
    await otherTab.getByRole("banner").getByRole("link", { name: "Login" }).waitFor();
    expect(await otherTab.getByRole("banner").getByText(email).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("hwh-auth"))).toBeNull();

    for (const w of [watch, otherWatch]) {
      expect(w.errors).toEqual([]);
      expect(w.foreignRequests).toEqual([]);
    }
  });

  it("goes back from the code step to the e-mail step with 'Resend code or change email'", async () => {
    const ctx = await newContext();
    const email = uniqueEmail("resend");
    const { page, watch } = await openTab(ctx, "/login");

    await requestCode(page, email);
    // Once the success message is replaced (here by an error), the link shows.
    await page.getByRole("button", { name: login.codeStep.submit }).click();
    await page.getByRole("alert").getByText("Please enter the verification code.", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Resend code or change email" }).click();

    await page.getByRole("heading", { name: "Sign In" }).waitFor();
    expect(await page.getByLabel(login.emailLabel).inputValue()).toBe(email);
    expect(await page.getByRole("alert").textContent()).toBe("");
    expect(await page.getByRole("status").textContent()).toBe("");
    expect(hashOf(page)).toBe("#/login");
    expect(watch.errors).toEqual([]);
  });

  it("shows the server's message when the code cannot be sent", async () => {
    const ctx = await newContext();
    const { page, watch } = await openTab(ctx, "/login");
    const message = "Email rate limit exceeded";
    await page.route(`${baseUrl}/auth/v1/otp`, (route) =>
      route.fulfill({ status: 429, contentType: "application/json", body: JSON.stringify({ code: 429, error_code: "over_email_send_rate_limit", msg: message }) }),
    );

    await page.getByLabel(login.emailLabel).fill(uniqueEmail("refused"));
    await page.getByRole("button", { name: login.emailStep.submit }).click();

    await page.getByRole("alert").getByText(message, { exact: true }).waitFor();
    await page.getByRole("heading", { name: "Sign In" }).waitFor();
    expect(await page.getByLabel(login.emailLabel).isDisabled()).toBe(false);
    expect(watch.errors).toEqual([]);
  });

  it("goes home with the back-to-home button", async () => {
    const ctx = await newContext();
    const { page } = await openTab(ctx, "/login");

    await page.getByRole("button", { name: login.backToHome }).click();

    await expect.poll(() => hashOf(page)).toBe("#/");
    await page.getByRole("heading", { name: "Your Homework, Solved in Seconds" }).waitFor();
  });
});

describe("routes", () => {
  it("sends an unknown route home, replacing it in the history", async () => {
    const ctx = await newContext();
    const { page } = await openTab(ctx, "/login");
    await page.getByRole("heading", { name: "Sign In" }).waitFor();

    await page.goto(`${baseUrl}/#/nope`);

    await expect.poll(() => hashOf(page)).toBe("#/");
    await page.getByRole("heading", { name: "Your Homework, Solved in Seconds" }).waitFor();
    // Back skips the unknown route: it was replaced, not kept.
    await page.goBack();
    await expect.poll(() => hashOf(page)).toBe("#/login");
  });

  it("shows the brand in the header, linking home", async () => {
    const ctx = await newContext();
    const { page } = await openTab(ctx, "/login");

    await page.getByRole("banner").getByRole("link", { name: header.homeLinkLabel }).click();

    await expect.poll(() => hashOf(page)).toBe("#/");
  });
});
