// GET /auth/v1/user and POST /auth/v1/logout: access-token checks and the logout scopes.
import { SignJWT } from "jose";
import { describe, expect, it, vi } from "vitest";
import { authCall, expectAuthError, getUser, JWT_SECRET, jwtPayload, refresh, signIn, type Session } from "../support/auth";
import { uniqueEmail } from "../support/worker";

const b64 = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** A token signed like ours from `claims`, with `secret`. */
function forge(claims: Record<string, unknown>, secret = JWT_SECRET, alg = "HS256") {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: "JWT" }).sign(new TextEncoder().encode(secret));
}

describe("GET /auth/v1/user", () => {
  it("answers the user of a valid access token", async () => {
    const session = await signIn(uniqueEmail("user"));
    const response = await getUser(session.access_token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(session.user);
  });

  it("without a bearer token: 401 no_authorization", async () => {
    await expectAuthError(await authCall("GET", "/user"), 401, "no_authorization");
    await expectAuthError(await authCall("GET", "/user", undefined, { headers: { Authorization: "Basic abc" } }), 401, "no_authorization");
  });

  it.each([
    ["one part", "abc"],
    ["two parts", "abc.def"],
    ["four parts", "a.b.c.d"],
    ["an empty part", "abc..def"],
    ["characters outside base64url", "ab+c.de/f.gh="],
    ["three parts of garbage", "aaaa.bbbb.cccc"],
  ])("a token of %s is bad_jwt (403)", async (_name, token) => {
    await expectAuthError(await getUser(token), 403, "bad_jwt");
  });

  it("a tampered payload is bad_jwt", async () => {
    const session = await signIn(uniqueEmail("tamper"));
    const [header, , signature] = session.access_token.split(".");
    const payload = { ...jwtPayload(session.access_token), email: "someone-else@example.com" };
    await expectAuthError(await getUser(`${header}.${b64(payload)}.${signature}`), 403, "bad_jwt");
  });

  it("a token signed with another secret, with alg none, or for another issuer is bad_jwt", async () => {
    const session = await signIn(uniqueEmail("forged"));
    const claims = jwtPayload(session.access_token);
    await expectAuthError(await getUser(await forge(claims, "another-secret-0123456789abcdef0123456789")), 403, "bad_jwt");
    const unsigned = `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`;
    await expectAuthError(await getUser(unsigned), 403, "bad_jwt");
    await expectAuthError(await getUser(`${unsigned}x`), 403, "bad_jwt");
    await expectAuthError(await getUser(await forge({ ...claims, iss: "https://evil.example/auth/v1" })), 403, "bad_jwt");
    await expectAuthError(await getUser(await forge({ ...claims, aud: "anon" })), 403, "bad_jwt");
    // The same claims with our secret are accepted: the checks above failed for the reason named.
    expect((await getUser(await forge(claims))).status).toBe(200);
  });

  it("an expired token is bad_jwt", async () => {
    const session = await signIn(uniqueEmail("expired"));
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime((session.expires_at + 1) * 1000);
    const body = await expectAuthError(await getUser(session.access_token), 403, "bad_jwt");
    expect(body.message).toContain("expired");
  });

  it("a signed token naming another user's session is user_not_found, on /user and /logout, and ends nothing", async () => {
    const mine = await signIn(uniqueEmail("mine"));
    const theirs = await signIn(uniqueEmail("theirs"));
    // Our own signature over our user id with their session id: only the session/user check refuses it.
    const mixed = await forge({ ...jwtPayload(mine.access_token), session_id: jwtPayload(theirs.access_token).session_id });
    await expectAuthError(await getUser(mixed), 403, "user_not_found");
    await expectAuthError(await authCall("POST", "/logout?scope=local", undefined, { token: mixed }), 403, "user_not_found");
    expect((await getUser(theirs.access_token)).status).toBe(200);
    expect((await getUser(mine.access_token)).status).toBe(200);
  });

  it("a valid token whose session has ended is session_not_found", async () => {
    const session = await signIn(uniqueEmail("ended"));
    expect((await authCall("POST", "/logout?scope=local", undefined, { token: session.access_token })).status).toBe(204);
    await expectAuthError(await getUser(session.access_token), 403, "session_not_found");
  });
});

describe("POST /auth/v1/logout", () => {
  /** Three sessions of one user (three devices). */
  async function threeSessions(): Promise<Session[]> {
    const email = uniqueEmail("devices");
    const sessions: Session[] = [];
    vi.useFakeTimers({ toFake: ["Date"] });
    let at = Date.now();
    for (let index = 0; index < 3; index += 1) {
      vi.setSystemTime(at);
      sessions.push(await signIn(email));
      at += 61_000;
    }
    return sessions;
  }

  const alive = async (session: Session) => (await getUser(session.access_token)).status === 200;

  it("scope=local ends this session only; its refresh token dies with it", async () => {
    const [a, b, c] = await threeSessions();
    const response = await authCall("POST", "/logout?scope=local", undefined, { token: a!.access_token });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect([await alive(a!), await alive(b!), await alive(c!)]).toEqual([false, true, true]);
    await expectAuthError(await refresh(a!.refresh_token), 400, "refresh_token_not_found");
  });

  it("scope=global (the default) ends every session of the user", async () => {
    const [a, b, c] = await threeSessions();
    expect((await authCall("POST", "/logout", undefined, { token: b!.access_token })).status).toBe(204);
    expect([await alive(a!), await alive(b!), await alive(c!)]).toEqual([false, false, false]);
  });

  it("scope=others ends every session but this one", async () => {
    const [a, b, c] = await threeSessions();
    expect((await authCall("POST", "/logout?scope=others", undefined, { token: c!.access_token })).status).toBe(204);
    expect([await alive(a!), await alive(b!), await alive(c!)]).toEqual([false, false, true]);
  });

  it("does not touch another user's sessions", async () => {
    const mine = await signIn(uniqueEmail("mine"));
    const theirs = await signIn(uniqueEmail("theirs"));
    expect((await authCall("POST", "/logout?scope=global", undefined, { token: mine.access_token })).status).toBe(204);
    expect(await alive(theirs)).toBe(true);
  });

  it("any other scope is validation_failed, and nothing ends", async () => {
    const session = await signIn(uniqueEmail("scope"));
    for (const scope of ["all", "", "LOCAL", "global,others"]) {
      await expectAuthError(
        await authCall("POST", `/logout?scope=${encodeURIComponent(scope)}`, undefined, { token: session.access_token }),
        400,
        "validation_failed",
      );
    }
    expect(await alive(session)).toBe(true);
  });

  it("needs a valid token: 401 without one, 403 bad_jwt for a malformed one, 403 once signed out", async () => {
    await expectAuthError(await authCall("POST", "/logout?scope=local"), 401, "no_authorization");
    await expectAuthError(await authCall("POST", "/logout?scope=local", undefined, { token: "not.a-jwt" }), 403, "bad_jwt");
    const session = await signIn(uniqueEmail("twice"));
    expect((await authCall("POST", "/logout?scope=local", undefined, { token: session.access_token })).status).toBe(204);
    await expectAuthError(
      await authCall("POST", "/logout?scope=local", undefined, { token: session.access_token }),
      403,
      "session_not_found",
    );
  });
});
