// The caps on code e-mails (AUTH_CODE_HOURLY_LIMIT, AUTH_CODE_DAILY_LIMIT) besides the cooldown: per mailbox, per clock window.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { canonicalMailbox } from "../../worker/features/sign-in/mailbox";
import { codeWaitMessage } from "../../worker/shared/sign-in";
import { authCall, codeMailCount, codeRow, expectAuthError, latestCode, mailboxCounts, verify } from "../support/auth";
import { fakeProvider, PROVIDER_ENV } from "../support/fake-provider";
import type { EnvOverrides } from "../support/worker";
import { uniqueEmail } from "../support/worker";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A one-second cooldown, so the caps are what refuses. */
const SHORT_COOLDOWN = { AUTH_CODE_COOLDOWN_SECONDS: "1" };

/** The caps count in clock windows (the hour, the UTC day): the tests start at a midnight UTC. */
let start = 0;
beforeEach(() => {
  start = Math.ceil(Date.now() / DAY) * DAY + DAY;
  vi.useFakeTimers({ toFake: ["Date"] });
});

/** Asks for a code for `email` at `start + ms`. */
function ask(email: string, ms: number, overrides: EnvOverrides = SHORT_COOLDOWN): Promise<Response> {
  vi.setSystemTime(start + ms);
  return authCall("POST", "/otp", { email }, { overrides });
}

async function expectRefused(response: Response, seconds: number): Promise<void> {
  const body = await expectAuthError(response, 429, "over_email_send_rate_limit");
  expect(body.message).toBe(codeWaitMessage(seconds));
  expect(response.headers.get("Retry-After")).toBe(String(seconds));
}

/** A local part no other test (or run) uses. */
const uniqueLocal = (tag: string) => `${tag}${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;

describe("caps on code e-mails per mailbox", () => {
  it("the 6th code within a clock hour is refused until that hour ends, and nothing is e-mailed", async () => {
    const email = uniqueEmail("hourcap");
    // The first code 20 minutes into the hour: the hour's window ends 40 minutes later, not 60.
    const first = 20 * MINUTE;
    for (let index = 0; index < 5; index += 1) expect((await ask(email, first + index * 2 * SECOND)).status).toBe(200);
    expect(await codeMailCount(email)).toBe(5);

    await expectRefused(await ask(email, first + 10 * SECOND), (HOUR - first - 10 * SECOND) / SECOND);
    await expectRefused(await ask(email, HOUR - SECOND), 1);
    expect(await codeMailCount(email)).toBe(5);
    // Refused requests took their counts back: only the codes sent count.
    expect(await mailboxCounts(email)).toEqual({ hour: 5, day: 5 });

    expect((await ask(email, HOUR)).status).toBe(200);
    expect(await codeMailCount(email)).toBe(6);
    expect(await mailboxCounts(email)).toEqual({ hour: 1, day: 6 });
    expect((await verify(email, await latestCode(email))).status).toBe(200);
  });

  it("a refused request leaves the live code in place", async () => {
    const email = uniqueEmail("keeplive");
    for (let index = 0; index < 5; index += 1) await ask(email, index * 2 * SECOND);
    const live = await latestCode(email);
    await expectRefused(await ask(email, 10 * SECOND), 3590);
    expect((await verify(email, live)).status).toBe(200);
  });

  it("the 21st code within a UTC day is refused until the day ends", async () => {
    const email = uniqueEmail("daycap");
    for (let hour = 0; hour < 4; hour += 1) {
      for (let index = 0; index < 5; index += 1) expect((await ask(email, hour * HOUR + index * 2 * SECOND)).status).toBe(200);
    }
    expect(await codeMailCount(email)).toBe(20);
    // A new hour, so only the day's cap refuses: the wait is to the end of the UTC day.
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
    expect(await codeRow(email)).toMatchObject({ code_hash: null });
    expect(await mailboxCounts(email)).toEqual({ hour: 0, day: 0 });

    provider.setMode("success");
    for (let index = 6; index < 11; index += 1) expect((await ask(email, index * 2 * SECOND, overrides)).status).toBe(200);
    expect(provider.calls).toHaveLength(11);
    await expectRefused(await ask(email, 22 * SECOND, overrides), 3600 - 22);
    // The refused request never reached the provider.
    expect(provider.calls).toHaveLength(11);
  });

  it("a request refused by the cooldown does not use up the caps", async () => {
    const email = uniqueEmail("cooldowncap");
    expect((await ask(email, 0, {})).status).toBe(200);
    for (let index = 1; index <= 6; index += 1) await expectRefused(await ask(email, index * SECOND, {}), 60 - index);
    expect(await mailboxCounts(email)).toEqual({ hour: 1, day: 1 });
    for (let index = 1; index < 5; index += 1) expect((await ask(email, index * MINUTE, {})).status).toBe(200);
    expect(await codeMailCount(email)).toBe(5);
  });
});

describe("a mailbox is every address that reaches it", () => {
  it("plus-addressed variants of one inbox share its cap, each with its own cooldown", async () => {
    const local = uniqueLocal("victim");
    // At one moment: the 60-second cooldown is per exact address, so it refuses none of them.
    for (let index = 1; index <= 5; index += 1) expect((await ask(`${local}+${index}@example.org`, 0, {})).status).toBe(200);
    for (let index = 1; index <= 5; index += 1) expect(await codeMailCount(`${local}+${index}@example.org`)).toBe(1);

    for (const variant of [
      `${local}+6@example.org`,
      `${local}@example.org`,
      `${local.toUpperCase()}+x+y@EXAMPLE.ORG`,
      `${local}+@example.org`,
    ]) {
      await expectRefused(await ask(variant, SECOND, {}), 3599);
    }
    expect(await codeMailCount(`${local}+6@example.org`)).toBe(0);
    expect(await codeMailCount(`${local}@example.org`)).toBe(0);
    expect(await mailboxCounts(`${local}@example.org`)).toEqual({ hour: 5, day: 5 });
  });

  it("Gmail: dotted variants and googlemail.com are one inbox", async () => {
    const local = uniqueLocal("jane");
    const dotted = (at: number) => `${local.slice(0, at)}.${local.slice(at)}`;
    const variants = [
      `${local}@gmail.com`,
      `${dotted(1)}@gmail.com`,
      `${dotted(2)}+news@googlemail.com`,
      `${dotted(3).replace(/(.)$/, ".$1")}@googlemail.com`,
      `${dotted(4)}@gmail.com`,
    ];
    for (const email of variants) expect((await ask(email, 0, {})).status).toBe(200);
    await expectRefused(await ask(`${dotted(5)}+6@gmail.com`, SECOND, {}), 3599);
    await expectRefused(await ask(`${local.toUpperCase()}@GoogleMail.com`, SECOND, {}), 3599);
    expect(await mailboxCounts(`${local}@gmail.com`)).toEqual({ hour: 5, day: 5 });
  });

  it("different mailboxes keep their own caps", async () => {
    const local = uniqueLocal("owner");
    for (let index = 1; index <= 5; index += 1) expect((await ask(`${local}+${index}@example.org`, 0, {})).status).toBe(200);
    await expectRefused(await ask(`${local}@example.org`, SECOND, {}), 3599);

    const others = [
      `${local}@example.net`, // another domain
      `${local}x@example.org`, // another local part
      `${local.slice(0, 3)}.${local.slice(3)}@example.org`, // dots count outside Gmail
      `${local}@gmail.com`, // Gmail is another provider
      `${local}-1@example.org`, // only "+" is sub-addressing
    ];
    for (const email of others) expect((await ask(email, SECOND, {})).status, email).toBe(200);
    for (const email of others) expect(await mailboxCounts(email), email).toEqual({ hour: 1, day: 1 });
  });

  it("the counters hold a keyed hash of the mailbox, never an address", async () => {
    const local = uniqueLocal("private");
    const email = `${local}+tag@example.org`;
    vi.setSystemTime(start);
    expect((await authCall("POST", "/otp", { email })).status).toBe(200);
    const keys = await env.DB.prepare("select key from hwh_rate_limits where key like 'code-mail-%' and window_start >= ?")
      .bind(start / SECOND)
      .all<{ key: string }>();
    expect(keys.results.length).toBeGreaterThanOrEqual(2);
    const leaking = await env.DB.prepare("select count(*) as n from hwh_rate_limits where key like ? or key like ?")
      .bind(`%${local}%`, "%example.org%")
      .first<{ n: number }>();
    expect(leaking!.n).toBe(0);
    expect(await mailboxCounts(email)).toEqual({ hour: 1, day: 1 });
  });
});

describe("canonicalMailbox", () => {
  it.each([
    ["victim@example.org", "victim@example.org"],
    ["Victim+News@Example.ORG", "victim@example.org"],
    ["victim+a+b@example.org", "victim@example.org"],
    ["v.i.c.t.i.m@example.org", "v.i.c.t.i.m@example.org"],
    ["j.a.n.e+x@gmail.com", "jane@gmail.com"],
    ["J.ane@GoogleMail.com", "jane@gmail.com"],
    ["jane@mail.gmail.com", "jane@mail.gmail.com"],
  ])("%s reaches %s", (address, mailbox) => {
    expect(canonicalMailbox(address)).toBe(mailbox);
  });
});
