// POST /auth/v1/token?grant_type=refresh_token: rotation, the two-tab grace window, reuse ending the session.
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { refreshSession } from "../../worker/features/sign-in/sessions";
import { createDeps } from "../../worker/deps";
import { authCall, countAuthRows, expectAuthError, getUser, jwtPayload, refresh, signIn, type Session } from "../support/auth";
import { uniqueEmail } from "../support/worker";

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
