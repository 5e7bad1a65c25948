// Asking for a sign-in code (POST /auth/v1/otp): storing and e-mailing it, the cooldown and the rules
// the login page shares; create_user: false, whose answer never tells whether an address has an
// account; and the caps on code e-mails per mailbox, which requests that e-mail nothing never use up.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { canonicalMailbox } from "../../worker/features/sign-in/mailbox";
import * as authService from "../../worker/features/sign-in/codes";
import { readConfig } from "../../worker/platform/config/config";
import { createDeps } from "../../worker/deps";
import {
  CODE_COOLDOWN_SECONDS,
  CODE_LENGTH,
  codeWaitMessage,
  requestRateMessage,
  secondsFromWaitMessage,
} from "../../worker/shared/sign-in";
import {
  authCall,
  codeMailCount,
  codeRow,
  countAuthRows,
  expectAuthError,
  latestCode,
  addressCounts,
  mailboxCounts,
  recordingDatabase,
  requestCode,
  type Session,
  signIn,
  uniqueIp,
  unsentCounts,
  verify,
} from "../support/auth";
import { fakeProvider, PROVIDER_ENV } from "../support/fake-provider";
import { call, type EnvOverrides, testRepository, uniqueEmail } from "../support/worker";

// POST /auth/v1/otp: storing and e-mailing a code, the cooldown, create_user, bad input, mail failures.

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
    expect(await addressCounts(email)).toEqual({ hour: 1, day: 1 });
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

// The rules the worker and the login page share (worker/shared/sign-in.ts). The page reads the
// seconds of a wait back from the server's words, so the words and the parser are tested together.

describe("sign-in rules shared by the worker and the web app", () => {
  it("states waits in GoTrue's words, which @supabase/auth-js clients show", () => {
    expect(codeWaitMessage(42)).toBe("For security purposes, you can only request this after 42 seconds.");
    expect(requestRateMessage(7)).toBe("Request rate limit reached. Try again in 7 seconds.");
  });

  it("reads back the seconds every wait message states", () => {
    for (const seconds of [1, 45, 60, 2185, 86_400]) {
      expect(secondsFromWaitMessage(codeWaitMessage(seconds))).toBe(seconds);
      expect(secondsFromWaitMessage(requestRateMessage(seconds))).toBe(seconds);
    }
    expect(secondsFromWaitMessage("Request rate limit reached")).toBeNull();
  });

  it("gives the settings their defaults: a 6-digit code and a 60-second wait", () => {
    expect(CODE_LENGTH).toBe(6);
    expect(CODE_COOLDOWN_SECONDS).toBe(60);
    const { auth } = readConfig({} as Env);
    expect(auth.codeLength).toBe(CODE_LENGTH);
    expect(auth.codeCooldownSeconds).toBe(CODE_COOLDOWN_SECONDS);
  });
});

// create_user:false: the answer never tells whether an address has an account; only a user's address gets a code.

/** Everything a client sees of an answer. */
async function seen(response: Response) {
  return { status: response.status, body: await response.text(), headers: [...response.headers.entries()].sort() };
}

/** The answers for a known and an unknown address asked for at the same moment. */
async function askBoth(known: string, unknown: string, at: number) {
  vi.setSystemTime(at);
  const forKnown = await authCall("POST", "/otp", { email: known, create_user: false });
  vi.setSystemTime(at);
  const forUnknown = await authCall("POST", "/otp", { email: unknown, create_user: false });
  return [await seen(forKnown), await seen(forUnknown)] as const;
}

describe("POST /auth/v1/otp with create_user: false", () => {
  it("a known and an unknown address get the same status, body and headers; only the known one is e-mailed", async () => {
    const known = uniqueEmail("known");
    const unknown = uniqueEmail("unknown");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    const session = await signIn(known);
    expect(await codeMailCount(known)).toBe(1);

    const [first, second] = await askBoth(known, unknown, start + 61_000);
    expect(first).toEqual(second);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({});
    expect(await codeMailCount(known)).toBe(2);
    expect(await codeMailCount(unknown)).toBe(0);
    expect(await countAuthRows("hwh_auth_users", "email = ?", unknown)).toBe(0);
    // The unknown address is counted too, with nothing to guess: against its own counters of
    // requests that sent nothing, not against the caps of e-mails to it or its mailbox.
    expect(await codeRow(unknown)).toMatchObject({ code_hash: null, user_metadata: null });
    expect(await addressCounts(unknown)).toEqual({ hour: 0, day: 0 });
    expect(await unsentCounts(unknown)).toEqual({ hour: 1, day: 1 });

    // Within the cooldown both are refused alike.
    const [refusedKnown, refusedUnknown] = await askBoth(known, unknown, start + 61_000 + 15_000);
    expect(refusedKnown).toEqual(refusedUnknown);
    expect(refusedKnown.status).toBe(429);
    expect(JSON.parse(refusedKnown.body)).toMatchObject({ code: "over_email_send_rate_limit" });
    expect(refusedKnown.headers).toContainEqual(["retry-after", "45"]);
    expect(await codeMailCount(known)).toBe(2);
    expect(await codeMailCount(unknown)).toBe(0);

    // The known address's code signs its user in; nothing signs in the unknown one.
    const response = await verify(known, await latestCode(known));
    expect(response.status).toBe(200);
    expect(((await response.json()) as Session).user.id).toBe(session.user.id);
    await expectAuthError(await verify(unknown, "000000"), 403, "otp_expired");
    expect(await countAuthRows("hwh_auth_users", "email = ?", unknown)).toBe(0);
  });

  it("a known address whose e-mail fails after the answer: the answer is still 200 {}; the code is cleared, the cooldown and counts stay", async () => {
    const email = uniqueEmail("latefail");
    vi.useFakeTimers({ toFake: ["Date"] });
    // Five minutes into the current clock hour, so the two minutes this test moves on never cross
    // an hour (the mailbox's hourly count starts again on the hour: run at 04:59, it read 1 for 2).
    const start = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 5 * 60_000;
    vi.setSystemTime(start);
    await signIn(email);
    const counted = await addressCounts(email);

    const provider = fakeProvider("http-500");
    vi.setSystemTime(start + 61_000);
    const response = await authCall("POST", "/otp", { email, create_user: false }, { overrides: PROVIDER_ENV });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect(provider.calls).toHaveLength(1);
    // As an unknown address's request leaves its row: no code, the cooldown running, counted.
    expect(await codeRow(email)).toMatchObject({ code_hash: null, sent_at: new Date(start + 61_000).toISOString() });
    expect(await addressCounts(email)).toEqual({ hour: counted.hour + 1, day: counted.day + 1 });

    provider.setMode("success");
    vi.setSystemTime(start + 61_000 + 30_000);
    await expectAuthError(
      await authCall("POST", "/otp", { email, create_user: false }, { overrides: PROVIDER_ENV }),
      429,
      "over_email_send_rate_limit",
    );
    vi.setSystemTime(start + 61_000 + 60_000);
    expect((await authCall("POST", "/otp", { email, create_user: false }, { overrides: PROVIDER_ENV })).status).toBe(200);
    expect(provider.calls).toHaveLength(2);
  });

  it("with the mail provider failing, three requests for a known and for an unknown address get identical answers", async () => {
    const known = uniqueEmail("knownfail");
    const unknown = uniqueEmail("unknownfail");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    await signIn(known);

    const provider = fakeProvider("http-500");
    const threeRequests = async (email: string) => {
      const answers = [];
      for (let index = 0; index < 3; index += 1) {
        vi.setSystemTime(start + 61_000 + index * 5_000);
        answers.push(await seen(await authCall("POST", "/otp", { email, create_user: false }, { overrides: PROVIDER_ENV })));
      }
      return answers;
    };
    const forKnown = await threeRequests(known);
    const forUnknown = await threeRequests(unknown);
    expect(forKnown.map((answer) => answer.status)).toEqual([200, 429, 429]);
    expect(forKnown).toEqual(forUnknown);
    // Only the known address's first request reached the provider.
    expect(provider.calls).toHaveLength(1);
  });

  it("the e-mail is begun only after the answer: requestCode resolves before the transport is called", async () => {
    const email = uniqueEmail("deferred");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    await signIn(email);
    vi.setSystemTime(start + 61_000);

    const deps = createDeps(env);
    const send = vi.fn(async () => ({}));
    deps.visitorTransport = { name: "provider", canSetHeaders: false, send };
    const deferred: Promise<unknown>[] = [];
    await authService.requestCode(deps, { email, createUser: false, data: null }, (work) => deferred.push(work));
    expect(deferred).toHaveLength(1);
    expect(send).not.toHaveBeenCalled();

    await Promise.all(deferred);
    expect(send).toHaveBeenCalledOnce();
    expect(send.mock.calls[0]).toMatchObject([{ receivers: [email] }]);
  });

  it("a known and an unknown address cost the same keyed hashing (the unknown one's code is hashed too)", async () => {
    const known = uniqueEmail("hmacknown");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    await signIn(known);
    vi.setSystemTime(start + 61_000);

    const deps = createDeps(env);
    deps.visitorTransport = { name: "provider", canSetHeaders: false, send: async () => ({}) };
    const sign = vi.spyOn(crypto.subtle, "sign");
    const signsFor = async (email: string) => {
      sign.mockClear();
      await authService.requestCode(deps, { email, createUser: false, data: null }, () => undefined);
      return sign.mock.calls.length;
    };
    const forKnown = await signsFor(known);
    const forUnknown = await signsFor(uniqueEmail("hmacunknown"));
    expect(forKnown).toBeGreaterThanOrEqual(2);
    expect(forUnknown).toBe(forKnown);
  });

  it("a known and an unknown address run the same statements (only the counters' keys differ)", async () => {
    const known = uniqueEmail("sqlknown");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    await signIn(known);
    vi.setSystemTime(start + 61_000);

    const statements: string[] = [];
    const statementsFor = async (email: string) => {
      statements.length = 0;
      const response = await authCall("POST", "/otp", { email, create_user: false }, { overrides: { DB: recordingDatabase(statements) } });
      expect(response.status).toBe(200);
      // The known address's e-mail is stored in the dev mailbox after the answer (waitUntil).
      return statements.filter((query) => !query.includes("hwh_dev_mailbox"));
    };
    const forKnown = await statementsFor(known);
    const forUnknown = await statementsFor(uniqueEmail("sqlunknown"));
    expect(forUnknown).toEqual(forKnown);
    expect(forKnown.filter((query) => query.includes("hwh_rate_limits")).length).toBeGreaterThanOrEqual(3);
  });
});

describe("code e-mails per mailbox, counted in clock windows from a midnight UTC", () => {
  const SECOND = 1000;
  const MINUTE = 60 * SECOND;
  const HOUR = 60 * MINUTE;
  const DAY = 24 * HOUR;

  /** A one-second cooldown, so the caps are what refuses. */
  const SHORT_COOLDOWN: EnvOverrides = { AUTH_CODE_COOLDOWN_SECONDS: "1" };

  /** The caps count in clock windows (the hour, the UTC day): the tests start at a midnight UTC. */
  let start = 0;
  beforeEach(() => {
    start = Math.ceil(Date.now() / DAY) * DAY + DAY;
    vi.useFakeTimers({ toFake: ["Date"] });
  });

  /** A local part no other test (or run) uses. */
  const uniqueLocal = (tag: string) => `${tag}${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;

  describe("the caps (AUTH_CODE_HOURLY_LIMIT, AUTH_CODE_DAILY_LIMIT)", () => {
    // The caps on code e-mails (AUTH_CODE_HOURLY_LIMIT, AUTH_CODE_DAILY_LIMIT) besides the cooldown: per mailbox, per clock window.

    /** Asks for a code for `email` at `start + ms`. */
    function ask(email: string, ms: number, overrides: EnvOverrides = SHORT_COOLDOWN): Promise<Response> {
      vi.setSystemTime(start + ms);
      return authCall("POST", "/otp", { email }, { overrides });
    }

    async function expectRefused(response: Response, seconds: number): Promise<void> {
      const body = await expectAuthError(response, 429, "over_email_send_rate_limit");
      expect(body.message).toBe(codeWaitMessage(seconds));
      expect(response.headers.get("Retry-After")).toBe(String(seconds));
    }

    describe("caps on code e-mails per mailbox", () => {
      it("the 6th code within a clock hour is refused until that hour ends, and nothing is e-mailed", async () => {
        const email = uniqueEmail("hourcap");
        // The first code 20 minutes into the hour: the hour's window ends 40 minutes later, not 60.
        const first = 20 * MINUTE;
        for (let index = 0; index < 5; index += 1) expect((await ask(email, first + index * 2 * SECOND)).status).toBe(200);
        expect(await codeMailCount(email)).toBe(5);

        await expectRefused(await ask(email, first + 10 * SECOND), (HOUR - first - 10 * SECOND) / SECOND);
        await expectRefused(await ask(email, HOUR - SECOND), 1);
        expect(await codeMailCount(email)).toBe(5);
        // Refused requests took their counts back: only the codes sent count.
        expect(await addressCounts(email)).toEqual({ hour: 5, day: 5 });

        expect((await ask(email, HOUR)).status).toBe(200);
        expect(await codeMailCount(email)).toBe(6);
        expect(await addressCounts(email)).toEqual({ hour: 1, day: 6 });
        expect((await verify(email, await latestCode(email))).status).toBe(200);
      });

      it("a refused request leaves the live code in place", async () => {
        const email = uniqueEmail("keeplive");
        for (let index = 0; index < 5; index += 1) await ask(email, index * 2 * SECOND);
        const live = await latestCode(email);
        await expectRefused(await ask(email, 10 * SECOND), 3590);
        expect((await verify(email, live)).status).toBe(200);
      });

      it("the 21st code within a UTC day is refused until the day ends", async () => {
        const email = uniqueEmail("daycap");
        for (let hour = 0; hour < 4; hour += 1) {
          for (let index = 0; index < 5; index += 1) expect((await ask(email, hour * HOUR + index * 2 * SECOND)).status).toBe(200);
        }
        expect(await codeMailCount(email)).toBe(20);
        // A new hour, so only the day's cap refuses: the wait is to the end of the UTC day.
        await expectRefused(await ask(email, 4 * HOUR), (DAY - 4 * HOUR) / SECOND);
        await expectRefused(await ask(email, DAY - SECOND), 1);
        expect(await codeMailCount(email)).toBe(20);
        expect((await ask(email, DAY)).status).toBe(200);
        expect(await codeMailCount(email)).toBe(21);
      });

      it("the caps are settings (AUTH_CODE_HOURLY_LIMIT, AUTH_CODE_DAILY_LIMIT)", async () => {
        const hourly = uniqueEmail("hourly2");
        const overrides = { ...SHORT_COOLDOWN, AUTH_CODE_HOURLY_LIMIT: "2", AUTH_CODE_DAILY_LIMIT: "3" };
        expect((await ask(hourly, 0, overrides)).status).toBe(200);
        expect((await ask(hourly, 2 * SECOND, overrides)).status).toBe(200);
        await expectRefused(await ask(hourly, 4 * SECOND, overrides), 3596);
        expect((await ask(hourly, HOUR, overrides)).status).toBe(200);
        await expectRefused(await ask(hourly, HOUR + 2 * SECOND, overrides), (DAY - HOUR - 2 * SECOND) / SECOND);
      });

      it("a code whose e-mail could not be sent does not use up the caps", async () => {
        const email = uniqueEmail("failcap");
        const provider = fakeProvider("http-500");
        const overrides = { ...PROVIDER_ENV, ...SHORT_COOLDOWN };
        for (let index = 0; index < 6; index += 1) {
          await expectAuthError(await ask(email, index * 2 * SECOND, overrides), 500, "unexpected_failure");
        }
        expect(provider.calls).toHaveLength(6);
        expect(await codeRow(email)).toMatchObject({ code_hash: null });
        expect(await addressCounts(email)).toEqual({ hour: 0, day: 0 });

        provider.setMode("success");
        for (let index = 6; index < 11; index += 1) expect((await ask(email, index * 2 * SECOND, overrides)).status).toBe(200);
        expect(provider.calls).toHaveLength(11);
        await expectRefused(await ask(email, 22 * SECOND, overrides), 3600 - 22);
        // The refused request never reached the provider.
        expect(provider.calls).toHaveLength(11);
      });

      it("a request refused by the cooldown does not use up the caps", async () => {
        const email = uniqueEmail("cooldowncap");
        expect((await ask(email, 0, {})).status).toBe(200);
        for (let index = 1; index <= 6; index += 1) await expectRefused(await ask(email, index * SECOND, {}), 60 - index);
        expect(await addressCounts(email)).toEqual({ hour: 1, day: 1 });
        for (let index = 1; index < 5; index += 1) expect((await ask(email, index * MINUTE, {})).status).toBe(200);
        expect(await codeMailCount(email)).toBe(5);
      });
    });

    describe("a mailbox is every address that reaches it", () => {
      it("plus-addressed variants of one inbox share its ceiling, each with its own cooldown; the plain address keeps its own caps", async () => {
        const local = uniqueLocal("victim");
        // At one moment: the 60-second cooldown is per exact address, so it refuses none of them.
        for (let index = 1; index <= 5; index += 1) expect((await ask(`${local}+${index}@example.org`, 0, {})).status).toBe(200);
        for (let index = 1; index <= 5; index += 1) expect(await codeMailCount(`${local}+${index}@example.org`)).toBe(1);

        for (const variant of [`${local}+6@example.org`, `${local.toUpperCase()}+x+y@EXAMPLE.ORG`, `${local}+@example.org`]) {
          await expectRefused(await ask(variant, SECOND, {}), 3599);
        }
        expect(await codeMailCount(`${local}+6@example.org`)).toBe(0);
        expect(await mailboxCounts(`${local}@example.org`)).toEqual({ hour: 5, day: 5 });
        // The plain address is the mailbox's own: the ceiling does not hold it back (issue 22).
        expect((await ask(`${local}@example.org`, SECOND, {})).status).toBe(200);
        expect(await codeMailCount(`${local}@example.org`)).toBe(1);
        expect(await addressCounts(`${local}@example.org`)).toEqual({ hour: 1, day: 1 });
        expect(await mailboxCounts(`${local}@example.org`)).toEqual({ hour: 5, day: 5 });
      });

      it("Gmail: dotted variants and googlemail.com are one inbox", async () => {
        const local = uniqueLocal("jane");
        const dotted = (at: number) => `${local.slice(0, at)}.${local.slice(at)}`;
        const variants = [
          `${local}@gmail.com`,
          `${dotted(1)}@gmail.com`,
          `${dotted(2)}+news@googlemail.com`,
          `${dotted(3).replace(/(.)$/, ".$1")}@googlemail.com`,
          `${dotted(4)}@gmail.com`,
        ];
        for (const email of variants) expect((await ask(email, 0, {})).status).toBe(200);
        // The first is the plain address, the mailbox's own: the other four and one more fill the ceiling.
        expect((await ask(`${dotted(5)}+6@gmail.com`, 0, {})).status).toBe(200);
        await expectRefused(await ask(`${dotted(6)}+7@gmail.com`, SECOND, {}), 3599);
        await expectRefused(await ask(`${local.toUpperCase()}@GoogleMail.com`, SECOND, {}), 3599);
        expect(await mailboxCounts(`${local}@gmail.com`)).toEqual({ hour: 5, day: 5 });
      });

      it("different mailboxes keep their own caps", async () => {
        const local = uniqueLocal("owner");
        for (let index = 1; index <= 5; index += 1) expect((await ask(`${local}+${index}@example.org`, 0, {})).status).toBe(200);
        await expectRefused(await ask(`${local}+6@example.org`, SECOND, {}), 3599);

        const others = [
          `${local}@example.net`, // another domain
          `${local}x@example.org`, // another local part
          `${local.slice(0, 3)}.${local.slice(3)}@example.org`, // dots count outside Gmail
          `${local}@gmail.com`, // Gmail is another provider
          `${local}-1@example.org`, // only "+" is sub-addressing
        ];
        // Each is another mailbox: a variant of it is not held back by this one's full ceiling.
        const variantOf = (email: string) => email.replace("@", "+6@");
        for (const email of others) expect((await ask(variantOf(email), SECOND, {})).status, email).toBe(200);
        for (const email of others) expect(await mailboxCounts(email), email).toEqual({ hour: 1, day: 1 });
      });

      it("the counters hold a keyed hash of the mailbox, never an address", async () => {
        const local = uniqueLocal("private");
        const email = `${local}+tag@example.org`;
        vi.setSystemTime(start);
        expect((await authCall("POST", "/otp", { email })).status).toBe(200);
        const keys = await env.DB.prepare("select key from hwh_rate_limits where key like 'code-mail-%' and window_start >= ?")
          .bind(start / SECOND)
          .all<{ key: string }>();
        expect(keys.results.length).toBeGreaterThanOrEqual(2);
        const leaking = await env.DB.prepare("select count(*) as n from hwh_rate_limits where key like ? or key like ?")
          .bind(`%${local}%`, "%example.org%")
          .first<{ n: number }>();
        expect(leaking!.n).toBe(0);
        expect(await mailboxCounts(email)).toEqual({ hour: 1, day: 1 });
      });
    });

    describe("canonicalMailbox", () => {
      it.each([
        ["victim@example.org", "victim@example.org"],
        ["Victim+News@Example.ORG", "victim@example.org"],
        ["victim+a+b@example.org", "victim@example.org"],
        ["v.i.c.t.i.m@example.org", "v.i.c.t.i.m@example.org"],
        ["j.a.n.e+x@gmail.com", "jane@gmail.com"],
        ["J.ane@GoogleMail.com", "jane@gmail.com"],
        ["jane@mail.gmail.com", "jane@mail.gmail.com"],
      ])("%s reaches %s", (address, mailbox) => {
        expect(canonicalMailbox(address)).toBe(mailbox);
      });
    });
  });

  describe("requests that e-mail nothing never count against a mailbox", () => {
    // Nobody can lock a person out of sign-in with requests that e-mail nothing (create_user: false for addresses without a user).

    type Ask = { createUser?: boolean; ip?: string };

    /** Asks for a code for `email` at `start + ms`; everything a client sees of the answer. */
    async function ask(email: string, ms: number, { createUser = false, ip }: Ask = {}) {
      vi.setSystemTime(start + ms);
      const response = await authCall("POST", "/otp", { email, create_user: createUser }, { ip, overrides: SHORT_COOLDOWN });
      return { status: response.status, body: await response.text(), headers: [...response.headers.entries()].sort() };
    }

    it("20 requests for unknown +tag variants of a person's address do not stop their own code", async () => {
      const local = uniqueLocal("student");
      const person = `${local}@example.org`;
      vi.setSystemTime(start);
      await signIn(person);
      expect(await addressCounts(person)).toEqual({ hour: 1, day: 1 });

      // One attacker, one client: 20 variants of the person's mailbox, none with a user.
      const attacker = uniqueIp();
      for (let index = 1; index <= 20; index += 1) {
        expect((await ask(`${local}+x${index}@example.org`, index * SECOND, { ip: attacker })).status).toBe(200);
      }
      for (let index = 1; index <= 20; index += 1) expect(await codeMailCount(`${local}+x${index}@example.org`)).toBe(0);
      expect(await addressCounts(person)).toEqual({ hour: 1, day: 1 });
      expect(await mailboxCounts(person)).toEqual({ hour: 0, day: 0 });

      // The person (who has a user) still gets a code, and it signs them in.
      expect((await ask(person, 30 * SECOND)).status).toBe(200);
      await vi.waitFor(async () => expect(await codeMailCount(person)).toBe(2));
      vi.setSystemTime(start + 31 * SECOND);
      expect((await verify(person, await latestCode(person))).status).toBe(200);
      // So does a new sign-up at a variant of the same mailbox.
      expect((await ask(`${local}+new@example.org`, 32 * SECOND, { createUser: true })).status).toBe(200);
      expect(await addressCounts(person)).toEqual({ hour: 2, day: 2 });
      expect(await mailboxCounts(person)).toEqual({ hour: 1, day: 1 });
    });

    it("requests for an address without a user do not stop its sign-up (create_user true)", async () => {
      const email = `${uniqueLocal("newcomer")}@example.org`;
      for (let index = 0; index < 8; index += 1) await ask(email, index * 2 * SECOND);
      expect(await unsentCounts(email)).toEqual({ hour: 5, day: 5 });
      expect(await addressCounts(email)).toEqual({ hour: 0, day: 0 });

      expect((await ask(email, 20 * SECOND, { createUser: true })).status).toBe(200);
      expect(await codeMailCount(email)).toBe(1);
      expect(await addressCounts(email)).toEqual({ hour: 1, day: 1 });
    });

    it("a flood for one address without a user is refused where the same flood for a user's address is, with the same answers", async () => {
      const known = `${uniqueLocal("known")}@example.org`;
      const unknown = `${uniqueLocal("unknown")}@example.org`;
      vi.setSystemTime(start);
      await signIn(known);
      // The same history for the other address: one code e-mailed this hour (create_user true, not verified).
      expect((await ask(unknown, 0, { createUser: true })).status).toBe(200);

      const flood = async (email: string) => {
        const client = uniqueIp();
        const answers = [];
        for (let index = 0; index < 6; index += 1) answers.push(await ask(email, 10 * SECOND + index * 2 * SECOND, { ip: client }));
        return answers;
      };
      const forKnown = await flood(known);
      const forUnknown = await flood(unknown);
      expect(forUnknown).toEqual(forKnown);
      // The code e-mailed earlier this hour counts for both: the 5th request is over the hour's cap.
      expect(forKnown.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429, 429]);
      expect(JSON.parse(forKnown[4]!.body)).toMatchObject({ code: "over_email_send_rate_limit" });
      expect(forKnown[4]!.headers).toContainEqual(["retry-after", String(3600 - 18)]);
      // Refused requests took their counts back; nothing was e-mailed to the address without a user.
      expect(await unsentCounts(unknown)).toEqual({ hour: 4, day: 4 });
      expect(await codeMailCount(unknown)).toBe(1);
    });

    it("the counters of requests that sent nothing hold a keyed hash, never an address", async () => {
      const local = uniqueLocal("hidden");
      expect((await ask(`${local}@example.org`, 0)).status).toBe(200);
      const keys = await env.DB.prepare("select key from hwh_rate_limits where key like 'code-unsent-%' and window_start >= ?")
        .bind(start / SECOND)
        .all<{ key: string }>();
      expect(keys.results.length).toBeGreaterThanOrEqual(2);
      const leaking = await env.DB.prepare("select count(*) as n from hwh_rate_limits where key like ?")
        .bind(`%${local}%`)
        .first<{ n: number }>();
      expect(leaking!.n).toBe(0);
    });

    it("an address without a user over its counters is answered as the caps answer", async () => {
      const email = `${uniqueLocal("over")}@example.org`;
      for (let index = 0; index < 5; index += 1) expect((await ask(email, index * 2 * SECOND)).status).toBe(200);
      vi.setSystemTime(start + 10 * SECOND);
      const response = await authCall("POST", "/otp", { email, create_user: false }, { overrides: SHORT_COOLDOWN });
      const body = await expectAuthError(response, 429, "over_email_send_rate_limit");
      expect(body.message).toContain("3590 seconds");
    });
  });
});
