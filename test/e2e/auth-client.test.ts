/**
 * The real auth-js client (the library the site uses) against the worker's auth service under
 * wrangler dev: e-mail code sign-in, refresh, sign-out in all three scopes, and the admin API.
 * Every test uses new addresses of its own, so tests are independent of each other and of the
 * browser tests running against the same server.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { AuthClient, GoTrueAdminApi, isAuthApiError, type AuthChangeEvent, type Session } from "@supabase/auth-js";
import { afterAll, describe, expect, inject, it } from "vitest";
import { MemoryStorage, latestMailId, otherCode, readCode, uniqueEmail } from "./support";

const baseUrl = inject("baseUrl");
const adminKey = inject("adminKey");
const authUrl = `${baseUrl}/auth/v1`;
const STORAGE_KEY = "hwh-auth";

type Client = InstanceType<typeof AuthClient>;
type TestClient = {
  client: Client;
  storage: MemoryStorage;
  events: AuthChangeEvent[];
  /** Seconds the server last asked to wait (Retry-After), which auth-js does not pass on. */
  retryAfter: () => number | undefined;
};

const unsubscribes: Array<() => void> = [];
afterAll(() => {
  for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
});

/** A client like the site's, but with its own memory storage and no refresh timer. */
function newClient(): TestClient {
  const storage = new MemoryStorage();
  let retryAfter: number | undefined;
  const client = new AuthClient({
    url: authUrl,
    storageKey: STORAGE_KEY,
    storage,
    persistSession: true,
    autoRefreshToken: false,
    detectSessionInUrl: false,
    flowType: "implicit",
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const header = response.headers.get("retry-after");
      retryAfter = header === null ? undefined : Number(header);
      return response;
    },
  });
  const events: AuthChangeEvent[] = [];
  const { data } = client.onAuthStateChange((event) => {
    events.push(event);
  });
  unsubscribes.push(() => data.subscription.unsubscribe());
  return { client, storage, events, retryAfter: () => retryAfter };
}

/**
 * Asks for a code, reads it from the dev mailbox and verifies it: a signed-in client. A second
 * sign-in of the same address within the server's cooldown (1 s here) is refused (429), so it
 * waits as long as the server says and asks once more, like a user told to try again later.
 */
async function signIn(test: TestClient, email: string): Promise<Session> {
  const mark = await latestMailId(baseUrl);
  let sent = await test.client.signInWithOtp({ email });
  if (sent.error?.code === "over_email_send_rate_limit") {
    await sleep(((test.retryAfter() ?? 60) + 1) * 1000);
    sent = await test.client.signInWithOtp({ email });
  }
  expect(sent.error).toBeNull();
  const token = await readCode(baseUrl, email, { after: mark });
  const { data, error } = await test.client.verifyOtp({ email, token, type: "email" });
  expect(error).toBeNull();
  expect(data.session).not.toBeNull();
  return data.session!;
}

/** GET /auth/v1/user with a given access token, bypassing auth-js (which hides the status). */
async function getUserRaw(accessToken: string): Promise<{ status: number; code: unknown }> {
  const response = await fetch(`${authUrl}/user`, { headers: { Authorization: `Bearer ${accessToken}` } });
  const body = (await response.json()) as { code?: unknown; error_code?: unknown };
  // GoTrue names the error `error_code`, or `code` in its 2024-01-01 API version.
  return { status: response.status, code: body.error_code ?? body.code };
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

describe("e-mail code sign-in with auth-js", () => {
  it("signs in with the code from the e-mail and stores a complete session", async () => {
    const test = newClient();
    const email = uniqueEmail("signin");
    const before = Math.floor(Date.now() / 1000);

    const session = await signIn(test, email);

    expect(session.access_token).toMatch(JWT_SHAPE);
    expect(session.refresh_token).toEqual(expect.any(String));
    expect(session.refresh_token.length).toBeGreaterThan(0);
    expect(session.token_type).toBe("bearer");
    expect(session.expires_in).toBeGreaterThan(0);
    expect(session.expires_at).toBeGreaterThanOrEqual(before + session.expires_in - 5);
    expect(session.expires_at).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + session.expires_in + 5);
    expect(session.user.email).toBe(email);
    await expect.poll(() => test.events).toContain("SIGNED_IN");

    const stored = JSON.parse(test.storage.getItem(STORAGE_KEY) ?? "null") as Session | null;
    expect(stored?.access_token).toBe(session.access_token);
    expect(stored?.user.email).toBe(email);

    const { data, error } = await test.client.getUser();
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.id).toBe(session.user.id);
  });

  it("refreshes the session into new tokens", async () => {
    const test = newClient();
    const session = await signIn(test, uniqueEmail("refresh"));
    // Access tokens carry whole-second times (iat, exp), as GoTrue's do: one issued in the same
    // second for the same session is the same token. The next second tells a new one apart.
    await sleep(1_000 - (Date.now() % 1_000) + 50);

    const { data, error } = await test.client.refreshSession();

    expect(error).toBeNull();
    expect(data.session?.access_token).toMatch(JWT_SHAPE);
    expect(data.session?.access_token).not.toBe(session.access_token);
    expect(data.session?.refresh_token).not.toBe(session.refresh_token);
    expect(data.session?.user.id).toBe(session.user.id);
    await expect.poll(() => test.events).toContain("TOKEN_REFRESHED");

    const user = await test.client.getUser();
    expect(user.error).toBeNull();
    expect(user.data.user?.id).toBe(session.user.id);
  });

  it("rejects a wrong code with 403 otp_expired and stores nothing", async () => {
    const test = newClient();
    const email = uniqueEmail("wrong-code");
    const mark = await latestMailId(baseUrl);
    expect((await test.client.signInWithOtp({ email })).error).toBeNull();
    const code = await readCode(baseUrl, email, { after: mark });

    const { data, error } = await test.client.verifyOtp({ email, token: otherCode(code), type: "email" });

    expect(isAuthApiError(error)).toBe(true);
    expect(error?.status).toBe(403);
    expect(error?.code).toBe("otp_expired");
    expect(error?.message).toEqual(expect.any(String));
    expect(data.session).toBeNull();
    expect(test.storage.getItem(STORAGE_KEY)).toBeNull();
    expect(test.events).not.toContain("SIGNED_IN");
  });
});

describe("sign-out scopes", () => {
  it("local: ends this session, removes it from storage and revokes its access token", async () => {
    const test = newClient();
    const session = await signIn(test, uniqueEmail("local"));

    const { error } = await test.client.signOut({ scope: "local" });

    expect(error).toBeNull();
    expect(test.storage.getItem(STORAGE_KEY)).toBeNull();
    await expect.poll(() => test.events).toContain("SIGNED_OUT");
    expect((await test.client.getSession()).data.session).toBeNull();
    expect(await getUserRaw(session.access_token)).toEqual({ status: 403, code: "session_not_found" });
  });

  it("others: ends the user's other sessions and keeps this one", async () => {
    const email = uniqueEmail("others");
    const a = newClient();
    const b = newClient();
    const sessionA = await signIn(a, email);
    const sessionB = await signIn(b, email);
    expect(sessionB.user.id).toBe(sessionA.user.id);

    const { error } = await a.client.signOut({ scope: "others" });

    expect(error).toBeNull();
    expect(await getUserRaw(sessionB.access_token)).toEqual({ status: 403, code: "session_not_found" });
    const userB = await b.client.getUser();
    expect(userB.error).not.toBeNull();
    expect(userB.data.user).toBeNull();
    const userA = await a.client.getUser();
    expect(userA.error).toBeNull();
    expect(userA.data.user?.email).toBe(email);
    expect(a.storage.getItem(STORAGE_KEY)).not.toBeNull();
  });

  it("global: ends every session of the user", async () => {
    const email = uniqueEmail("global");
    const a = newClient();
    const b = newClient();
    const sessionA = await signIn(a, email);
    const sessionB = await signIn(b, email);

    const { error } = await a.client.signOut({ scope: "global" });

    expect(error).toBeNull();
    expect(a.storage.getItem(STORAGE_KEY)).toBeNull();
    expect(await getUserRaw(sessionA.access_token)).toEqual({ status: 403, code: "session_not_found" });
    expect(await getUserRaw(sessionB.access_token)).toEqual({ status: 403, code: "session_not_found" });
    const userB = await b.client.getUser();
    expect(userB.error).not.toBeNull();
    expect(userB.data.user).toBeNull();
  });

  it("refuses a refresh with the refresh token of an ended session", async () => {
    const test = newClient();
    const session = await signIn(test, uniqueEmail("revoked-refresh"));
    expect((await test.client.signOut({ scope: "local" })).error).toBeNull();

    const other = newClient();
    const { data, error } = await other.client.refreshSession({ refresh_token: session.refresh_token });

    expect(error).not.toBeNull();
    expect(data.session).toBeNull();
  });
});

describe("admin API", () => {
  const admin = (key?: string) =>
    new GoTrueAdminApi({ url: authUrl, headers: key === undefined ? {} : { Authorization: `Bearer ${key}` } });

  it("lists, reads and deletes a user; deleting ends the user's sessions", async () => {
    const test = newClient();
    const email = uniqueEmail("admin");
    const session = await signIn(test, email);
    const api = admin(adminKey);

    const listed = await api.listUsers({ page: 1, perPage: 1000 });
    expect(listed.error).toBeNull();
    expect(listed.data.users.map((user) => user.email)).toContain(email);

    const read = await api.getUserById(session.user.id);
    expect(read.error).toBeNull();
    expect(read.data.user?.email).toBe(email);
    expect(read.data.user?.id).toBe(session.user.id);

    const deleted = await api.deleteUser(session.user.id);
    expect(deleted.error).toBeNull();

    const readAgain = await api.getUserById(session.user.id);
    expect(readAgain.error).not.toBeNull();
    expect(readAgain.data.user).toBeNull();
    const listedAgain = await api.listUsers({ page: 1, perPage: 1000 });
    expect(listedAgain.data.users.map((user) => user.email)).not.toContain(email);
    const user = await test.client.getUser();
    expect(user.error).not.toBeNull();
    expect(user.data.user).toBeNull();
    expect((await getUserRaw(session.access_token)).status).toBe(403);
  });

  it.each([
    ["without a key", undefined],
    ["with a wrong key", "not-the-admin-key"],
    ["with a user's access token", "user-token"],
  ] as const)("refuses every admin call %s", async (_label, key) => {
    let credential: string | undefined = key;
    let userId = "00000000-0000-4000-8000-000000000000";
    if (key === "user-token") {
      const session = await signIn(newClient(), uniqueEmail("not-admin"));
      credential = session.access_token;
      userId = session.user.id;
    }
    const api = admin(credential);

    const listed = await api.listUsers();
    expect(listed.error?.status).toBeOneOf([401, 403]);
    expect(listed.data.users).toEqual([]);

    const read = await api.getUserById(userId);
    expect(read.error?.status).toBeOneOf([401, 403]);
    expect(read.data.user).toBeNull();

    const deleted = await api.deleteUser(userId);
    expect(deleted.error?.status).toBeOneOf([401, 403]);
    expect(deleted.data.user).toBeNull();
  });
});
