// The per-address caps on code e-mails (AUTH_CODE_HOURLY_LIMIT, AUTH_CODE_DAILY_LIMIT) besides the cooldown.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { authCall, codeMailCount, codeRow, expectAuthError, latestCode, verify } from "../support/auth";
import { fakeProvider, PROVIDER_ENV } from "../support/fake-provider";
import type { EnvOverrides } from "../support/worker";
import { uniqueEmail } from "../support/worker";

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;
const DAY = 24 * HOUR;

/** A one-second cooldown, so the caps are what refuses. */
const SHORT_COOLDOWN = { AUTH_CODE_COOLDOWN_SECONDS: "1" };

let start = 0;
beforeEach(() => {
  start = Date.now();
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Asks for a code for `email` at `start + ms`. */
function ask(email: string, ms: number, overrides: EnvOverrides = SHORT_COOLDOWN): Promise<Response> {
  vi.setSystemTime(start + ms);
  return authCall("POST", "/otp", { email }, { overrides });
}

async function expectRefused(response: Response, seconds: number): Promise<void> {
  const body = await expectAuthError(response, 429, "over_email_send_rate_limit");
  expect(body.message).toBe(`For security purposes, you can only request this after ${seconds} seconds.`);
  expect(response.headers.get("Retry-After")).toBe(String(seconds));
}

describe("caps on code e-mails per address", () => {
  it("the 6th code within an hour is refused until the hour is over, and nothing is e-mailed", async () => {
    const email = uniqueEmail("hourcap");
    for (let index = 0; index < 5; index += 1) expect((await ask(email, index * 2 * SECOND)).status).toBe(200);
    expect(await codeMailCount(email)).toBe(5);

    await expectRefused(await ask(email, 10 * SECOND), 3590);
    await expectRefused(await ask(email, HOUR - SECOND), 1);
    expect(await codeMailCount(email)).toBe(5);
    expect(await codeRow(email)).toMatchObject({ hour_count: 5, day_count: 5 });

    expect((await ask(email, HOUR)).status).toBe(200);
    expect(await codeMailCount(email)).toBe(6);
    expect(await codeRow(email)).toMatchObject({ hour_count: 1, day_count: 6 });
    expect((await verify(email, await latestCode(email))).status).toBe(200);
  });

  it("a refused request leaves the live code in place", async () => {
    const email = uniqueEmail("keeplive");
    for (let index = 0; index < 5; index += 1) await ask(email, index * 2 * SECOND);
    const live = await latestCode(email);
    await expectRefused(await ask(email, 10 * SECOND), 3590);
    expect((await verify(email, live)).status).toBe(200);
  });

  it("the 21st code within a day is refused until the day is over", async () => {
    const email = uniqueEmail("daycap");
    for (let hour = 0; hour < 4; hour += 1) {
      for (let index = 0; index < 5; index += 1) expect((await ask(email, hour * HOUR + index * 2 * SECOND)).status).toBe(200);
    }
    expect(await codeMailCount(email)).toBe(20);
    // A new hour, so only the day's cap refuses: the wait is to the end of the day that began with the first code.
    await expectRefused(await ask(email, 4 * HOUR), (DAY - 4 * HOUR) / SECOND);
    await expectRefused(await ask(email, DAY - SECOND), 1);
    expect(await codeMailCount(email)).toBe(20);
    expect((await ask(email, DAY)).status).toBe(200);
    expect(await codeMailCount(email)).toBe(21);
  });

  it("the caps are settings (AUTH_CODE_HOURLY_LIMIT, AUTH_CODE_DAILY_LIMIT)", async () => {
    const hourly = uniqueEmail("hourly2");
    const overrides = { ...SHORT_COOLDOWN, AUTH_CODE_HOURLY_LIMIT: "2", AUTH_CODE_DAILY_LIMIT: "3" };
    expect((await ask(hourly, 0, overrides)).status).toBe(200);
    expect((await ask(hourly, 2 * SECOND, overrides)).status).toBe(200);
    await expectRefused(await ask(hourly, 4 * SECOND, overrides), 3596);
    expect((await ask(hourly, HOUR, overrides)).status).toBe(200);
    await expectRefused(await ask(hourly, HOUR + 2 * SECOND, overrides), (DAY - HOUR - 2 * SECOND) / SECOND);
  });

  it("a code whose e-mail could not be sent does not use up the caps", async () => {
    const email = uniqueEmail("failcap");
    const provider = fakeProvider("http-500");
    const overrides = { ...PROVIDER_ENV, ...SHORT_COOLDOWN };
    for (let index = 0; index < 6; index += 1) {
      await expectAuthError(await ask(email, index * 2 * SECOND, overrides), 500, "unexpected_failure");
    }
    expect(provider.calls).toHaveLength(6);
    expect(await codeRow(email)).toMatchObject({ code_hash: null, hour_count: 0, day_count: 0 });

    provider.setMode("success");
    for (let index = 6; index < 11; index += 1) expect((await ask(email, index * 2 * SECOND, overrides)).status).toBe(200);
    expect(provider.calls).toHaveLength(11);
    await expectRefused(await ask(email, 22 * SECOND, overrides), 3600 - 22);
    // The refused request never reached the provider.
    expect(provider.calls).toHaveLength(11);
  });
});
