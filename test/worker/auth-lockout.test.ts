// Nobody can lock a chosen person out of sign-in by asking codes for other spellings of their
// mailbox (issue 22): the mailbox's plain address, an account's own address and an operator's
// listed address each keep their own caps, however many codes other spellings have used; the
// other spellings share one ceiling per mailbox, which bounds the mail one inbox can receive.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { authCall, codeMailCount, expectAuthError, latestCode, signIn, uniqueIp, verify } from "../support/auth";
import { call, postJson, testRepository, type EnvOverrides } from "../support/worker";
import { createDeps } from "../../worker/deps";
import { deviceCookieOptions, deviceToken, provenDevice } from "../../worker/features/sign-in/device";
import { FORM_MEDIA_TYPE } from "../../worker/platform/http/body";
import { confirmationToken } from "../../worker/features/waitlist/tokens";
import { ADULT_ANSWER } from "../support/age";

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;
const DAY = 24 * HOUR;

/** The tests start at a midnight UTC, as the caps count in clock windows (the hour, the UTC day). */
let start = 0;
beforeEach(() => {
  start = Math.ceil(Date.now() / DAY) * DAY + DAY;
  vi.useFakeTimers({ toFake: ["Date"] });
});

/** A local part no other test (or run) uses. */
const uniqueLocal = (tag: string) => `${tag}${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;

type Ask = { createUser?: boolean; overrides?: EnvOverrides };

/** Asks for a code for `email` at `start + ms`, from a client of its own (as five attackers would). */
function ask(email: string, ms: number, { createUser = true, overrides = {} }: Ask = {}): Promise<Response> {
  vi.setSystemTime(start + ms);
  return authCall("POST", "/otp", { email, create_user: createUser }, { ip: uniqueIp(), overrides });
}

/** Five codes for five other spellings of `local`'s mailbox at `domain`, from five clients, `ms` in. */
async function fillCeiling(local: string, domain: string, ms: number, overrides: EnvOverrides = {}): Promise<void> {
  for (let index = 1; index <= 5; index += 1) {
    expect((await ask(`${local}+${index}@${domain}`, ms + index * SECOND, { overrides })).status, `spelling ${index}`).toBe(200);
  }
  // The ceiling holds for every other spelling.
  await expectAuthError(await ask(`${local}+6@${domain}`, ms + 6 * SECOND, { overrides }), 429, "over_email_send_rate_limit");
}

describe("other spellings of a mailbox never stop its own address", () => {
  it("five codes for victim+1..5@ from five clients: the victim's own address still gets its code, which signs in", async () => {
    const local = uniqueLocal("victim");
    const victim = `${local}@example.org`;
    await fillCeiling(local, "example.org", 0);

    expect((await ask(victim, 10 * SECOND)).status).toBe(200);
    expect(await codeMailCount(victim)).toBe(1);
    vi.setSystemTime(start + 11 * SECOND);
    expect((await verify(victim, await latestCode(victim))).status).toBe(200);
  });

  it("the plain address keeps its own 5 an hour and 20 a day beside the ceiling: at most 10 and 40 reach an inbox", async () => {
    const local = uniqueLocal("bound");
    const plain = `${local}@example.org`;
    const overrides = { AUTH_CODE_COOLDOWN_SECONDS: "1" };
    for (let hour = 0; hour < 4; hour += 1) {
      await fillCeiling(local, "example.org", hour * HOUR, overrides);
      for (let index = 0; index < 5; index += 1) {
        expect((await ask(plain, hour * HOUR + (10 + index * 2) * SECOND, { overrides })).status, `hour ${hour}`).toBe(200);
      }
      // The plain address's own hourly cap.
      await expectAuthError(await ask(plain, hour * HOUR + 30 * SECOND, { overrides }), 429, "over_email_send_rate_limit");
    }
    expect(await codeMailCount(plain)).toBe(20);
    // A new hour: the day's ceiling refuses the other spellings, the plain address's own day cap refuses it.
    await expectAuthError(await ask(`${local}+7@example.org`, 4 * HOUR, { overrides }), 429, "over_email_send_rate_limit");
    await expectAuthError(await ask(plain, 4 * HOUR + 2 * SECOND, { overrides }), 429, "over_email_send_rate_limit");
  });

  it("a day's worth of other spellings (four rounds of five) does not stop the plain address either", async () => {
    const local = uniqueLocal("daylong");
    for (let hour = 0; hour < 4; hour += 1) await fillCeiling(local, "example.org", hour * HOUR);
    expect((await ask(`${local}@example.org`, 4 * HOUR, { createUser: false })).status).toBe(200);
    expect((await ask(`${local}@example.org`, 4 * HOUR + 2 * SECOND, { createUser: true })).status).toBe(429);
    expect((await ask(`${local}@example.org`, 5 * HOUR, { createUser: true })).status).toBe(200);
    expect(await codeMailCount(`${local}@example.org`)).toBe(1);
  });

  it("an account at a spelling that is not the plain one (a dotted Gmail address) keeps its own caps", async () => {
    const local = uniqueLocal("jane");
    const own = `${local.slice(0, 4)}.${local.slice(4)}@gmail.com`;
    vi.setSystemTime(start);
    // Its sign-up counted against the ceiling (the address had no account yet): four more fill it.
    await signIn(own);
    // Other dotted spellings of the same Gmail inbox, from four clients.
    for (let index = 1; index <= 4; index += 1) {
      const spelling = `${local.slice(0, index)}.${local.slice(index, 6)}.${local.slice(6)}@googlemail.com`;
      expect((await ask(spelling, index * SECOND)).status, spelling).toBe(200);
    }
    await expectAuthError(await ask(`${local}+x@gmail.com`, 7 * SECOND), 429, "over_email_send_rate_limit");

    expect((await ask(own, 2 * 60 * SECOND, { createUser: false })).status).toBe(200);
    await vi.waitFor(async () => expect(await codeMailCount(own)).toBe(2));
    expect((await verify(own, await latestCode(own))).status).toBe(200);
  });

  it("an operator's address (OPERATOR_EMAILS) cannot be locked out either, before its first sign-in too", async () => {
    const local = uniqueLocal("ops");
    const operator = `${local}+console@example.org`;
    const overrides = { OPERATOR_EMAILS: `someone@example.net, ${operator.toUpperCase()}` };
    await fillCeiling(local, "example.org", 0, overrides);

    expect((await ask(operator, 10 * SECOND, { overrides })).status).toBe(200);
    vi.setSystemTime(start + 11 * SECOND);
    const response = await verify(operator, await latestCode(operator), { overrides });
    expect(response.status).toBe(200);
    // And the plain address of the same inbox, another person's or the operator's, still gets its own.
    expect((await ask(`${local}@example.org`, 12 * SECOND, { overrides })).status).toBe(200);
  });
});

/** The device cookie a response set (its value), and the whole Set-Cookie line. */
function deviceCookie(response: Response): { value: string; line: string } {
  const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith("hwh_device=")) ?? "";
  return { value: /^hwh_device=([^;]*)/.exec(line)?.[1] ?? "", line };
}

/** Asks for a code for `email` at `start + ms` from a client of its own, sending `cookie` as its device's. */
function askFromDevice(email: string, ms: number, cookie: string, overrides: EnvOverrides = {}): Promise<Response> {
  vi.setSystemTime(start + ms);
  const body = { email, create_user: true };
  return authCall("POST", "/otp", body, { ip: uniqueIp(), headers: { Cookie: `hwh_device=${cookie}` }, overrides });
}

/** Signs `email` in at `start + ms` (a code, then its verify) and returns the device cookie the verify set. */
async function signInOnDevice(email: string, ms: number, overrides: EnvOverrides = {}): Promise<string> {
  expect((await ask(email, ms, { overrides })).status).toBe(200);
  vi.setSystemTime(start + ms + SECOND);
  const response = await verify(email, await latestCode(email), { overrides });
  expect(response.status).toBe(200);
  return deviceCookie(response).value;
}

/** `count` requests for `email`'s exact address in other Unicode and case spellings, from as many clients, a minute apart. */
async function fillAddress(email: string, ms: number, count: number, overrides: EnvOverrides = {}): Promise<void> {
  const [local, domain] = email.split("@") as [string, string];
  const fullwidth = (text: string) => text.replace(/[a-z0-9]/g, (ch) => String.fromCodePoint(ch.codePointAt(0)! + 0xfee0));
  const spellings = [
    `${fullwidth(local)}@${domain}`,
    email.toUpperCase(),
    `${local}@${fullwidth(domain)}`,
    `${local.toUpperCase()}@${fullwidth(domain)}`,
    `${fullwidth(local).toUpperCase()}@${domain.toUpperCase()}`,
  ];
  for (const [index, spelling] of spellings.slice(0, count).entries()) {
    expect((await ask(spelling, ms + index * 61 * SECOND, { overrides })).status, spelling).toBe(200);
  }
}

describe("a waitlist entry's own address and a signed-in device are never locked out (issue 22, review point 2)", () => {
  it("a confirmed waitlist entry at jo.ann@gmail.com gets its code after joann+1..5@gmail.com from five clients", async () => {
    const local = uniqueLocal("joann");
    const waitlisted = `${local.slice(0, 2)}.${local.slice(2)}@gmail.com`;
    vi.setSystemTime(start);
    const joined = await postJson("/api/waitlist", { ...ADULT_ANSWER, email: waitlisted, source: "hero" });
    expect(joined.status, await joined.clone().text()).toBe(201);
    const entry = (await testRepository().waitlist.entryByEmail(waitlisted))!;
    const token = await confirmationToken(
      createDeps(env, () => new Date(start)),
      entry.id,
      entry.referralJoin,
    );
    const confirmed = await call("/confirm", {
      method: "POST",
      headers: { "Content-Type": FORM_MEDIA_TYPE, "Sec-Fetch-Site": "same-origin", Origin: "http://localhost" },
      body: new URLSearchParams({ token }).toString(),
    });
    expect(confirmed.status).toBe(200);
    expect((await testRepository().waitlist.entryByEmail(waitlisted))!.confirmedAt).not.toBeNull();

    await fillCeiling(local, "gmail.com", 60 * SECOND);
    expect((await ask(waitlisted, 70 * SECOND)).status).toBe(200);
    vi.setSystemTime(start + 71 * SECOND);
    expect((await verify(waitlisted, await latestCode(waitlisted))).status).toBe(200);
  });

  it("verify sets the device cookie: HttpOnly, SameSite=Strict, Path=/auth/v1, 180 days, Secure outside development", async () => {
    const email = `${uniqueLocal("cookie")}@example.org`;
    expect((await ask(email, 0)).status).toBe(200);
    const { value, line } = deviceCookie(await verify(email, await latestCode(email)));
    expect(value).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    // The cookie names the address's keyed hash, never the address.
    expect(atob(value.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).not.toContain(email.split("@")[0]);
    expect(line).toContain("; Max-Age=15552000; Path=/auth/v1; HttpOnly; SameSite=Strict");
    // Secure everywhere but development (the tests' server is development, on plain http).
    expect(line).not.toContain("Secure");
    expect(deviceCookieOptions(false).secure).toBe(true);
  });

  it("a student and an operator who signed in on a device get their code with its cookie after five requests for their exact address", async () => {
    const student = `${uniqueLocal("student")}@example.org`;
    const operator = `${uniqueLocal("operator")}@example.com`;
    const overrides = { OPERATOR_EMAILS: operator };
    for (const email of [student, operator]) {
      const cookie = await signInOnDevice(email, 0, overrides);
      // Strangers, in other spellings of the exact address, fill its hourly cap (the sign-in was the first of five).
      await fillAddress(email, 2 * 60 * SECOND, 4, overrides);
      await expectAuthError(await ask(email, 10 * 60 * SECOND, { overrides }), 429, "over_email_send_rate_limit");

      const mails = await codeMailCount(email);
      expect((await askFromDevice(email, 11 * 60 * SECOND, cookie, overrides)).status, email).toBe(200);
      expect(await codeMailCount(email)).toBe(mails + 1);
      vi.setSystemTime(start + 11 * 60 * SECOND + SECOND);
      expect((await verify(email, await latestCode(email), { overrides })).status).toBe(200);
    }
  });

  it("a day of strangers (20 requests) does not stop the device either; the device has its own 5 an hour and 20 a day", async () => {
    const email = `${uniqueLocal("allday")}@example.org`;
    const overrides = { AUTH_CODE_COOLDOWN_SECONDS: "1" };
    const cookie = await signInOnDevice(email, 0, overrides);
    for (let hour = 0; hour < 4; hour += 1) {
      for (let index = 0; index < (hour === 0 ? 4 : 5); index += 1) {
        expect((await ask(email.toUpperCase(), hour * HOUR + (10 + index * 2) * SECOND, { overrides })).status).toBe(200);
      }
    }
    await expectAuthError(await ask(email, 5 * HOUR, { overrides }), 429, "over_email_send_rate_limit");
    for (let index = 0; index < 5; index += 1) {
      expect((await askFromDevice(email, 5 * HOUR + index * 2 * SECOND, cookie, overrides)).status).toBe(200);
    }
    // The device's own hourly cap.
    await expectAuthError(await askFromDevice(email, 5 * HOUR + 20 * SECOND, cookie, overrides), 429, "over_email_send_rate_limit");
    // The inbox bound: 20 to the address that day, plus 5 for this device so far.
    expect(await codeMailCount(email)).toBe(25);
  });

  it("without the cookie, or with a forged, altered or another address's cookie, the address's caps still bound the inbox", async () => {
    const victim = `${uniqueLocal("victim")}@example.org`;
    const other = `${uniqueLocal("other")}@example.org`;
    const othersCookie = await signInOnDevice(other, 0);
    vi.setSystemTime(start + 2 * SECOND);
    const victimsSession = await signIn(victim);
    await fillAddress(victim, 2 * 60 * SECOND, 4);
    const victimsCookie = await deviceToken(env.AUTH_JWT_SECRET, victim, new Date(start));
    const [header, payload, signature] = victimsCookie.split(".") as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === "A" ? "B" : "A"}${signature.at(-1)}`;
    const unsigned = `${btoa(JSON.stringify({ alg: "none" })).replace(/=+$/, "")}.${payload}.`;
    const refused = [
      othersCookie,
      `${header}.${payload}.${flipped}`,
      unsigned,
      "not-a-token",
      // An access token is signed with the secret itself, never the device's key.
      victimsSession.access_token,
    ];
    for (const [index, cookie] of refused.entries()) {
      await expectAuthError(await askFromDevice(victim, 10 * 60 * SECOND + index * SECOND, cookie), 429, "over_email_send_rate_limit");
    }
    await expectAuthError(await ask(victim, 11 * 60 * SECOND), 429, "over_email_send_rate_limit");
    // The signed cookie names this address and proves this device, until it expires after 180 days.
    const device = await provenDevice(env.AUTH_JWT_SECRET, victim, victimsCookie, new Date(start + 179 * DAY));
    expect(device).toMatch(/^[\w-]{43}$/);
    expect(await provenDevice(env.AUTH_JWT_SECRET, other, victimsCookie, new Date(start))).toBeNull();
    expect(await provenDevice(env.AUTH_JWT_SECRET, victim, victimsCookie, new Date(start + 181 * DAY))).toBeNull();
    expect(await codeMailCount(victim)).toBe(5);
  });
});
