// Nobody can lock a person out of sign-in with requests that e-mail nothing (create_user: false for addresses without a user).
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  authCall,
  codeMailCount,
  expectAuthError,
  latestCode,
  mailboxCounts,
  signIn,
  uniqueIp,
  unsentCounts,
  verify,
} from "../support/auth";
import type { EnvOverrides } from "../support/worker";

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

/** A one-second cooldown, so the caps are what refuses. */
const SHORT_COOLDOWN: EnvOverrides = { AUTH_CODE_COOLDOWN_SECONDS: "1" };

/** The caps count in clock windows: the tests start at a midnight UTC. */
let start = 0;
beforeEach(() => {
  start = Math.ceil(Date.now() / DAY) * DAY + DAY;
  vi.useFakeTimers({ toFake: ["Date"] });
});

/** A local part no other test (or run) uses. */
const uniqueLocal = (tag: string) => `${tag}${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;

type Ask = { createUser?: boolean; ip?: string };

/** Asks for a code for `email` at `start + ms`; everything a client sees of the answer. */
async function ask(email: string, ms: number, { createUser = false, ip }: Ask = {}) {
  vi.setSystemTime(start + ms);
  const response = await authCall("POST", "/otp", { email, create_user: createUser }, { ip, overrides: SHORT_COOLDOWN });
  return { status: response.status, body: await response.text(), headers: [...response.headers.entries()].sort() };
}

describe("requests that e-mail nothing never count against a mailbox", () => {
  it("20 requests for unknown +tag variants of a person's address do not stop their own code", async () => {
    const local = uniqueLocal("student");
    const person = `${local}@example.org`;
    vi.setSystemTime(start);
    await signIn(person);
    expect(await mailboxCounts(person)).toEqual({ hour: 1, day: 1 });

    // One attacker, one client: 20 variants of the person's mailbox, none with a user.
    const attacker = uniqueIp();
    for (let index = 1; index <= 20; index += 1) {
      expect((await ask(`${local}+x${index}@example.org`, index * SECOND, { ip: attacker })).status).toBe(200);
    }
    for (let index = 1; index <= 20; index += 1) expect(await codeMailCount(`${local}+x${index}@example.org`)).toBe(0);
    expect(await mailboxCounts(person)).toEqual({ hour: 1, day: 1 });

    // The person (who has a user) still gets a code, and it signs them in.
    expect((await ask(person, 30 * SECOND)).status).toBe(200);
    await vi.waitFor(async () => expect(await codeMailCount(person)).toBe(2));
    vi.setSystemTime(start + 31 * SECOND);
    expect((await verify(person, await latestCode(person))).status).toBe(200);
    // So does a new sign-up at a variant of the same mailbox.
    expect((await ask(`${local}+new@example.org`, 32 * SECOND, { createUser: true })).status).toBe(200);
    expect(await mailboxCounts(person)).toEqual({ hour: 3, day: 3 });
  });

  it("requests for an address without a user do not stop its sign-up (create_user true)", async () => {
    const email = `${uniqueLocal("newcomer")}@example.org`;
    for (let index = 0; index < 8; index += 1) await ask(email, index * 2 * SECOND);
    expect(await unsentCounts(email)).toEqual({ hour: 5, day: 5 });
    expect(await mailboxCounts(email)).toEqual({ hour: 0, day: 0 });

    expect((await ask(email, 20 * SECOND, { createUser: true })).status).toBe(200);
    expect(await codeMailCount(email)).toBe(1);
    expect(await mailboxCounts(email)).toEqual({ hour: 1, day: 1 });
  });

  it("a flood for one address without a user is refused where the same flood for a user's address is, with the same answers", async () => {
    const known = `${uniqueLocal("known")}@example.org`;
    const unknown = `${uniqueLocal("unknown")}@example.org`;
    vi.setSystemTime(start);
    await signIn(known);
    // The same history for the other address: one code e-mailed this hour (create_user true, not verified).
    expect((await ask(unknown, 0, { createUser: true })).status).toBe(200);

    const flood = async (email: string) => {
      const client = uniqueIp();
      const answers = [];
      for (let index = 0; index < 6; index += 1) answers.push(await ask(email, 10 * SECOND + index * 2 * SECOND, { ip: client }));
      return answers;
    };
    const forKnown = await flood(known);
    const forUnknown = await flood(unknown);
    expect(forUnknown).toEqual(forKnown);
    // The code e-mailed earlier this hour counts for both: the 5th request is over the hour's cap.
    expect(forKnown.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429, 429]);
    expect(JSON.parse(forKnown[4]!.body)).toMatchObject({ code: "over_email_send_rate_limit" });
    expect(forKnown[4]!.headers).toContainEqual(["retry-after", String(3600 - 18)]);
    // Refused requests took their counts back; nothing was e-mailed to the address without a user.
    expect(await unsentCounts(unknown)).toEqual({ hour: 4, day: 4 });
    expect(await codeMailCount(unknown)).toBe(1);
  });

  it("the counters of requests that sent nothing hold a keyed hash, never an address", async () => {
    const local = uniqueLocal("hidden");
    expect((await ask(`${local}@example.org`, 0)).status).toBe(200);
    const keys = await env.DB.prepare("select key from hwh_rate_limits where key like 'code-unsent-%' and window_start >= ?")
      .bind(start / SECOND)
      .all<{ key: string }>();
    expect(keys.results.length).toBeGreaterThanOrEqual(2);
    const leaking = await env.DB.prepare("select count(*) as n from hwh_rate_limits where key like ?")
      .bind(`%${local}%`)
      .first<{ n: number }>();
    expect(leaking!.n).toBe(0);
  });

  it("an address without a user over its counters is answered as the caps answer", async () => {
    const email = `${uniqueLocal("over")}@example.org`;
    for (let index = 0; index < 5; index += 1) expect((await ask(email, index * 2 * SECOND)).status).toBe(200);
    vi.setSystemTime(start + 10 * SECOND);
    const response = await authCall("POST", "/otp", { email, create_user: false }, { overrides: SHORT_COOLDOWN });
    const body = await expectAuthError(response, 429, "over_email_send_rate_limit");
    expect(body.message).toContain("3590 seconds");
  });
});
