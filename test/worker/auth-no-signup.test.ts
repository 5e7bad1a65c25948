// create_user:false: the answer never tells whether an address has an account; only a user's address gets a code.
import { afterEach, describe, expect, it, vi } from "vitest";
import { authCall, codeMailCount, codeRow, countAuthRows, expectAuthError, latestCode, signIn, verify, type Session } from "../support/auth";
import { fakeProvider, PROVIDER_ENV } from "../support/fake-provider";
import { uniqueEmail } from "../support/worker";

afterEach(() => {
  vi.useRealTimers();
});

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
    // The unknown address is counted like the known one, with nothing to guess.
    expect(await codeRow(unknown)).toMatchObject({ code_hash: null, hour_count: 1, day_count: 1, user_metadata: null });

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

  it("a known address whose e-mail fails after the answer: the answer is still 200 {}, and the code is withdrawn", async () => {
    const email = uniqueEmail("latefail");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    await signIn(email);

    const provider = fakeProvider("http-500");
    vi.setSystemTime(start + 61_000);
    const response = await authCall("POST", "/otp", { email, create_user: false }, { overrides: PROVIDER_ENV });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect(provider.calls).toHaveLength(1);
    expect(await codeRow(email)).toMatchObject({ code_hash: null, hour_count: 1, day_count: 1 });

    // The failed code held no cooldown: the user may ask again at once.
    provider.setMode("success");
    expect((await authCall("POST", "/otp", { email, create_user: false }, { overrides: PROVIDER_ENV })).status).toBe(200);
    expect(provider.calls).toHaveLength(2);
  });
});
