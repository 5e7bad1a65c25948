// POST /auth/v1/verify: the session it answers, codes used once, expiry, the same answer for every failure, bad input.
import { describe, expect, it, vi } from "vitest";
import {
  authCall,
  countAuthRows,
  expectAuthError,
  jwtPayload,
  recordingDatabase,
  requestCode,
  verify,
  type Session,
} from "../support/auth";
import { uniqueEmail } from "../support/worker";

/** A code that is not `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

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
    for (let attempt = 1; attempt <= 6; attempt += 1) await verify(attacker, wrong(attackerCode));
    expect((await verify(victim, victimCode)).status).toBe(200);
  });

  it("an expired code, a used-up code and an address that never asked get the same answer, with no count of tries", async () => {
    const bodies = [];
    const nobody = uniqueEmail("nobody");
    bodies.push(await (await verify(nobody, "123456")).json());
    const worn = uniqueEmail("worn");
    const code = await requestCode(worn);
    for (let attempt = 1; attempt <= 5; attempt += 1) await verify(worn, wrong(code));
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
    const forKnown = await workFor(known, wrong(code));
    const forUnknown = await workFor(uniqueEmail("work-unknown"), wrong(code));
    expect(forUnknown).toEqual(forKnown);
    // The guess is one conditional statement on hwh_auth_codes, with the code hashed first, and
    // one more reads the guesses so far (for the tries left).
    expect(forKnown.statements.filter((query) => query.includes("hwh_auth_codes"))).toHaveLength(2);
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
