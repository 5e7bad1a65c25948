// POST /auth/v1/otp: storing and e-mailing a code, the cooldown, create_user, bad input, mail failures.
import { describe, expect, it, vi } from "vitest";
import {
  authCall,
  codeMailCount,
  codeRow,
  countAuthRows,
  expectAuthError,
  latestCode,
  mailboxCounts,
  requestCode,
  uniqueIp,
  verify,
  type Session,
} from "../support/auth";
import { codeWaitMessage } from "../../worker/shared/sign-in";
import { fakeProvider, PROVIDER_ENV } from "../support/fake-provider";
import { call, testRepository, uniqueEmail } from "../support/worker";

describe("POST /auth/v1/otp", () => {
  it("stores a hashed code for the address and e-mails it; answers 200 {}; no user exists yet", async () => {
    const email = uniqueEmail("otp");
    const response = await authCall("POST", "/otp", {
      email,
      create_user: true,
      data: { grade: 9 },
      gotrue_meta_security: {},
      code_challenge: null,
      code_challenge_method: null,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect(response.headers.get("X-Supabase-Api-Version")).toBe("2024-01-01");
    expect(response.headers.get("Access-Control-Expose-Headers")).toContain("X-Supabase-Api-Version");
    expect(response.headers.get("Cache-Control")).toBe("no-store");

    const code = await latestCode(email);
    expect(code).toMatch(/^\d{6}$/);
    expect(await testRepository().signIn.findUserByEmail(email)).toBeUndefined();

    const stored = await codeRow(email);
    expect(stored!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(stored!.user_metadata!)).toEqual({ grade: 9 });
    expect(stored).toMatchObject({ attempts: 0 });
    expect(await mailboxCounts(email)).toEqual({ hour: 1, day: 1 });
    expect(JSON.stringify(stored)).not.toContain(code);
    const mails = await testRepository().devMail.list(50);
    const mail = mails.find((message) => message.receivers.includes(email))!;
    expect(mail.receivers).toEqual([email]);
    expect(mail.title).toContain(code);
    expect(mail.bodyHtml).toContain("expires in 10 minutes");
  });

  it("normalises the address: a request and a verify in other case are the same address and user", async () => {
    const email = uniqueEmail("case");
    await requestCode(email);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    expect((await authCall("POST", "/otp", { email: `  ${email.toUpperCase()} ` })).status).toBe(200);
    expect(await countAuthRows("hwh_auth_codes", "lower(email) = ?", email)).toBe(1);
    const response = await verify(` ${email.toUpperCase()}`, await latestCode(email));
    expect(response.status).toBe(200);
    expect(((await response.json()) as Session).user.email).toBe(email);
    expect(await countAuthRows("hwh_auth_users", "lower(email) = ?", email)).toBe(1);
  });

  it("codes come out uniformly from the whole 6-digit range (CSPRNG, leading zeros kept)", async () => {
    const { randomCode } = await import("../../worker/features/sign-in/secrets");
    const codes = Array.from({ length: 2000 }, () => randomCode(6));
    expect(codes.every((code) => /^\d{6}$/.test(code))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1990);
    const firstDigits = new Set(codes.map((code) => code[0]));
    expect(firstDigits.size).toBe(10);
  });

  it("a new code replaces the previous one", async () => {
    const email = uniqueEmail("replace");
    const first = await requestCode(email);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    let second = await requestCode(email);
    // A repeat of the same 6 digits is possible (one in a million); ask again if it happens.
    while (second === first) {
      vi.setSystemTime(Date.now() + 61_000);
      second = await requestCode(email);
    }
    await expectAuthError(await verify(email, first), 403, "otp_expired");
    expect((await verify(email, second)).status).toBe(200);
  });

  it("allows one code request per address per 60 seconds, saying how long to wait", async () => {
    const email = uniqueEmail("cooldown");
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    await requestCode(email);

    vi.setSystemTime(start + 15_000);
    const refused = await authCall("POST", "/otp", { email });
    const body = await expectAuthError(refused, 429, "over_email_send_rate_limit");
    expect(body.message).toBe(codeWaitMessage(45));
    expect(refused.headers.get("Retry-After")).toBe("45");
    expect(await countAuthRows("hwh_auth_codes", "email = ?", email)).toBe(1);
    expect(await codeMailCount(email)).toBe(1);

    // Another address is not affected.
    await requestCode(uniqueEmail("other"));

    vi.setSystemTime(start + 60_000);
    expect((await authCall("POST", "/otp", { email })).status).toBe(200);
  });

  it("concurrent requests for one address within the cooldown send one code", async () => {
    const email = uniqueEmail("burst");
    const responses = await Promise.all(Array.from({ length: 8 }, () => authCall("POST", "/otp", { email })));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 429, 429, 429, 429, 429, 429, 429]);
    const mails = (await testRepository().devMail.list(200)).filter((mail) => mail.receivers.includes(email));
    expect(mails).toHaveLength(1);
  });

  it("create_user: false answers 200 {} without creating a user; a user's address gets a code that works", async () => {
    const email = uniqueEmail("nocreate");
    const unknown = await authCall("POST", "/otp", { email, create_user: false });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual({});
    expect(await countAuthRows("hwh_auth_users", "email = ?", email)).toBe(0);
    expect(await codeMailCount(email)).toBe(0);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    const session = (await (await verify(email, await requestCode(email))).json()) as Session;
    vi.setSystemTime(Date.now() + 61_000);
    expect((await authCall("POST", "/otp", { email, create_user: false })).status).toBe(200);
    const response = await verify(email, await latestCode(email));
    expect(response.status).toBe(200);
    expect(((await response.json()) as Session).user.id).toBe(session.user.id);
  });

  it.each([
    ["no e-mail", {}],
    ["an empty e-mail", { email: "   " }],
    ["a malformed e-mail", { email: "not-an-email" }],
    ["an e-mail with a space", { email: "a b@example.com" }],
    ["a number", { email: 42 }],
    ["create_user that is not a boolean", { email: "x@example.com", create_user: "yes" }],
    ["data that is not an object", { email: "x@example.com", data: [1] }],
  ])("rejects %s with validation_failed and stores nothing", async (_name, payload) => {
    const [users, codes] = [await countAuthRows("hwh_auth_users"), await countAuthRows("hwh_auth_codes")];
    await expectAuthError(await authCall("POST", "/otp", payload), 400, "validation_failed");
    expect(await countAuthRows("hwh_auth_users")).toBe(users);
    expect(await countAuthRows("hwh_auth_codes")).toBe(codes);
  });

  it.each([
    ["a bidirectional override", { name: "\u202egnp.exe" }],
    ["a zero-width space in a nested object", { profile: { nickname: "ad\u200bmin" } }],
    ["a control character in an array", { tags: ["maths", "bell\u0007"] }],
    ["a tag character deep inside", { a: [{ b: { c: ["ok", "hidden\u{e0041}"] } }] }],
    ["a lone surrogate", { name: "\ud800" }],
    ["a forbidden character in a key", { "na\u202eme": "Ann" }],
    ["a line break in a key", { "first\nname": "Ann" }],
  ])("refuses data holding %s: 400 validation_failed, nothing stored or sent", async (_name, data) => {
    const email = uniqueEmail("baddata");
    const body = await expectAuthError(await authCall("POST", "/otp", { email, data }), 400, "validation_failed");
    expect(body.message).toBe("data contains characters that are not allowed.");
    expect(await countAuthRows("hwh_auth_codes", "email = ?", email)).toBe(0);
    expect(await codeMailCount(email)).toBe(0);
  });

  it("accepts data of real writing: accents, emoji sequences, joiners between letters, line breaks in values", async () => {
    const email = uniqueEmail("gooddata");
    const data = {
      name: "Zoë Ångström",
      persian: "می\u200cخواهم",
      emoji: "👩\u200d💻",
      bio: "line one\nline two",
      nested: { list: ["ok", 1, true, null] },
    };
    expect((await authCall("POST", "/otp", { email, data })).status).toBe(200);
    expect(JSON.parse((await codeRow(email))!.user_metadata!)).toEqual(data);
  });

  it.each([
    ["malformed JSON", '{"email":', "application/json", 400, "bad_json"],
    ["a JSON array", "[]", "application/json", 400, "bad_json"],
    ["an empty body", "", "application/json", 400, "bad_json"],
    ["a form post", "email=a%40b.co", "application/x-www-form-urlencoded", 415, "validation_failed"],
  ])("rejects %s in GoTrue's shape", async (_name, body, contentType, status, code) => {
    const response = await call("/auth/v1/otp", {
      method: "POST",
      headers: { "Content-Type": contentType, "CF-Connecting-IP": uniqueIp() },
      body,
    });
    await expectAuthError(response, status, code);
  });

  it("phone sign-in is not enabled", async () => {
    await expectAuthError(await authCall("POST", "/otp", { phone: "+15555550100" }), 422, "phone_provider_disabled");
  });

  it("when the e-mail cannot be sent: a clear 500, and the code is withdrawn so the user can ask again at once", async () => {
    const email = uniqueEmail("mailfail");
    const provider = fakeProvider("http-500");
    const failed = await authCall("POST", "/otp", { email }, { overrides: PROVIDER_ENV });
    const body = await expectAuthError(failed, 500, "unexpected_failure");
    expect(body.message).toBe("The e-mail with your code could not be sent. Please try again in a moment.");
    expect(provider.calls).toHaveLength(1);
    expect(await countAuthRows("hwh_auth_codes", "code_hash is not null and email = ?", email)).toBe(0);

    provider.setMode("success");
    expect((await authCall("POST", "/otp", { email }, { overrides: PROVIDER_ENV })).status).toBe(200);
  });

  it.each(["production", "staging", "Development", " development", ""])(
    "with ENVIRONMENT=%j (anything but exactly development) there is no dev mailbox: no provider token, no code",
    async (environment) => {
      const email = uniqueEmail("prod");
      const response = await authCall("POST", "/otp", { email }, { overrides: { ENVIRONMENT: environment } });
      const body = await expectAuthError(response, 500, "unexpected_failure");
      expect(body.message).toBe("Sign-in e-mails are not configured on this server.");
      expect(await codeMailCount(email)).toBe(0);
      expect(await countAuthRows("hwh_auth_codes", "code_hash is not null and email = ?", email)).toBe(0);
    },
  );

  it("sends the code through the provider in production: to the user, with the code", async () => {
    const email = uniqueEmail("provider");
    const provider = fakeProvider("success");
    expect((await authCall("POST", "/otp", { email }, { overrides: PROVIDER_ENV })).status).toBe(200);
    expect(provider.calls).toHaveLength(1);
    const sent = provider.calls[0]!.body as { inputs: { receivers: string[]; title: string; body_html: string } };
    expect(sent.inputs.receivers).toEqual([email]);
    expect(sent.inputs.body_html).toMatch(/\b\d{6}\b/);
    expect((await testRepository().devMail.list(200)).some((mail) => mail.receivers.includes(email))).toBe(false);
  });

  it("refuses to work without a JWT secret, saying sign-in is not configured", async () => {
    const response = await authCall("POST", "/otp", { email: uniqueEmail("nosecret") }, { overrides: { AUTH_JWT_SECRET: "" } });
    const body = await expectAuthError(response, 500, "unexpected_failure");
    expect(body.message).toBe("Sign-in is not configured on this server.");
    const short = await authCall("POST", "/otp", { email: uniqueEmail("short") }, { overrides: { AUTH_JWT_SECRET: "too-short" } });
    expect(short.status).toBe(500);
  });

  it("the database being down is a 500 in GoTrue's shape, not an HTML page", async () => {
    const { brokenDatabase } = await import("../support/worker");
    const response = await authCall(
      "POST",
      "/otp",
      { email: uniqueEmail("dbdown") },
      { ip: uniqueIp(), overrides: { DB: brokenDatabase() } },
    );
    await expectAuthError(response, 500, "unexpected_failure");
  });
});
