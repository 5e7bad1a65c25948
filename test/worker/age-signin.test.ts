import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { AGE_MESSAGES } from "../../worker/shared/age";
import { ME_ROUTES } from "../../worker/shared/me";
import { ADULT_ANSWER } from "../support/age";
import { authCall, codeRow, countAuthRows, expectAuthError, latestCode, signIn, verify } from "../support/auth";
import { call, countRows, testRepository, uniqueEmail } from "../support/worker";

/**
 * Sign-in below the consent age (issue 23, "the child's address is not stored, and no e-mail is
 * sent to it"; docs/api.md "The age question"): while the device's `hwh_age` cookie says a parent
 * decides, POST /auth/v1/otp sends and stores nothing; a signed-in address whose one-click join
 * answers below the consent age is erased and signed out.
 */

const repo = testRepository();
const YEAR = new Date().getUTCFullYear();
/** A birth date `age` years ago (January, counted the younger way in January). */
const aged = (age: number) => ({ birth_month: 1, birth_year: YEAR - age - (new Date().getUTCMonth() === 0 ? 1 : 0) });

/** The `hwh_age=...` cookie an answer of `body` to the public join sets (a 12-year-old in the US: the parent path). */
async function ageCookie(body: Record<string, unknown>): Promise<string> {
  const response = await call("/api/waitlist", {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-IPCountry": "US" },
    body: JSON.stringify({ ...body, email: uniqueEmail("age-answer") }),
  });
  const cookie = /^(hwh_age=[^;]+);/.exec(response.headers.get("Set-Cookie") ?? "")?.[1];
  if (!cookie) throw new Error(`No hwh_age cookie (HTTP ${response.status}).`);
  return cookie;
}

const otp = (email: string, cookie?: string) =>
  authCall("POST", "/otp", { email, create_user: true, data: {} }, cookie ? { headers: { Cookie: cookie } } : {});

const mailedTo = async (email: string) => (await repo.devMail.list(500)).filter((mail) => mail.receivers.includes(email)).length;

describe("POST /auth/v1/otp while a parent must decide", () => {
  it("sends no code and stores nothing: the 403 parent_needed with the parent path's words", async () => {
    const cookie = await ageCookie(aged(12));
    expect(cookie).toMatch(/^hwh_age=under_13\.1\./);
    const email = uniqueEmail("child-otp");
    const [mails, users, codes] = await Promise.all([
      countRows("hwh_dev_mailbox"),
      countAuthRows("hwh_auth_users"),
      countAuthRows("hwh_auth_codes"),
    ]);

    const body = await expectAuthError(await otp(email, cookie), 403, "parent_needed");
    expect(body.message).toBe(AGE_MESSAGES.parentNeeded);

    expect(await countRows("hwh_dev_mailbox")).toBe(mails);
    expect(await countAuthRows("hwh_auth_users")).toBe(users);
    expect(await countAuthRows("hwh_auth_codes")).toBe(codes);
    expect(await codeRow(email)).toBeNull();
    expect(await mailedTo(email)).toBe(0);
  });

  it("a code asked for before the answer is not checked either: no user, no session", async () => {
    const email = uniqueEmail("child-verify");
    expect((await otp(email)).status).toBe(200);
    const code = await latestCode(email);
    const cookie = await ageCookie(aged(12));
    await expectAuthError(await verify(email, code, { headers: { Cookie: cookie } }), 403, "parent_needed");
    expect(await countAuthRows("hwh_auth_users", "email = ?", email)).toBe(0);
  });

  it("without the cookie, with an adult's or a 15-year-old's in the US, or a forged one: the code is sent", async () => {
    const adult = await ageCookie(ADULT_ANSWER);
    const teen = await ageCookie(aged(15));
    expect(teen).toMatch(/^hwh_age=13_15\.0\./);
    const forged = (await ageCookie(aged(12))).replace(/\.[\w-]{43}$/, `.${"A".repeat(43)}`);
    for (const cookie of [undefined, adult, teen, forged]) {
      const email = uniqueEmail("may-sign-in");
      const response = await otp(email, cookie);
      expect(response.status, `${cookie}: ${await response.clone().text()}`).toBe(200);
      expect(await latestCode(email)).toMatch(/^\d{6}$/);
      expect(await codeRow(email)).not.toBeNull();
    }
  });
});

describe("POST /api/me/waitlist below the consent age: the child's sign-in is erased", () => {
  it("a signed-in user answering 12 years old: no user, no sessions, no entry; 400 parent_needed, signed_out, cookies", async () => {
    const email = uniqueEmail("child-signed-in");
    const session = await signIn(email);
    const userId = session.user.id;
    expect(await countAuthRows("hwh_auth_sessions", "user_id = ?", userId)).toBeGreaterThan(0);

    const response = await call(ME_ROUTES.waitlist, {
      method: "POST",
      headers: { Authorization: `Bearer ${session.access_token}`, "CF-IPCountry": "US", "Content-Type": "application/json" },
      body: JSON.stringify(aged(12)),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ code: "parent_needed", message: AGE_MESSAGES.parentNeeded, signed_out: true });
    expect(JSON.stringify(body)).not.toContain(email);
    // The age lock is set, and this device's sign-in cookie cleared (as DELETE /api/me does).
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((cookie) => /^hwh_age=under_13\.1\./.test(cookie))).toBe(true);
    expect(cookies.some((cookie) => /^hwh_device=;/.test(cookie))).toBe(true);

    expect(await countAuthRows("hwh_auth_users", "email = ?", email)).toBe(0);
    expect(await countAuthRows("hwh_auth_sessions", "user_id = ?", userId)).toBe(0);
    expect(await repo.findWaitlistEntry(email)).toBeFalsy();
    // The erasure is audited as the person's own ("self"), never by the address.
    const audit = await env.DB.prepare("select * from hwh_audit_log where action = 'person.erased' order by id desc limit 1").first<
      Record<string, unknown>
    >();
    expect(JSON.stringify(audit)).not.toContain(email);
    expect(audit).toMatchObject({ operator: "self" });

    // The token no longer works.
    const after = await call(ME_ROUTES.me, { headers: { Authorization: `Bearer ${session.access_token}` } });
    expect(after.status).toBe(401);
  });
});
