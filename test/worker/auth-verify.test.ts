// Verifying a code (POST /auth/v1/verify): the session it answers, codes used once, expiry, one
// answer for every failure; the guesses a code allows and the tries left it tells; when a user
// comes to exist and what the code's `data` does.
import { describe, expect, it, vi } from "vitest";
import {
  authCall,
  type AuthErrorBody,
  codeMailCount,
  codeRow,
  countAuthRows,
  expectAuthError,
  getUser,
  jwtPayload,
  latestCode,
  recordingDatabase,
  requestCode,
  type Session,
  signIn,
  verify,
  wrongCode,
} from "../support/auth";
import { testRepository, uniqueEmail } from "../support/worker";

// POST /auth/v1/verify: the session it answers, codes used once, expiry, the same answer for every failure, bad input.

describe("POST /auth/v1/verify", () => {
  it("exchanges the code for a session at the top level, in GoTrue's shape", async () => {
    const email = uniqueEmail("verify");
    const code = await requestCode(email);
    const before = Math.floor(Date.now() / 1000);
    const response = await verify(email, code);
    expect(response.status).toBe(200);
    const session = (await response.json()) as Session;
    expect(session).toMatchObject({ token_type: "bearer", expires_in: 3600 });
    expect(session.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.expires_at).toBeGreaterThanOrEqual(before + 3600);
    expect(session.expires_at).toBeLessThanOrEqual(before + 3602);

    expect(session.user).toMatchObject({
      aud: "authenticated",
      role: "authenticated",
      email,
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: {},
      is_anonymous: false,
    });
    for (const field of ["id", "email_confirmed_at", "last_sign_in_at", "created_at", "updated_at"]) {
      expect(typeof session.user[field], field).toBe("string");
    }
    expect(session.user.identities).toEqual([
      expect.objectContaining({
        provider: "email",
        user_id: session.user.id,
        identity_data: expect.objectContaining({ email, email_verified: true }),
      }),
    ]);

    const claims = jwtPayload(session.access_token);
    expect(claims).toMatchObject({
      iss: "http://localhost/auth/v1",
      sub: session.user.id,
      aud: "authenticated",
      email,
      role: "authenticated",
      aal: "aal1",
      is_anonymous: false,
    });
    expect(claims.exp).toBe(session.expires_at);
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect(claims.amr).toEqual([{ method: "otp", timestamp: expect.any(Number) }]);
    expect(typeof claims.session_id).toBe("string");
    expect(await countAuthRows("hwh_auth_sessions", "id = ?", claims.session_id)).toBe(1);
  });

  it("honours AUTH_ACCESS_TOKEN_TTL_SECONDS", async () => {
    const email = uniqueEmail("ttl");
    const code = await requestCode(email);
    const session = (await (await verify(email, code, { overrides: { AUTH_ACCESS_TOKEN_TTL_SECONDS: "600" } })).json()) as Session;
    expect(session.expires_in).toBe(600);
    const claims = jwtPayload(session.access_token);
    expect((claims.exp as number) - (claims.iat as number)).toBe(600);
  });

  it("a code works once", async () => {
    const email = uniqueEmail("once");
    const code = await requestCode(email);
    expect((await verify(email, code)).status).toBe(200);
    await expectAuthError(await verify(email, code), 403, "otp_expired");
  });

  it("of many concurrent verifies of the same code exactly one gets a session", async () => {
    const email = uniqueEmail("race");
    const code = await requestCode(email);
    const responses = await Promise.all(Array.from({ length: 20 }, () => verify(email, code)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 403)).toHaveLength(19);
    expect(await countAuthRows("hwh_auth_sessions", "user_id = (select id from hwh_auth_users where email = ?)", email)).toBe(1);
  });

  it("expires after 10 minutes", async () => {
    const email = uniqueEmail("expiry");
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    const code = await requestCode(email);
    vi.setSystemTime(start + 10 * 60_000);
    await expectAuthError(await verify(email, code), 403, "otp_expired");

    vi.setSystemTime(start + 11 * 60_000);
    const fresh = await requestCode(email);
    vi.setSystemTime(start + 11 * 60_000 + 9 * 60_000 + 59_000);
    expect((await verify(email, fresh)).status).toBe(200);
  });

  it("the lifetime is configurable (AUTH_CODE_TTL_SECONDS)", async () => {
    const email = uniqueEmail("shortttl");
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    const overrides = { AUTH_CODE_TTL_SECONDS: "120" };
    const code = await requestCode(email, { overrides });
    vi.setSystemTime(start + 121_000);
    await expectAuthError(await verify(email, code, { overrides }), 403, "otp_expired");
  });

  // The attempt limit (5 guesses per code, sequential and concurrent): auth-guesses.test.ts.

  it("wrong attempts against one address never affect another's code", async () => {
    const victim = uniqueEmail("victim");
    const attacker = uniqueEmail("attacker");
    const victimCode = await requestCode(victim);
    const attackerCode = await requestCode(attacker);
    for (let attempt = 1; attempt <= 6; attempt += 1) await verify(attacker, wrongCode(attackerCode));
    expect((await verify(victim, victimCode)).status).toBe(200);
  });

  it("an expired code, a used-up code and an address that never asked get the same answer, with no count of tries", async () => {
    const bodies = [];
    const nobody = uniqueEmail("nobody");
    bodies.push(await (await verify(nobody, "123456")).json());
    const worn = uniqueEmail("worn");
    const code = await requestCode(worn);
    for (let attempt = 1; attempt <= 5; attempt += 1) await verify(worn, wrongCode(code));
    bodies.push(await (await verify(worn, code)).json());
    const expiring = uniqueEmail("expired");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    const old = await requestCode(expiring);
    vi.setSystemTime(start + 11 * 60_000);
    bodies.push(await (await verify(expiring, old)).json());
    const expected = {
      code: "otp_expired",
      error_code: "otp_expired",
      msg: "Token has expired or is invalid",
      message: "Token has expired or is invalid",
    };
    expect(bodies).toEqual([expected, expected, expected]);
    expect(await countAuthRows("hwh_auth_users", "email = ?", nobody)).toBe(0);
    expect(await countAuthRows("hwh_auth_codes", "email = ?", nobody)).toBe(0);
  });

  // Wrong guesses while tries remain, and why they tell nothing about an account: auth-tries-left.test.ts.

  it("an unknown address costs the same work as a wrong code for a known one: the same statements and the same keyed hashing", async () => {
    const statements: string[] = [];
    const recording = recordingDatabase(statements);
    const sign = vi.spyOn(crypto.subtle, "sign");
    const workFor = async (email: string, token: string) => {
      statements.length = 0;
      sign.mockClear();
      await expectAuthError(await verify(email, token, { overrides: { DB: recording } }), 403, "otp_expired");
      return { statements: [...statements], signs: sign.mock.calls.length };
    };

    const known = uniqueEmail("work-known");
    const code = await requestCode(known);
    const forKnown = await workFor(known, wrongCode(code));
    const forUnknown = await workFor(uniqueEmail("work-unknown"), wrongCode(code));
    expect(forUnknown).toEqual(forKnown);
    // The guess is one conditional statement on hwh_auth_codes, with the code hashed first (no
    // second one reads the guesses so far: the answer states no tries left).
    expect(forKnown.statements.filter((query) => query.includes("hwh_auth_codes"))).toHaveLength(1);
    expect(forKnown.signs).toBeGreaterThanOrEqual(1);
  });

  it("sets email_confirmed_at once and last_sign_in_at on every sign-in", async () => {
    const email = uniqueEmail("confirm");
    const first = (await (await verify(email, await requestCode(email))).json()) as Session;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 120_000);
    const second = (await (await verify(email, await requestCode(email))).json()) as Session;
    expect(second.user.email_confirmed_at).toBe(first.user.email_confirmed_at);
    expect(second.user.last_sign_in_at).not.toBe(first.user.last_sign_in_at);
  });

  it.each([
    ["no token", { email: "a@example.com", type: "email" }, "validation_failed"],
    ["an empty token", { email: "a@example.com", token: "", type: "email" }, "validation_failed"],
    ["another type", { email: "a@example.com", token: "123456", type: "signup" }, "validation_failed"],
    ["no type", { email: "a@example.com", token: "123456" }, "validation_failed"],
    ["a malformed e-mail", { email: "nope", token: "123456", type: "email" }, "validation_failed"],
  ])("rejects %s", async (_name, payload, code) => {
    await expectAuthError(await authCall("POST", "/verify", payload), 400, code);
  });

  it("links (token_hash) and phone codes are not enabled", async () => {
    await expectAuthError(await authCall("POST", "/verify", { token_hash: "abc", type: "email" }), 422, "feature_not_enabled");
    await expectAuthError(
      await authCall("POST", "/verify", { phone: "+15555550100", token: "123456", type: "sms" }),
      422,
      "phone_provider_disabled",
    );
  });
});

// The attempt limit of a sign-in code: at most 5 guesses are ever compared, one after another or all at once.

/** `count` different codes, none of them `code`. */
const wrongCodes = (code: string, count: number) =>
  Array.from({ length: count }, (_, index) => String((Number(code) + index + 1) % 1_000_000).padStart(6, "0"));

describe("guesses at a code", () => {
  it("20 concurrent wrong guesses and the right code sent right after never sign in; exactly 5 guesses are counted", async () => {
    for (let round = 1; round <= 5; round += 1) {
      const email = uniqueEmail(`swarm${round}`);
      const code = await requestCode(email);
      // Every request comes from an address of its own: the per-IP limit is not what stops them.
      const guesses = wrongCodes(code, 20).map((token) => verify(email, token));
      guesses.push(verify(email, code));
      const responses = await Promise.all(guesses);

      const statuses = responses.map((response) => response.status);
      expect(statuses, `round ${round}`).toEqual(Array.from({ length: 21 }, () => 403));
      for (const response of responses) await expectAuthError(response, 403, "otp_expired");
      expect((await codeRow(email))!.attempts, `round ${round}`).toBe(5);
      expect(await countAuthRows("hwh_auth_users", "email = ?", email)).toBe(0);
      // The code stays dead.
      await expectAuthError(await verify(email, code), 403, "otp_expired");
      expect((await codeRow(email))!.attempts).toBe(5);
    }
  });

  it("4 wrong guesses then the right code signs in", async () => {
    const email = uniqueEmail("four");
    const code = await requestCode(email);
    for (const token of wrongCodes(code, 4)) await expectAuthError(await verify(email, token), 403, "otp_expired");
    expect((await codeRow(email))!.attempts).toBe(4);
    const response = await verify(email, code);
    expect(response.status).toBe(200);
    expect(((await response.json()) as Session).user.email).toBe(email);
    // The right guess was counted too, and used the code.
    expect(await codeRow(email)).toMatchObject({ attempts: 5, code_hash: null });
  });

  it("5 wrong guesses then the right code fails; a new code starts over", async () => {
    const email = uniqueEmail("five");
    const code = await requestCode(email);
    for (const token of wrongCodes(code, 5)) await expectAuthError(await verify(email, token), 403, "otp_expired");
    await expectAuthError(await verify(email, code), 403, "otp_expired");
    expect((await codeRow(email))!.attempts).toBe(5);
    expect(await countAuthRows("hwh_auth_users", "email = ?", email)).toBe(0);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    const next = await requestCode(email);
    expect((await codeRow(email))!.attempts).toBe(0);
    for (const token of wrongCodes(next, 4)) await verify(email, token);
    expect((await verify(email, next)).status).toBe(200);
  });
});

// The wrong-code answer of POST /auth/v1/verify is GoTrue's words alone, the same for every address:
// it never tells whether someone asked for a code there, has an account, or signed in.

const plain = "Token has expired or is invalid";

/** Everything a client sees of an answer (status, GoTrue body, headers), to compare answers whole. */
async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as AuthErrorBody, headers: [...response.headers.entries()].sort() };
}

describe("a wrong code tells nothing about the address", () => {
  it("an address that asked for a code a minute ago and one that never asked get the same answer, guess after guess", async () => {
    const asked = uniqueEmail("tries-asked");
    const never = uniqueEmail("tries-never");
    const code = await requestCode(asked);
    const forAsked = [];
    const forNever = [];
    for (let guess = 1; guess <= 6; guess += 1) {
      forAsked.push(await answer(await verify(asked, wrongCode(code))));
      forNever.push(await answer(await verify(never, wrongCode(code))));
    }
    expect(forNever).toEqual(forAsked);
    for (const seen of forAsked) {
      expect(seen.status).toBe(403);
      expect(seen.body).toEqual({ code: "otp_expired", error_code: "otp_expired", msg: plain, message: plain });
    }
    expect(triesLeftIn(forAsked)).toEqual([]);
  });

  it("an address without an account that asked answers exactly as one with an account and a live code", async () => {
    const known = uniqueEmail("tries-known");
    const unknown = uniqueEmail("tries-unknown");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    await signIn(known);
    vi.setSystemTime(start + 61_000);
    for (const email of [known, unknown]) {
      expect((await authCall("POST", "/otp", { email, create_user: false })).status).toBe(200);
    }
    const knownCode = await latestCode(known);
    const forKnown = [];
    const forUnknown = [];
    for (let guess = 1; guess <= 7; guess += 1) {
      forKnown.push(await answer(await verify(known, wrongCode(knownCode))));
      forUnknown.push(await answer(await verify(unknown, wrongCode(knownCode))));
    }
    expect(forUnknown).toEqual(forKnown);
    expect(forKnown.map((seen) => seen.body.message)).toEqual(Array.from({ length: 7 }, () => plain));
    expect(await countAuthRows("hwh_auth_users", "email = ?", unknown)).toBe(0);
  });

  it("a used code answers as an address that never asked: it does not tell that someone signed in", async () => {
    const used = uniqueEmail("tries-used");
    const never = uniqueEmail("tries-never");
    const code = await requestCode(used);
    expect((await verify(used, code)).status).toBe(200);
    expect(await answer(await verify(used, code))).toEqual(await answer(await verify(never, code)));
    expect(await answer(await verify(used, wrongCode(code)))).toEqual(await answer(await verify(never, wrongCode(code))));
  });
});

/** The messages of `answers` that state a number of tries left. */
const triesLeftIn = (answers: { body: AuthErrorBody }[]) => answers.filter((seen) => /\d+\s+tr(?:y|ies)\s+left/i.test(seen.body.message));

// When a user comes to exist (the first verified code, not the code request) and what `data` does (at most 1 KB, only on creation).

async function askWithData(email: string, data: unknown): Promise<void> {
  const response = await authCall("POST", "/otp", { email, create_user: true, data });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function verified(email: string): Promise<Session> {
  const response = await verify(email, await latestCode(email));
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Session;
}

/** Moves the fake clock past the 60-second cooldown. */
function laterByAMinute(): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + 61_000);
}

describe("user creation", () => {
  it("a code request creates no user; the first verify creates it, with the data sent with the code", async () => {
    const email = uniqueEmail("firstverify");
    await askWithData(email, { grade: 9, name: "Ada" });
    expect(await countAuthRows("hwh_auth_users", "email = ?", email)).toBe(0);
    expect(await testRepository().signIn.findUserByEmail(email)).toBeUndefined();

    const session = await verified(email);
    expect(session.user.user_metadata).toEqual({ grade: 9, name: "Ada" });
    expect(await countAuthRows("hwh_auth_users", "email = ?", email)).toBe(1);
    const user = await testRepository().signIn.findUserByEmail(email);
    expect(user).toMatchObject({ id: session.user.id, userMetadata: { grade: 9, name: "Ada" } });
    expect(user!.createdAt).toBe(user!.emailConfirmedAt);
    expect(await (await getUser(session.access_token)).json()).toMatchObject({ user_metadata: { grade: 9, name: "Ada" } });
  });

  it("a failed verify creates no user", async () => {
    const email = uniqueEmail("failedverify");
    await askWithData(email, { grade: 9 });
    await expectAuthError(await verify(email, "not-it"), 403, "otp_expired");
    expect(await countAuthRows("hwh_auth_users", "email = ?", email)).toBe(0);
  });

  it("data sent with a later code never changes an existing user", async () => {
    const email = uniqueEmail("existing");
    await askWithData(email, { grade: 9 });
    const first = await verified(email);

    laterByAMinute();
    await askWithData(email, { grade: 12, role: "admin" });
    const second = await verified(email);
    expect(second.user.id).toBe(first.user.id);
    expect(second.user.user_metadata).toEqual({ grade: 9 });
    expect((await testRepository().signIn.findUserByEmail(email))!.userMetadata).toEqual({ grade: 9 });
  });

  it("the data of the code that is verified is the one applied: an earlier request by someone else plants nothing", async () => {
    const email = uniqueEmail("planted");
    await askWithData(email, { planted: true });
    laterByAMinute();
    await askWithData(email, { grade: 9 });
    expect((await verified(email)).user.user_metadata).toEqual({ grade: 9 });
  });

  it("no data is {}", async () => {
    const email = uniqueEmail("nodata");
    expect((await authCall("POST", "/otp", { email })).status).toBe(200);
    expect((await verified(email)).user.user_metadata).toEqual({});
  });

  // '{"n":""}' is 8 bytes of JSON.
  it.each([
    ["1025 bytes", { n: "x".repeat(1017) }],
    ["far over 1 KB", { note: "x".repeat(4000) }],
    ["over 1 KB in bytes though under 1024 characters", { n: "é".repeat(600) }],
  ])("data of %s is a 400 validation_failed and stores nothing", async (_name, data) => {
    const email = uniqueEmail("bigdata");
    const body = await expectAuthError(await authCall("POST", "/otp", { email, data }), 400, "validation_failed");
    expect(body.message).toBe("data must be at most 1024 bytes of JSON.");
    expect(await codeRow(email)).toBeNull();
    expect(await codeMailCount(email)).toBe(0);
    expect(await countAuthRows("hwh_auth_users", "email = ?", email)).toBe(0);
  });

  it("data of exactly 1024 bytes is accepted and applied", async () => {
    const email = uniqueEmail("kbdata");
    const data = { n: "x".repeat(1016) };
    expect(new TextEncoder().encode(JSON.stringify(data)).byteLength).toBe(1024);
    await askWithData(email, data);
    expect((await verified(email)).user.user_metadata).toEqual(data);
  });
});
