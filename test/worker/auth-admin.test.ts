// The admin API under /auth/v1/admin: the key check, listing, getting and deleting users, and the
// trace it leaves (an audit record and a log line, never an address); the bearer parsing and the
// admin-key check it shares with /api/admin.
import { describe, expect, it, vi } from "vitest";
import { bearerToken, isAdminKey } from "../../worker/features/sign-in/bearer";
import { readConfig } from "../../worker/platform/config/config";
import type { AuditRecord } from "../../worker/platform/db/schema";
import { ADMIN_KEY, authCall, countAuthRows, expectAuthError, getUser, jwtPayload, signIn, uniqueIp } from "../support/auth";
import { testRepository, uniqueEmail } from "../support/worker";

const admin = { headers: { Authorization: `Bearer ${ADMIN_KEY}` } };

// The admin API under /auth/v1/admin: the key check, listing, getting and deleting users.

describe("/auth/v1/admin", () => {
  it.each([
    ["GET", "/admin/users"],
    ["GET", "/admin/users/00000000-0000-4000-8000-000000000000"],
    ["DELETE", "/admin/users/00000000-0000-4000-8000-000000000000"],
    ["POST", "/admin/users"],
    ["GET", "/admin/anything"],
  ])("%s %s without the key: 401, and no data", async (method, path) => {
    const response = await authCall(method, path);
    const body = await expectAuthError(response, 401, "no_authorization");
    expect(Object.keys(body).sort()).toEqual(["code", "error_code", "message", "msg"]);
  });

  it("with a wrong key, or a user's access token: 403 not_admin", async () => {
    await expectAuthError(
      await authCall("GET", "/admin/users", undefined, { headers: { Authorization: `Bearer ${ADMIN_KEY}x` } }),
      403,
      "not_admin",
    );
    await expectAuthError(await authCall("GET", "/admin/users", undefined, { headers: { Authorization: "Bearer x" } }), 403, "not_admin");
    const session = await signIn(uniqueEmail("notadmin"));
    await expectAuthError(await authCall("GET", "/admin/users", undefined, { token: session.access_token }), 403, "not_admin");
  });

  it("with no admin key configured, nobody gets in (not even with an empty bearer)", async () => {
    const overrides = { AUTH_ADMIN_KEY: "" };
    await expectAuthError(await authCall("GET", "/admin/users", undefined, { ...admin, overrides }), 403, "not_admin");
    await expectAuthError(
      await authCall("GET", "/admin/users", undefined, { headers: { Authorization: "Bearer " }, overrides }),
      401,
      "no_authorization",
    );
  });

  it.each([
    ["GET", "/admin/users"],
    ["GET", "/admin/users/00000000-0000-4000-8000-000000000000"],
    ["DELETE", "/admin/users/00000000-0000-4000-8000-000000000000"],
    ["POST", "/admin/users"],
  ])("%s %s with no AUTH_ADMIN_KEY configured says the admin API is not configured", async (method, path) => {
    for (const key of ["", "   "]) {
      const response = await authCall(method, path, undefined, { ...admin, overrides: { AUTH_ADMIN_KEY: key } });
      const body = await expectAuthError(response, 403, "not_admin");
      expect(body.message).toBe("User not allowed: the admin API is not configured on this server (AUTH_ADMIN_KEY).");
    }
    // With a key configured, a wrong one is refused without a hint.
    const wrong = await expectAuthError(
      await authCall(method, path, undefined, { headers: { Authorization: "Bearer wrong" } }),
      403,
      "not_admin",
    );
    expect(wrong.message).toBe("User not allowed");
  });

  it("lists users newest first with GoTrue's pagination headers", async () => {
    const emails = [uniqueEmail("list-a"), uniqueEmail("list-b"), uniqueEmail("list-c")];
    for (const email of emails) await signIn(email);
    const response = await authCall("GET", "/admin/users?page=1&per_page=2", undefined, admin);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { users: { email: string }[]; aud: string };
    expect(body.aud).toBe("authenticated");
    expect(body.users).toHaveLength(2);
    expect(response.headers.get("Access-Control-Expose-Headers")).toBe("X-Supabase-Api-Version, X-Total-Count, Link");
    const total = Number(response.headers.get("X-Total-Count"));
    expect(total).toBeGreaterThanOrEqual(3);
    const lastPage = Math.ceil(total / 2);
    expect(response.headers.get("Link")).toBe(
      `</admin/users?page=2&per_page=2>; rel="next", </admin/users?page=${lastPage}&per_page=2>; rel="last"`,
    );
    const all = (await (await authCall("GET", `/admin/users?per_page=1000`, undefined, admin)).json()) as { users: { email: string }[] };
    const positions = emails.map((email) => all.users.findIndex((user) => user.email === email));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => b - a));
  });

  it("rejects bad pagination with validation_failed", async () => {
    for (const query of ["page=0", "per_page=0", "per_page=1001", "page=abc"]) {
      await expectAuthError(await authCall("GET", `/admin/users?${query}`, undefined, admin), 400, "validation_failed");
    }
  });

  it("gets one user; an unknown or malformed id is user_not_found (404)", async () => {
    const session = await signIn(uniqueEmail("getone"));
    const response = await authCall("GET", `/admin/users/${session.user.id}`, undefined, admin);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(session.user);
    await expectAuthError(
      await authCall("GET", "/admin/users/00000000-0000-4000-8000-000000000000", undefined, admin),
      404,
      "user_not_found",
    );
    await expectAuthError(await authCall("GET", "/admin/users/not-a-uuid", undefined, admin), 404, "user_not_found");
  });

  it("deletes a user with their sessions, refresh tokens and code", async () => {
    const email = uniqueEmail("delete");
    const session = await signIn(email);
    const sessionId = jwtPayload(session.access_token).session_id;
    expect(await countAuthRows("hwh_auth_codes", "email = ?", email)).toBe(1);
    const response = await authCall("DELETE", `/admin/users/${session.user.id}`, { should_soft_delete: false }, admin);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect(await countAuthRows("hwh_auth_users", "id = ?", session.user.id)).toBe(0);
    expect(await countAuthRows("hwh_auth_sessions", "user_id = ?", session.user.id)).toBe(0);
    expect(await countAuthRows("hwh_auth_refresh_tokens", "session_id = ?", sessionId)).toBe(0);
    expect(await countAuthRows("hwh_auth_codes", "email = ?", email)).toBe(0);
    await expectAuthError(await getUser(session.access_token), 403, "session_not_found");
    await expectAuthError(await authCall("DELETE", `/admin/users/${session.user.id}`, undefined, admin), 404, "user_not_found");
  });

  it("creating or changing users through the admin API is not enabled", async () => {
    await expectAuthError(await authCall("POST", "/admin/users", { email: "x@example.com" }, admin), 422, "feature_not_enabled");
    await expectAuthError(await authCall("POST", "/admin/generate_link", { type: "magiclink" }, admin), 422, "feature_not_enabled");
  });

  it("counts each client's requests (AUTH_RATE_LIMIT_ADMIN, 60): the 61st in a window is 429 in GoTrue's shape, even with the right key", async () => {
    // 10 s into a window of the default 300 s.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Math.ceil(Date.now() / 300_000) * 300_000 + 10_000);
    const ip = uniqueIp();
    // Someone guessing the key: every guess counts.
    for (let index = 0; index < 59; index += 1) {
      await expectAuthError(
        await authCall("GET", "/admin/users", undefined, { ip, headers: { Authorization: `Bearer guess-${index}` } }),
        403,
        "not_admin",
      );
    }
    expect((await authCall("GET", "/admin/users?per_page=1", undefined, { ...admin, ip })).status).toBe(200);

    for (const [method, path] of [
      ["GET", "/admin/users"],
      ["GET", "/admin/users/00000000-0000-4000-8000-000000000000"],
      ["DELETE", "/admin/users/00000000-0000-4000-8000-000000000000"],
    ] as const) {
      const refused = await authCall(method, path, undefined, { ...admin, ip });
      const body = await expectAuthError(refused, 429, "over_request_rate_limit");
      expect(Object.keys(body).sort()).toEqual(["code", "error_code", "message", "msg"]);
      expect(body.message).toBe("Request rate limit reached. Try again in 290 seconds.");
      expect(refused.headers.get("Retry-After")).toBe("290");
    }
    // Without the key as well: the limit comes before the key check.
    await expectAuthError(await authCall("GET", "/admin/users", undefined, { ip }), 429, "over_request_rate_limit");

    // Another client is not affected; the next window starts over.
    expect((await authCall("GET", "/admin/users?per_page=1", undefined, { ...admin, ip: uniqueIp() })).status).toBe(200);
    vi.setSystemTime(Math.ceil(Date.now() / 300_000) * 300_000);
    expect((await authCall("GET", "/admin/users?per_page=1", undefined, { ...admin, ip })).status).toBe(200);
  });

  it("the admin limit is a setting (AUTH_RATE_LIMIT_ADMIN)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Math.ceil(Date.now() / 300_000) * 300_000 + 10_000);
    const ip = uniqueIp();
    const overrides = { AUTH_RATE_LIMIT_ADMIN: "2" };
    expect((await authCall("GET", "/admin/users?per_page=1", undefined, { ...admin, ip, overrides })).status).toBe(200);
    expect((await authCall("GET", "/admin/users?per_page=1", undefined, { ...admin, ip, overrides })).status).toBe(200);
    await expectAuthError(
      await authCall("GET", "/admin/users?per_page=1", undefined, { ...admin, ip, overrides }),
      429,
      "over_request_rate_limit",
    );
  });
});

// The admin API under /auth/v1/admin leaves a trace of what it reads and erases: an audit record and a log line, never an address.

/** The log lines written (as parsed JSON) while `work` runs. */
async function logLinesDuring(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
  await work();
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The audit records of `action` whose details name `userId`, newest first. */
async function auditOf(action: string, match: (details: Record<string, unknown>) => boolean): Promise<AuditRecord[]> {
  const trail = await testRepository().operator.auditTrail(500);
  return trail.filter((record) => record.action === action && match(record.details));
}

describe("/auth/v1/admin audit trail", () => {
  it("DELETE /admin/users/:id records the erasure (action, operator, time, user id) and logs it, without the address", async () => {
    const email = uniqueEmail("audit-delete");
    const session = await signIn(email);
    const before = Date.now();

    let status = 0;
    const lines = await logLinesDuring(async () => {
      status = (await authCall("DELETE", `/admin/users/${session.user.id}`, undefined, admin)).status;
    });
    expect(status).toBe(200);

    const records = await auditOf("auth_user.deleted", (details) => details.user_id === session.user.id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ operator: "admin-key", subjectHash: null, details: { user_id: session.user.id, users: 1 } });
    expect(Date.parse(records[0]!.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(JSON.stringify(records[0])).not.toContain(email);

    const logged = lines.filter((line) => line.event === "auth.admin_action");
    expect(logged).toEqual([expect.objectContaining({ action: "auth_user.deleted", operator: "admin-key", user_id: session.user.id })]);
    expect(JSON.stringify(lines)).not.toContain(email);
  });

  it("a DELETE that finds nobody erases nothing and records nothing", async () => {
    const id = crypto.randomUUID();
    expect((await authCall("DELETE", `/admin/users/${id}`, undefined, admin)).status).toBe(404);
    expect(await auditOf("auth_user.deleted", (details) => details.user_id === id)).toHaveLength(0);
  });

  it("GET /admin/users records the listing with its counts and logs it, without any address", async () => {
    const email = uniqueEmail("audit-list");
    await signIn(email);
    const marker = 7;
    let total = 0;
    const lines = await logLinesDuring(async () => {
      const response = await authCall("GET", `/admin/users?page=1&per_page=${marker}`, undefined, admin);
      expect(response.status).toBe(200);
      total = Number(response.headers.get("X-Total-Count"));
    });

    const records = await auditOf("auth_users.listed", (details) => details.per_page === marker && details.total === total);
    expect(records.length).toBeGreaterThanOrEqual(1);
    expect(records[0]).toMatchObject({
      operator: "admin-key",
      details: { page: 1, per_page: marker, users: Math.min(marker, total), total },
    });
    expect(JSON.stringify(records[0])).not.toContain("@");

    const logged = lines.filter((line) => line.event === "auth.admin_action");
    expect(logged).toEqual([expect.objectContaining({ action: "auth_users.listed", operator: "admin-key", per_page: marker, total })]);
    expect(JSON.stringify(lines)).not.toContain("@");
  });

  it("GET /admin/users/:id records the look-up by user id, without the address", async () => {
    const email = uniqueEmail("audit-read");
    const session = await signIn(email);
    expect((await authCall("GET", `/admin/users/${session.user.id}`, undefined, admin)).status).toBe(200);
    const records = await auditOf("auth_user.read", (details) => details.user_id === session.user.id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ operator: "admin-key", details: { user_id: session.user.id } });
    expect(JSON.stringify(records[0])).not.toContain(email);
  });

  it("without the key nothing is recorded", async () => {
    const before = (await testRepository().operator.auditTrail(1000)).length;
    expect((await authCall("GET", "/admin/users", undefined, { headers: { Authorization: "Bearer wrong" } })).status).toBe(403);
    expect((await testRepository().operator.auditTrail(1000)).length).toBe(before);
  });
});

// Bearer parsing and the admin-key check, shared by /auth/v1/admin and /api/admin.

const STRONG_KEY = "k3y-9f8e7d6c5b4a3210-fedcba9876543210-zz";
const withKey = (key: string) => readConfig({ AUTH_ADMIN_KEY: key } as Env);

describe("bearerToken", () => {
  it("reads the token of a Bearer header, whatever the scheme's case", () => {
    expect(bearerToken("Bearer abc.def")).toBe("abc.def");
    expect(bearerToken("bearer   abc ")).toBe("abc");
    expect(bearerToken("BEARER abc")).toBe("abc");
  });

  it("finds no token in anything else", () => {
    for (const header of [undefined, null, "", "Bearer", "Bearer ", "Basic abc", "Bearer a b", "Token abc"]) {
      expect(bearerToken(header)).toBeNull();
    }
  });
});

describe("isAdminKey", () => {
  it("accepts exactly the configured strong key", async () => {
    const config = withKey(STRONG_KEY);
    expect(await isAdminKey(config, STRONG_KEY)).toBe(true);
    expect(await isAdminKey(config, `${STRONG_KEY}x`)).toBe(false);
    expect(await isAdminKey(config, STRONG_KEY.slice(0, -1))).toBe(false);
    expect(await isAdminKey(config, "")).toBe(false);
  });

  it("opens nothing while the configured key is weak or missing, even to that key", async () => {
    for (const weak of ["", "short-key", "secretsecretsecretsecretsecretsecret", "a".repeat(64)]) {
      expect(await isAdminKey(withKey(weak), weak)).toBe(false);
    }
  });
});
