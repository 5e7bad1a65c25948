// After sign-in: refreshing the tokens (POST /auth/v1/token), the access token's checks
// (GET /auth/v1/user) and logout's scopes (POST /auth/v1/logout).
import { env } from "cloudflare:workers";
import { SignJWT } from "jose";
import { describe, expect, it, vi } from "vitest";
import { refreshSession } from "../../worker/features/sign-in/sessions";
import { createDeps } from "../../worker/deps";
import { authCall, countAuthRows, expectAuthError, getUser, JWT_SECRET, jwtPayload, refresh, type Session, signIn } from "../support/auth";
import { uniqueEmail } from "../support/worker";

// POST /auth/v1/token?grant_type=refresh_token: rotation, the two-tab grace window, reuse ending the session.

async function refreshed(token: string): Promise<Session> {
  const response = await refresh(token);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Session;
}

describe("POST /auth/v1/token?grant_type=refresh_token", () => {
  it("rotates: a new pair for the same session, stored as digests only", async () => {
    const session = await signIn(uniqueEmail("rotate"));
    const next = await refreshed(session.refresh_token);
    expect(next.refresh_token).not.toBe(session.refresh_token);
    expect(next.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(next).toMatchObject({ token_type: "bearer", expires_in: 3600, user: { email: session.user.email } });
    expect(jwtPayload(next.access_token).session_id).toBe(jwtPayload(session.access_token).session_id);
    expect((await getUser(next.access_token)).status).toBe(200);
    expect(
      await countAuthRows("hwh_auth_refresh_tokens", "token_hash = ? or token_hash = ?", session.refresh_token, next.refresh_token),
    ).toBe(0);
  });

  it("every use rotates again", async () => {
    const session = await signIn(uniqueEmail("chain"));
    const second = await refreshed(session.refresh_token);
    const third = await refreshed(second.refresh_token);
    expect(new Set([session.refresh_token, second.refresh_token, third.refresh_token]).size).toBe(3);
  });

  it("the previous token reused within 10 seconds returns the current pair (two tabs racing)", async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    const session = await signIn(uniqueEmail("grace"));
    const next = await refreshed(session.refresh_token);
    vi.setSystemTime(start + 10_000);
    const again = await refreshed(session.refresh_token);
    expect(again.refresh_token).toBe(next.refresh_token);
    expect((await getUser(again.access_token)).status).toBe(200);
    // The current token still rotates normally afterwards.
    expect((await refreshed(next.refresh_token)).refresh_token).not.toBe(next.refresh_token);
  });

  it("two concurrent refreshes with the same token both get the same new pair", async () => {
    const session = await signIn(uniqueEmail("concurrent"));
    const [a, b] = await Promise.all([refresh(session.refresh_token), refresh(session.refresh_token)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const [first, second] = [(await a.json()) as Session, (await b.json()) as Session];
    expect(first.refresh_token).toBe(second.refresh_token);
    expect(
      await countAuthRows("hwh_auth_refresh_tokens", "session_id = ? and revoked_at is null", jwtPayload(session.access_token).session_id),
    ).toBe(1);
  });

  it("reuse after the grace window ends the whole session", async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    const session = await signIn(uniqueEmail("stolen"));
    const next = await refreshed(session.refresh_token);
    vi.setSystemTime(start + 11_000);
    const reuse = await expectAuthError(await refresh(session.refresh_token), 400, "refresh_token_already_used");
    expect(reuse.message).toBe("Invalid Refresh Token: Already Used");
    // The legitimate holder's current tokens died with the session.
    await expectAuthError(await refresh(next.refresh_token), 400, "refresh_token_not_found");
    await expectAuthError(await getUser(next.access_token), 403, "session_not_found");
    expect(await countAuthRows("hwh_auth_sessions", "id = ?", jwtPayload(session.access_token).session_id)).toBe(0);
  });

  it("reuse of an older token (not the immediately previous one) ends the session even within 10 seconds", async () => {
    const session = await signIn(uniqueEmail("older"));
    const second = await refreshed(session.refresh_token);
    const third = await refreshed(second.refresh_token);
    await expectAuthError(await refresh(session.refresh_token), 400, "refresh_token_already_used");
    await expectAuthError(await refresh(third.refresh_token), 400, "refresh_token_not_found");
  });

  it("reuse ends only that session: the user's other sessions stay", async () => {
    const email = uniqueEmail("twosessions");
    const phone = await signIn(email);
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now() + 61_000;
    vi.setSystemTime(start);
    const laptop = await signIn(email);
    await refreshed(laptop.refresh_token);
    vi.setSystemTime(start + 30_000);
    await expectAuthError(await refresh(laptop.refresh_token), 400, "refresh_token_already_used");
    expect((await getUser(phone.access_token)).status).toBe(200);
  });

  it("a logout that ends the session while its token is being rotated wins: refresh_token_not_found, no pair for the ended session", async () => {
    const session = await signIn(uniqueEmail("logout-race"));
    const sessionId = jwtPayload(session.access_token).session_id as string;
    const deps = createDeps(env);
    const rotate = deps.repo.signIn.rotateRefreshToken.bind(deps.repo.signIn);
    // The logout lands between the token's lookup and its rotation.
    vi.spyOn(deps.repo.signIn, "rotateRefreshToken").mockImplementation(async (input) => {
      await deps.repo.signIn.deleteSessions({ userId: session.user.id, only: sessionId });
      return rotate(input);
    });
    const origin = { issuer: "http://localhost/auth/v1", ip: null, userAgent: null };
    await expect(refreshSession(deps, origin, session.refresh_token)).rejects.toMatchObject({
      status: 400,
      code: "refresh_token_not_found",
    });
    expect(await countAuthRows("hwh_auth_refresh_tokens", "session_id = ?", sessionId)).toBe(0);
  });

  it("an unknown token is refresh_token_not_found", async () => {
    const body = await expectAuthError(await refresh("x".repeat(43)), 400, "refresh_token_not_found");
    expect(body.message).toBe("Invalid Refresh Token: Refresh Token Not Found");
  });

  it("a missing refresh_token is validation_failed", async () => {
    await expectAuthError(await authCall("POST", "/token?grant_type=refresh_token", {}), 400, "validation_failed");
    await expectAuthError(await authCall("POST", "/token?grant_type=refresh_token", { refresh_token: 5 }), 400, "validation_failed");
  });

  it("other grant types are not enabled; a missing grant_type is a validation error", async () => {
    await expectAuthError(
      await authCall("POST", "/token?grant_type=password", { email: "a@b.co", password: "x" }),
      422,
      "provider_disabled",
    );
    await expectAuthError(await authCall("POST", "/token?grant_type=pkce", { auth_code: "x" }), 422, "provider_disabled");
    await expectAuthError(await authCall("POST", "/token", {}), 400, "validation_failed");
  });
});

// GET /auth/v1/user and POST /auth/v1/logout: access-token checks and the logout scopes.

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
