/**
 * The site in headless Chromium against the worker under wrangler dev: the two-step sign-in of
 * spec §2 (Login), its messages (§5, §8), a new code within the server's wait (a countdown on
 * step two), the code field's digits-only input and focus, the page seen while signed in, the
 * header's auth status in every open tab, logout, and the layout at 360 and 1280 px. Codes are
 * read from the dev mailbox, as a user would read their e-mail. What the page does with no
 * browser behind it (the e-mail check, back to home, the routes) is in test/web.
 */
import type { Page, Response } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { admin } from "../../web/src/admin/content";
import { CONSOLE_PATH } from "../../web/src/routes";
import { login } from "../../web/src/pages/login/content";
import { codeWaitMessage, requestRateMessage } from "@shared/sign-in";
import { useBrowser } from "./browser";
import { latestMailId, otherCode, readCode, uniqueEmail } from "./support";

const baseUrl = inject("baseUrl");

/** One Chromium for this file; each test's contexts (browser profiles) are closed after it. */
const { newContext, openTab } = useBrowser(baseUrl);

/**
 * Waits until the auth client is loaded and listening. The site loads auth-js (its own chunk,
 * assets/auth-js-*.js) once the page is idle when a session is stored: wait for that script, then
 * for the network to settle (the client subscribes as soon as the script has run). Polled with
 * page.evaluate: page.waitForFunction would evaluate the string in the page, which its CSP refuses.
 */
async function authReady(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate<boolean>(LAZY_SCRIPT_LOADED), { timeout: 10_000 }).toBe(true);
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

/** Signs `email` in through the page (both steps, the code from the dev mailbox) and waits for My place (issue 22). */
async function signIn(page: Page, email: string): Promise<void> {
  const mark = await latestMailId(baseUrl);
  await requestCode(page, email);
  await page.getByLabel(login.codeLabel).fill(await readCode(baseUrl, email, { after: mark }));
  await page.getByRole("button", { name: login.codeStep.submit }).click();
  await page.getByRole("status").getByText("Successfully logged in! Redirecting...", { exact: true }).waitFor();
  await expect.poll(() => hashOf(page), { timeout: 5_000 }).toBe("#/me");
}

/** The name attribute of the focused element (null for the page body). */
const focusedName = (page: Page) => page.evaluate<string | null>(`document.activeElement?.getAttribute("name") ?? null`);

/** A 429 of the auth service as the worker sends it (GoTrue's shape, its API version, Retry-After). */
function authTooMany(code: "over_email_send_rate_limit" | "over_request_rate_limit", seconds: number) {
  const message = code === "over_email_send_rate_limit" ? codeWaitMessage(seconds) : requestRateMessage(seconds);
  return {
    status: 429,
    contentType: "application/json",
    headers: { "Retry-After": String(seconds), "X-Supabase-Api-Version": "2024-01-01" },
    body: JSON.stringify({ code, error_code: code, msg: message, message }),
  };
}

/**
 * Elements of the login card that stick out of it, or of the page (none may): "tag.class" each.
 * A string, evaluated in the page (these tests are type-checked without the DOM library).
 */
const LOGIN_OVERFLOW = `(() => {
  const root = document.documentElement;
  const card = document.querySelector(".login .card").getBoundingClientRect();
  const out = [...document.querySelectorAll(".login .card *")].filter((el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && (box.left < card.left - 1 || box.right > card.right + 1);
  });
  const page = root.scrollWidth > root.clientWidth || card.right > root.clientWidth + 1 || card.left < -1 ? ["the page"] : [];
  return page.concat(out.map((el) => el.tagName.toLowerCase() + (typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\\s+/).join(".") : "")));
})()`;

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
    // The way back shows beside the code-sent confirmation (it only hides while busy and once
    // signed in), and focus is in the code field, so a phone keeps its keyboard.
    const resend = page.getByRole("button", { name: "Resend code or change email" });
    await resend.waitFor();
    const codeInput = page.getByLabel(login.codeLabel);
    await expect.poll(() => focusedName(page)).toBe("code");
    expect(await codeInput.getAttribute("maxlength")).toBe("6");
    expect(await codeInput.getAttribute("inputmode")).toBe("numeric");
    expect(await codeInput.getAttribute("autocomplete")).toBe("one-time-code");
    expect(await codeInput.getAttribute("pattern")).toBe("[0-9]{6}");
    const code = await readCode(baseUrl, email, { after: mark });

    // A wrong code: the server's otp_expired in plain words (no count of tries: the server states
    // none, issue 22), and the way back to step one.
    await codeInput.fill(otherCode(code));
    const rejected = authResponse(page, "verify");
    await page.getByRole("button", { name: login.codeStep.submit }).click();
    const rejection = await rejected;
    expect(rejection.status()).toBe(403);
    const rejectionBody = (await rejection.json()) as { code?: string; message?: string };
    expect(rejectionBody.code).toBe("otp_expired");
    await page.getByRole("alert").getByText(login.messages.codeRejected, { exact: true }).waitFor();
    expect(await page.getByText(rejectionBody.message!).count()).toBe(0);
    await resend.waitFor();

    // Empty code.
    await codeInput.fill("");
    await page.getByRole("button", { name: login.codeStep.submit }).click();
    await page.getByRole("alert").getByText("Please enter the verification code.", { exact: true }).waitFor();

    // The right code: busy, then success, then My place after 1.5 s (the header's Login asked for no page: issue 22).
    await codeInput.fill(code);
    const heldVerify = await holdAuthRequest(page, "verify");
    await page.getByRole("button", { name: login.codeStep.submit }).click();
    const verifyingButton = page.getByRole("button", { name: "Verifying..." });
    await verifyingButton.waitFor();
    expect(await verifyingButton.isDisabled()).toBe(true);
    expect(await codeInput.isDisabled()).toBe(true);
    expect(await resend.count()).toBe(0); // hidden while busy
    // Timed inside the page (when the message appears, when the address changes), so a busy test
    // runner noticing either late cannot shorten or stretch the wait it measures.
    await page.evaluate(`(() => {
      const times = { shown: 0, moved: 0 };
      window.redirectTimes = times;
      new MutationObserver((_, observer) => {
        if (!times.shown && document.body.textContent.includes("Successfully logged in! Redirecting...")) {
          times.shown = performance.now();
          observer.disconnect();
        }
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
      window.addEventListener("hashchange", () => {
        if (!times.moved) times.moved = performance.now();
      });
    })()`);
    heldVerify.release();
    await page.getByRole("status").getByText("Successfully logged in! Redirecting...", { exact: true }).waitFor();
    expect(await resend.count()).toBe(0);
    await expect.poll(() => hashOf(page), { timeout: 5_000, interval: 50 }).toBe("#/me");
    await page.getByRole("main").getByRole("heading", { level: 1, name: "My place" }).waitFor();
    const { shown, moved } = await page.evaluate<{ shown: number; moved: number }>("window.redirectTimes");
    expect(shown).toBeGreaterThan(0);
    expect(moved - shown).toBeGreaterThanOrEqual(1_400);
    expect(moved - shown).toBeLessThan(4_000);

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

    // The login page while signed in: who is signed in, and no form.
    await page.goto(`${baseUrl}/#/login`);
    const main = page.getByRole("main");
    await main.getByText(`You're signed in as ${email}.`, { exact: true }).waitFor();
    expect(await page.getByLabel(login.emailLabel).count()).toBe(0);

    // Logout from the header on the login page: back home, signed out in both tabs.
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
    // Right away: the code-sent confirmation does not hide the link.
    await page.getByRole("status").getByText("Verification code sent to your email!", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Resend code or change email" }).click();

    await page.getByRole("heading", { name: "Sign In" }).waitFor();
    expect(await page.getByLabel(login.emailLabel).inputValue()).toBe(email);
    await expect.poll(() => focusedName(page)).toBe("email");
    expect(await page.getByRole("alert").textContent()).toBe("");
    expect(await page.getByRole("status").textContent()).toBe("");
    expect(hashOf(page)).toBe("#/login");
    expect(watch.errors).toEqual([]);
  });

  it("shows the server's message for a refusal the page has no words of its own for (spec §8)", async () => {
    const ctx = await newContext();
    const { page, watch } = await openTab(ctx, "/login");
    const message = "Email logins are disabled";
    await page.route(`${baseUrl}/auth/v1/otp`, (route) =>
      route.fulfill({
        status: 422,
        contentType: "application/json",
        headers: { "X-Supabase-Api-Version": "2024-01-01" },
        body: JSON.stringify({ code: "email_provider_disabled", error_code: "email_provider_disabled", msg: message, message }),
      }),
    );

    await page.getByLabel(login.emailLabel).fill(uniqueEmail("refused"));
    await page.getByRole("button", { name: login.emailStep.submit }).click();

    await page.getByRole("alert").getByText(message, { exact: true }).waitFor();
    await page.getByRole("heading", { name: "Sign In" }).waitFor();
    expect(await page.getByLabel(login.emailLabel).isDisabled()).toBe(false);
    expect(watch.errors).toEqual([]);
  });

  it("shows the spec's words, never 'Failed to fetch', when the network fails", async () => {
    const ctx = await newContext();
    const { page, watch } = await openTab(ctx, "/login");
    const email = uniqueEmail("offline");

    await page.route(`${baseUrl}/auth/v1/otp`, (route) => route.abort("internetdisconnected"), { times: 1 });
    await page.getByLabel(login.emailLabel).fill(email);
    await page.getByRole("button", { name: login.emailStep.submit }).click();
    await page.getByRole("alert").getByText("Failed to send verification code. Please try again.", { exact: true }).waitFor();
    expect(await page.getByText("Failed to fetch").count()).toBe(0);

    await requestCode(page, email);
    await page.route(`${baseUrl}/auth/v1/verify`, (route) => route.abort("internetdisconnected"), { times: 1 });
    await page.getByLabel(login.codeLabel).fill("123456");
    await page.getByRole("button", { name: login.codeStep.submit }).click();
    await page.getByRole("alert").getByText("Invalid verification code. Please try again.", { exact: true }).waitFor();
    expect(await page.getByText("Failed to fetch").count()).toBe(0);
    expect(watch.errors).toEqual([]);
  });

  it("within the server's wait, a new code keeps step two and counts down to when it can be had", async () => {
    const ctx = await newContext();
    const { page, watch } = await openTab(ctx, "/login");
    const email = uniqueEmail("wait");
    await requestCode(page, email);
    const codeInput = page.getByLabel(login.codeLabel);
    await codeInput.fill("12");

    // The worker's answer within its wait (the e2e server's wait is cut to 1 s, too short to see).
    await page.route(`${baseUrl}/auth/v1/otp`, (route) => route.fulfill(authTooMany("over_email_send_rate_limit", 3)), { times: 1 });
    await page.getByRole("button", { name: login.sendNewCode }).click();

    const timer = page.getByRole("timer");
    await timer.getByText("You can ask for a new code in 3 seconds.", { exact: true }).waitFor();
    await page.getByRole("status").getByText(login.messages.codeAlreadySent, { exact: true }).waitFor();
    await page.getByRole("heading", { name: "Verify Code" }).waitFor();
    expect(await page.getByRole("button", { name: login.sendNewCode }).count()).toBe(0);
    expect(await page.getByText(/For security purposes/).count()).toBe(0);
    // The code already sent still works: what was typed stays, focus is in the field.
    expect(await codeInput.inputValue()).toBe("12");
    await expect.poll(() => focusedName(page)).toBe("code");
    await timer.getByText("You can ask for a new code in 2 seconds.", { exact: true }).waitFor();

    // The wait is over: a new code, really sent, signs in.
    const newCode = page.getByRole("button", { name: login.sendNewCode });
    await newCode.waitFor({ timeout: 5_000 });
    expect(await timer.count()).toBe(0);
    const mark = await latestMailId(baseUrl);
    const otpAnswer = authResponse(page, "otp");
    await newCode.click();
    expect((await otpAnswer).status()).toBe(200);
    await page.getByRole("status").getByText("Verification code sent to your email!", { exact: true }).waitFor();
    expect(await codeInput.inputValue()).toBe("");
    await codeInput.fill(await readCode(baseUrl, email, { after: mark }));
    await page.getByRole("button", { name: login.codeStep.submit }).click();
    await page.getByRole("status").getByText("Successfully logged in! Redirecting...", { exact: true }).waitFor();
    expect(watch.errors).toEqual([]);
  });

  it("past the per-client (network) limit, keeps step one's button disabled with a countdown", async () => {
    const ctx = await newContext();
    const { page } = await openTab(ctx, "/login");
    await page.route(`${baseUrl}/auth/v1/otp`, (route) => route.fulfill(authTooMany("over_request_rate_limit", 2)), { times: 1 });

    await page.getByLabel(login.emailLabel).fill(uniqueEmail("limit"));
    const send = page.getByRole("button", { name: login.emailStep.submit });
    await send.click();

    await page.getByRole("alert").getByText(login.messages.tooManyCodeRequests, { exact: true }).waitFor();
    await page.getByRole("timer").getByText("You can ask for a new code in 2 seconds.", { exact: true }).waitFor();
    expect(await send.isDisabled()).toBe(true);
    await expect.poll(() => send.isDisabled(), { timeout: 5_000 }).toBe(false);
    expect(await page.getByRole("timer").count()).toBe(0);
    await send.click();
    await page.getByRole("heading", { name: "Verify Code" }).waitFor();
  });

  it("takes only digits in the code field, typed or pasted", async () => {
    const ctx = await newContext({ permissions: ["clipboard-read", "clipboard-write"] });
    const { page } = await openTab(ctx, "/login");
    await requestCode(page, uniqueEmail("digits"));
    const codeInput = page.getByLabel(login.codeLabel);

    await codeInput.pressSequentially("1a2b3 c");
    expect(await codeInput.inputValue()).toBe("123");

    // maxlength alone would cut a pasted "123-456" to "123-45".
    for (const pasted of ["123 456", "123-456"]) {
      await codeInput.fill("");
      await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(pasted)})`);
      await codeInput.focus();
      await page.keyboard.press("ControlOrMeta+V");
      await expect.poll(() => codeInput.inputValue()).toBe("123456");
    }
  });

  it("shows who is signed in at /login; its Logout shows the form to sign in again", async () => {
    const ctx = await newContext();
    const email = uniqueEmail("signed-in");
    const { page, watch } = await openTab(ctx, "/login");
    await signIn(page, email);

    await page.goto(`${baseUrl}/#/login`);
    const main = page.getByRole("main");
    await main.getByRole("heading", { level: 1, name: login.signedInView.title }).waitFor();
    await main.getByText(`You're signed in as ${email}.`, { exact: true }).waitFor();
    await authReady(page);
    await main.getByRole("button", { name: login.signedInView.logout }).click();

    await main.getByRole("heading", { level: 1, name: "Sign In" }).waitFor();
    await page.getByRole("status").getByText(login.messages.loggedOut, { exact: true }).waitFor();
    await expect.poll(() => focusedName(page)).toBe("email");
    expect(hashOf(page)).toBe("#/login");
    await page.getByRole("banner").getByRole("link", { name: "Login" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("hwh-auth"))).toBeNull();
    expect(watch.errors).toEqual([]);
  });

  it("keeps the device cookie the sign-in set (HttpOnly, SameSite=Strict, /auth/v1) and sends it with the next code request (issue 22)", async () => {
    const ctx = await newContext();
    const email = uniqueEmail("device");
    const { page, watch } = await openTab(ctx, "/login");
    await signIn(page, email);
    const cookies = (await ctx.cookies(`${baseUrl}/auth/v1/otp`)).filter((cookie) => cookie.name === "hwh_device");
    expect(cookies).toHaveLength(1);
    const [device] = cookies as [(typeof cookies)[number]];
    // Not Secure: the dev server is plain http (ENVIRONMENT=development); production adds Secure.
    expect(device).toMatchObject({ path: "/auth/v1", httpOnly: true, sameSite: "Strict", secure: false });
    expect(Math.abs(device.expires - (Date.now() / 1000 + 180 * 24 * 60 * 60))).toBeLessThan(120);
    // Scripts cannot read it.
    expect(await page.evaluate<string>("document.cookie")).not.toContain("hwh_device");

    // auth-js's fetch (credentials "same-origin" by default) sends it back with the next /otp.
    await page.goto(`${baseUrl}/#/login`);
    await authReady(page);
    await page.getByRole("main").getByRole("button", { name: login.signedInView.logout }).click();
    await page.getByRole("main").getByRole("heading", { level: 1, name: "Sign In" }).waitFor();
    const otp = authResponse(page, "otp");
    await requestCode(page, email);
    const sent = await (await otp).request().allHeaders();
    expect(sent.cookie).toContain(`hwh_device=${device.value}`);
    expect(watch.errors).toEqual([]);
  });

  it("says a wrong code is wrong right under the code field, which it describes (360x740 and 1280)", async () => {
    for (const viewport of [
      { width: 360, height: 740 },
      { width: 1280, height: 800 },
    ]) {
      const ctx = await newContext({ viewport });
      const { page } = await openTab(ctx, "/login");
      const email = uniqueEmail(`tries-${viewport.width}`);
      const mark = await latestMailId(baseUrl);
      await requestCode(page, email);
      const code = await readCode(baseUrl, email, { after: mark });
      const field = page.getByLabel(login.codeLabel);
      await field.fill(otherCode(code));
      await page.getByRole("button", { name: login.codeStep.submit }).click();
      const alert = page.getByRole("alert");
      await alert.getByText(login.messages.codeRejected, { exact: true }).waitFor();

      // At the field: its top within 40 px of the field's bottom (it was about 190 px under it,
      // below the two links, where an open phone keyboard hides it).
      const fieldBox = (await field.boundingBox())!;
      const alertBox = (await alert.boundingBox())!;
      const gap = alertBox.y - (fieldBox.y + fieldBox.height);
      expect(gap, `gap at ${viewport.width} px`).toBeGreaterThanOrEqual(0);
      expect(gap, `gap at ${viewport.width} px`).toBeLessThanOrEqual(40);
      const links = await page.getByRole("button", { name: login.resend }).boundingBox();
      expect(alertBox.y, "above the step's links").toBeLessThan(links!.y);
      expect((await field.getAttribute("aria-describedby"))?.split(" ")).toContain(await alert.getAttribute("id"));
      expect(await field.getAttribute("aria-invalid")).toBe("true");

      // A second wrong guess is answered as the first (no count of tries), and the right code still signs in.
      await field.fill(otherCode(otherCode(code)));
      const second = authResponse(page, "verify");
      await page.getByRole("button", { name: login.codeStep.submit }).click();
      expect(((await (await second).json()) as { message?: string }).message).toBe("Token has expired or is invalid");
      await alert.getByText(login.messages.codeRejected, { exact: true }).waitFor();
      await field.fill(code);
      await page.getByRole("button", { name: login.codeStep.submit }).click();
      await page.getByRole("status").getByText(login.messages.signedIn, { exact: true }).waitFor();
      await ctx.close();
    }
  });

  it("from the console's Sign in link, comes back to the console once signed in", async () => {
    const ctx = await newContext({ viewport: { width: 1280, height: 800 } });
    const { page } = await openTab(ctx, "/");
    await page.goto(`${baseUrl}${CONSOLE_PATH}`);
    await page.getByRole("link", { name: admin.signedOut.link }).click();
    await page.getByRole("heading", { name: "Sign In" }).waitFor();
    const email = uniqueEmail("from-console");
    const mark = await latestMailId(baseUrl);
    await requestCode(page, email);
    await page.getByLabel(login.codeLabel).fill(await readCode(baseUrl, email, { after: mark }));
    await page.getByRole("button", { name: login.codeStep.submit }).click();
    await page.getByRole("status").getByText(login.messages.signedIn, { exact: true }).waitFor();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 5_000 }).toBe(CONSOLE_PATH);
    // Signed in there (not an operator: the console says so, by name).
    await page.getByRole("heading", { level: 1, name: admin.notAuthorised.title }).waitFor();
    await page.getByText(admin.notAuthorised.text(email), { exact: true }).waitFor();
  });

  it("fits 360 px and 1280 px on both steps, with a countdown and an error", async () => {
    for (const width of [360, 1280]) {
      const ctx = await newContext({ viewport: { width, height: 800 } });
      const { page } = await openTab(ctx, "/login");
      // A long address must wrap, not push the card wider.
      const email = uniqueEmail(`a-rather-long-student-name-${width}`);
      await page.getByLabel(login.emailLabel).fill("student@school");
      await page.getByRole("button", { name: login.emailStep.submit }).click();
      await page.getByRole("alert").getByText(login.messages.emailInvalid, { exact: true }).waitFor();
      expect(await page.evaluate<string[]>(LOGIN_OVERFLOW), `step one with an error at ${width} px`).toEqual([]);

      await requestCode(page, email);
      await page.route(`${baseUrl}/auth/v1/otp`, (route) => route.fulfill(authTooMany("over_email_send_rate_limit", 42)), { times: 1 });
      await page.getByRole("button", { name: login.sendNewCode }).click();
      await page.getByRole("timer").waitFor();
      await page.getByLabel(login.codeLabel).fill("12345");
      await page.getByRole("button", { name: login.codeStep.submit }).click();
      await page.getByRole("alert").getByText(login.messages.codeIncomplete, { exact: true }).waitFor();
      expect(await page.evaluate<string[]>(LOGIN_OVERFLOW), `step two with a countdown and an error at ${width} px`).toEqual([]);
    }
  });
});
