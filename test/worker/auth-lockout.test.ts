// Nobody can lock a chosen person out of sign-in by asking codes for other spellings of their
// mailbox (issue 22): the mailbox's plain address, an account's own address and an operator's
// listed address each keep their own caps, however many codes other spellings have used; the
// other spellings share one ceiling per mailbox, which bounds the mail one inbox can receive.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { authCall, codeMailCount, expectAuthError, latestCode, signIn, uniqueIp, verify } from "../support/auth";
import type { EnvOverrides } from "../support/worker";

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
