// create_user:false: the answer never tells whether an address has an account; only a user's address gets a code.
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { requestCode } from "../../worker/features/sign-in/codes";
import { createDeps } from "../../worker/deps";
import {
  authCall,
  codeMailCount,
  codeRow,
  countAuthRows,
  expectAuthError,
  latestCode,
  mailboxCounts,
  recordingDatabase,
  signIn,
  unsentCounts,
  verify,
  type Session,
} from "../support/auth";
import { fakeProvider, PROVIDER_ENV } from "../support/fake-provider";
import { uniqueEmail } from "../support/worker";

/** Everything a client sees of an answer. */
async function seen(response: Response) {
  return { status: response.status, body: await response.text(), headers: [...response.headers.entries()].sort() };
}

/** The answers for a known and an unknown address asked for at the same moment. */
async function askBoth(known: string, unknown: string, at: number) {
  vi.setSystemTime(at);
  const forKnown = await authCall("POST", "/otp", { email: known, create_user: false });
  vi.setSystemTime(at);
  const forUnknown = await authCall("POST", "/otp", { email: unknown, create_user: false });
  return [await seen(forKnown), await seen(forUnknown)] as const;
}

describe("POST /auth/v1/otp with create_user: false", () => {
  it("a known and an unknown address get the same status, body and headers; only the known one is e-mailed", async () => {
    const known = uniqueEmail("known");
    const unknown = uniqueEmail("unknown");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    const session = await signIn(known);
    expect(await codeMailCount(known)).toBe(1);

    const [first, second] = await askBoth(known, unknown, start + 61_000);
    expect(first).toEqual(second);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({});
    expect(await codeMailCount(known)).toBe(2);
    expect(await codeMailCount(unknown)).toBe(0);
    expect(await countAuthRows("hwh_auth_users", "email = ?", unknown)).toBe(0);
    // The unknown address is counted too, with nothing to guess: against its own counters, as
    // nothing was e-mailed, not against its mailbox's caps.
    expect(await codeRow(unknown)).toMatchObject({ code_hash: null, user_metadata: null });
    expect(await mailboxCounts(unknown)).toEqual({ hour: 0, day: 0 });
    expect(await unsentCounts(unknown)).toEqual({ hour: 1, day: 1 });

    // Within the cooldown both are refused alike.
    const [refusedKnown, refusedUnknown] = await askBoth(known, unknown, start + 61_000 + 15_000);
    expect(refusedKnown).toEqual(refusedUnknown);
    expect(refusedKnown.status).toBe(429);
    expect(JSON.parse(refusedKnown.body)).toMatchObject({ code: "over_email_send_rate_limit" });
    expect(refusedKnown.headers).toContainEqual(["retry-after", "45"]);
    expect(await codeMailCount(known)).toBe(2);
    expect(await codeMailCount(unknown)).toBe(0);

    // The known address's code signs its user in; nothing signs in the unknown one.
    const response = await verify(known, await latestCode(known));
    expect(response.status).toBe(200);
    expect(((await response.json()) as Session).user.id).toBe(session.user.id);
    await expectAuthError(await verify(unknown, "000000"), 403, "otp_expired");
    expect(await countAuthRows("hwh_auth_users", "email = ?", unknown)).toBe(0);
  });

  it("a known address whose e-mail fails after the answer: the answer is still 200 {}; the code is cleared, the cooldown and counts stay", async () => {
    const email = uniqueEmail("latefail");
    vi.useFakeTimers({ toFake: ["Date"] });
    // Five minutes into the current clock hour, so the two minutes this test moves on never cross
    // an hour (the mailbox's hourly count starts again on the hour: run at 04:59, it read 1 for 2).
    const start = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 5 * 60_000;
    vi.setSystemTime(start);
    await signIn(email);
    const counted = await mailboxCounts(email);

    const provider = fakeProvider("http-500");
    vi.setSystemTime(start + 61_000);
    const response = await authCall("POST", "/otp", { email, create_user: false }, { overrides: PROVIDER_ENV });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect(provider.calls).toHaveLength(1);
    // As an unknown address's request leaves its row: no code, the cooldown running, counted.
    expect(await codeRow(email)).toMatchObject({ code_hash: null, sent_at: new Date(start + 61_000).toISOString() });
    expect(await mailboxCounts(email)).toEqual({ hour: counted.hour + 1, day: counted.day + 1 });

    provider.setMode("success");
    vi.setSystemTime(start + 61_000 + 30_000);
    await expectAuthError(
      await authCall("POST", "/otp", { email, create_user: false }, { overrides: PROVIDER_ENV }),
      429,
      "over_email_send_rate_limit",
    );
    vi.setSystemTime(start + 61_000 + 60_000);
    expect((await authCall("POST", "/otp", { email, create_user: false }, { overrides: PROVIDER_ENV })).status).toBe(200);
    expect(provider.calls).toHaveLength(2);
  });

  it("with the mail provider failing, three requests for a known and for an unknown address get identical answers", async () => {
    const known = uniqueEmail("knownfail");
    const unknown = uniqueEmail("unknownfail");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    await signIn(known);

    const provider = fakeProvider("http-500");
    const threeRequests = async (email: string) => {
      const answers = [];
      for (let index = 0; index < 3; index += 1) {
        vi.setSystemTime(start + 61_000 + index * 5_000);
        answers.push(await seen(await authCall("POST", "/otp", { email, create_user: false }, { overrides: PROVIDER_ENV })));
      }
      return answers;
    };
    const forKnown = await threeRequests(known);
    const forUnknown = await threeRequests(unknown);
    expect(forKnown.map((answer) => answer.status)).toEqual([200, 429, 429]);
    expect(forKnown).toEqual(forUnknown);
    // Only the known address's first request reached the provider.
    expect(provider.calls).toHaveLength(1);
  });

  it("the e-mail is begun only after the answer: requestCode resolves before the transport is called", async () => {
    const email = uniqueEmail("deferred");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    await signIn(email);
    vi.setSystemTime(start + 61_000);

    const deps = createDeps(env);
    const send = vi.fn(async () => ({}));
    deps.visitorTransport = { name: "provider", canSetHeaders: false, send };
    const deferred: Promise<unknown>[] = [];
    await requestCode(deps, { email, createUser: false, data: null }, (work) => deferred.push(work));
    expect(deferred).toHaveLength(1);
    expect(send).not.toHaveBeenCalled();

    await Promise.all(deferred);
    expect(send).toHaveBeenCalledOnce();
    expect(send.mock.calls[0]).toMatchObject([{ receivers: [email] }]);
  });

  it("a known and an unknown address cost the same keyed hashing (the unknown one's code is hashed too)", async () => {
    const known = uniqueEmail("hmacknown");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    await signIn(known);
    vi.setSystemTime(start + 61_000);

    const deps = createDeps(env);
    deps.visitorTransport = { name: "provider", canSetHeaders: false, send: async () => ({}) };
    const sign = vi.spyOn(crypto.subtle, "sign");
    const signsFor = async (email: string) => {
      sign.mockClear();
      await requestCode(deps, { email, createUser: false, data: null }, () => undefined);
      return sign.mock.calls.length;
    };
    const forKnown = await signsFor(known);
    const forUnknown = await signsFor(uniqueEmail("hmacunknown"));
    expect(forKnown).toBeGreaterThanOrEqual(2);
    expect(forUnknown).toBe(forKnown);
  });

  it("a known and an unknown address run the same statements (only the counters' keys differ)", async () => {
    const known = uniqueEmail("sqlknown");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    await signIn(known);
    vi.setSystemTime(start + 61_000);

    const statements: string[] = [];
    const statementsFor = async (email: string) => {
      statements.length = 0;
      const response = await authCall("POST", "/otp", { email, create_user: false }, { overrides: { DB: recordingDatabase(statements) } });
      expect(response.status).toBe(200);
      // The known address's e-mail is stored in the dev mailbox after the answer (waitUntil).
      return statements.filter((query) => !query.includes("hwh_dev_mailbox"));
    };
    const forKnown = await statementsFor(known);
    const forUnknown = await statementsFor(uniqueEmail("sqlunknown"));
    expect(forUnknown).toEqual(forKnown);
    expect(forKnown.filter((query) => query.includes("hwh_rate_limits")).length).toBeGreaterThanOrEqual(3);
  });
});
