// When a user comes to exist (the first verified code, not the code request) and what `data` does (at most 1 KB, only on creation).
import { describe, expect, it, vi } from "vitest";
import {
  authCall,
  codeMailCount,
  codeRow,
  countAuthRows,
  expectAuthError,
  getUser,
  latestCode,
  verify,
  type Session,
} from "../support/auth";
import { testRepository, uniqueEmail } from "../support/worker";

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
