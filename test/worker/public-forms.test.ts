import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { clientKey } from "../../worker/platform/http/client";
import { isBot, retryAfterSeconds, tooManyAttempts } from "../../worker/shared/public-forms";
import { secondsToWindowEnd } from "../../worker/platform/limits";
import {
  failingBinding,
  freshNetwork,
  limitedTo,
  publicCounterRows,
  roomInWindow,
  rowCounts,
  secondsLeftInWindow,
  windowNumber,
} from "../support/rate-limits";
import { call, countRows, testRepository, uniqueClientIp, uniqueEmail } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

/**
 * Issue 8 §1: the public forms cannot be used to flood the company. Per-client limits (the
 * client is CF-Connecting-IP only, IPv6 per /64; on the rate-limit bindings since issue 24), the
 * honeypot, and Turnstile when configured.
 */

const repo = testRepository();

function post(path: string, body: Record<string, unknown>, headers: Record<string, string>, overrides: Record<string, unknown> = {}) {
  return call(path, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) }, overrides);
}

const contact = (tag: string) => ({ name: "Ada", email: uniqueEmail(tag), message: "Hello" });
const mailsTo = async (text: string) => (await repo.devMail.list(500)).filter((mail) => mail.bodyHtml.includes(text)).length;

const join = (tag: string) => ({ ...ADULT_ANSWER, email: uniqueEmail(tag) });

const YEAR = new Date().getUTCFullYear();
/** A birth date `age` years ago, safely (as test/worker/age-join.test.ts: January counts the younger way). */
const aged = (age: number) => ({ birth_month: 1, birth_year: YEAR - age - (new Date().getUTCMonth() === 0 ? 1 : 0) });

/** `count` posts from one address, `concurrency` at a time (a flood is quick; the window is a real minute). */
async function burst(path: string, count: number, body: () => Record<string, unknown>, ip: string, concurrency = 10): Promise<Response[]> {
  const responses: Response[] = [];
  for (let sent = 0; sent < count; sent += concurrency) {
    const size = Math.min(concurrency, count - sent);
    responses.push(...(await Promise.all(Array.from({ length: size }, () => post(path, body(), { "CF-Connecting-IP": ip })))));
  }
  return responses;
}

/**
 * Issue 24 §1: the per-client flood limits are Cloudflare's rate-limit bindings (wrangler.toml:
 * WAITLIST_LIMITER 60 a minute, FORMS_LIMITER 5 a minute per form), so they cost the database
 * nothing. Their simulation counts real minutes aligned to the clock: these tests never fake Date.
 */
describe("per-client limits", () => {
  it("a class of 40 behind one school address joins together, every one 201 (the binding allows 60 a minute)", {
    timeout: 60_000,
  }, async () => {
    await roomInWindow();
    const ip = freshNetwork();
    // All 40 in one minute: the worst case of a class joining within ten minutes.
    const statuses = (await burst("/api/waitlist", 40, () => join("class"), ip, 5)).map((response) => response.status);
    expect(statuses).toEqual(Array.from({ length: 40 }, () => 201));
  });

  it("a flood of 150 quick joins from one address is cut: 429s, at most 60 stored a minute, the real wait; another client is not affected", {
    timeout: 60_000,
  }, async () => {
    await roomInWindow();
    const ip = freshNetwork();
    const tag = `flood${Date.now()}`;
    const before = await countRows("hwh_waitlist");
    const firstWindow = windowNumber();
    const responses = await burst("/api/waitlist", 150, () => join(tag), ip);
    const windows = windowNumber() - firstWindow + 1;
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => status === 201 || status === 429)).toBe(true);
    const created = statuses.filter((status) => status === 201).length;
    // One window (roomInWindow makes that all but certain); a slow machine may cross into a second.
    expect(created).toBeLessThanOrEqual(60 * windows);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(150 - 60 * windows);
    expect((await countRows("hwh_waitlist")) - before).toBe(created);
    expect(await mailsTo(tag)).toBe(created);
    // Another client is not affected.
    expect((await post("/api/waitlist", join(tag), { "CF-Connecting-IP": uniqueClientIp() })).status).toBe(201);
  });

  it("a class of 40 twelve-year-olds in the US behind one address: each child's two steps (400 parent_needed, then 202), no 429", {
    timeout: 60_000,
  }, async () => {
    await roomInWindow();
    const ip = freshNetwork();
    const tag = `kids${Date.now()}`;
    const child = async (n: number) => {
      const headers = { "CF-Connecting-IP": ip, "CF-IPCountry": "US" };
      const first = await post("/api/waitlist", { ...aged(12), email: uniqueEmail(`${tag}-child${n}`) }, headers);
      const cookie = /^(hwh_age=[^;]+);/.exec(first.headers.get("Set-Cookie") ?? "")?.[1] ?? "";
      const second = await post("/api/waitlist", { parent_email: uniqueEmail(`${tag}-parent${n}`) }, { ...headers, Cookie: cookie });
      return [first.status, ((await first.json()) as { error?: { code?: string } }).error?.code, second.status];
    };
    const firstWindow = windowNumber();
    const answers = [];
    // All 40 in one minute (80 requests: more than the 60 a minute), 5 children at a time.
    for (let n = 0; n < 40; n += 5) answers.push(...(await Promise.all(Array.from({ length: 5 }, (_, k) => child(n + k)))));
    expect(windowNumber()).toBe(firstWindow);
    expect(answers).toEqual(Array.from({ length: 40 }, () => [400, "parent_needed", 202]));
    const asked = await env.DB.prepare("select count(*) as n from hwh_parental_requests where parent_email like ?")
      .bind(`${tag}-parent%`)
      .first<{ n: number }>();
    expect(asked!.n).toBe(40);
  });

  it("only a request that would store counts: 100 invalid posts (and bots) spend none of the allowance; the next valid join is 201", {
    timeout: 60_000,
  }, async () => {
    await roomInWindow();
    const ip = freshNetwork();
    const invalid = [
      { ...ADULT_ANSWER, email: "not-an-address" },
      { ...ADULT_ANSWER, email: "someone@mailinator.com" },
      { email: uniqueEmail("unanswered") },
      { ...ADULT_ANSWER },
      { ...aged(12), email: uniqueEmail("child") },
      { ...aged(12), email: uniqueEmail("child"), parent_email: "not-an-address" },
      { ...aged(12), email: uniqueEmail("child"), parent_email: "parent@mailinator.com" },
      { ...ADULT_ANSWER, email: uniqueEmail("extra"), unknown_field: "x" },
      { ...ADULT_ANSWER, birth_month: 13, email: uniqueEmail("month") },
      { ...join("bot"), website: "https://spam.example" },
    ];
    const before = await rowCounts();
    const responses = await burst("/api/waitlist", 100, () => invalid[Math.floor(Math.random() * invalid.length)]!, ip);
    const statuses = new Set(responses.map((response) => response.status));
    // 400s, and the bot's quiet 201; never a 429.
    expect([...statuses].every((status) => status === 400 || status === 201)).toBe(true);
    expect(await rowCounts()).toEqual(before);
    expect((await post("/api/waitlist", join("after-invalid"), { "CF-Connecting-IP": ip })).status).toBe(201);

    // The same with an allowance of 1: the invalid posts leave it whole, the first join spends it.
    const other = freshNetwork();
    const one = { WAITLIST_LIMITER: limitedTo(env.WAITLIST_LIMITER, 1) };
    for (const body of invalid) await post("/api/waitlist", body, { "CF-Connecting-IP": other, "CF-IPCountry": "US" }, one);
    expect((await post("/api/waitlist", join("after-invalid"), { "CF-Connecting-IP": other }, one)).status).toBe(201);
    expect((await post("/api/waitlist", join("after-invalid"), { "CF-Connecting-IP": other }, one)).status).toBe(429);
  });

  it("a child's parent step over the allowance: the same 429 (the real wait), no parental request stored, the first step still 400", {
    timeout: 60_000,
  }, async () => {
    await roomInWindow();
    const ip = freshNetwork();
    const one = { WAITLIST_LIMITER: limitedTo(env.WAITLIST_LIMITER, 1) };
    const headers = { "CF-Connecting-IP": ip, "CF-IPCountry": "US" };
    expect((await post("/api/waitlist", join("spent"), headers, one)).status).toBe(201);
    const first = await post("/api/waitlist", { ...aged(12), email: uniqueEmail("late-child") }, headers, one);
    expect(first.status).toBe(400);
    expect(await first.json()).toMatchObject({ error: { code: "parent_needed" } });
    const before = await rowCounts();
    const parent = uniqueEmail("late-parent");
    const leftBefore = secondsLeftInWindow();
    const refused = await post("/api/waitlist", { ...aged(12), email: uniqueEmail("late-child"), parent_email: parent }, headers, one);
    const leftAfter = secondsLeftInWindow();
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("Retry-After"));
    expect(wait).toBeGreaterThanOrEqual(leftAfter - 1);
    expect(wait).toBeLessThanOrEqual(leftBefore + 1);
    expect(await refused.json()).toEqual({ error: { code: "rate_limited", message: tooManyAttempts(wait), retry_after: wait } });
    expect(await rowCounts()).toEqual(before);
  });

  it("a 429 says the real wait: Retry-After is the seconds left in the current minute, in the site's words", {
    timeout: 60_000,
  }, async () => {
    await roomInWindow();
    const ip = freshNetwork();
    const settings = { WAITLIST_LIMITER: limitedTo(env.WAITLIST_LIMITER, 1) };
    expect((await post("/api/waitlist", join("wait"), { "CF-Connecting-IP": ip }, settings)).status).toBe(201);
    const leftBefore = secondsLeftInWindow();
    const refused = await post("/api/waitlist", join("wait"), { "CF-Connecting-IP": ip }, settings);
    const leftAfter = secondsLeftInWindow();
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("Retry-After"));
    expect(wait).toBeGreaterThanOrEqual(leftAfter - 1);
    expect(wait).toBeLessThanOrEqual(leftBefore + 1);
    expect(await refused.json()).toEqual({ error: { code: "rate_limited", message: tooManyAttempts(wait), retry_after: wait } });
  });

  it("the wait is the seconds to the window's end, at least 1, on the worker's clock", () => {
    expect(secondsToWindowEnd(new Date(Date.UTC(2026, 11, 4, 23, 0, 0)), 60)).toBe(60);
    expect(secondsToWindowEnd(new Date(Date.UTC(2026, 11, 4, 23, 0, 41, 500)), 60)).toBe(19);
    expect(secondsToWindowEnd(new Date(Date.UTC(2026, 11, 4, 23, 0, 59, 999)), 60)).toBe(1);
    expect(secondsToWindowEnd(new Date(Date.UTC(2026, 11, 4, 23, 0, 7)), 10)).toBe(3);
  });

  it("refused, invalid, bot and unverified requests write nothing to the database (no counter either)", { timeout: 60_000 }, async () => {
    await roomInWindow();
    const ip = freshNetwork();
    const settings = { WAITLIST_LIMITER: limitedTo(env.WAITLIST_LIMITER, 1), FORMS_LIMITER: limitedTo(env.FORMS_LIMITER, 1) };
    expect((await post("/api/waitlist", join("nothing"), { "CF-Connecting-IP": ip }, settings)).status).toBe(201);
    expect((await post("/api/forms/contact", contact("nothing"), { "CF-Connecting-IP": ip }, settings)).status).toBe(201);
    const before = await rowCounts();
    expect(before.hwh_rate_limits).toBeDefined();
    // Over the allowance.
    expect((await post("/api/waitlist", join("nothing"), { "CF-Connecting-IP": ip }, settings)).status).toBe(429);
    expect((await post("/api/forms/contact", contact("nothing"), { "CF-Connecting-IP": ip }, settings)).status).toBe(429);
    // Not valid, from clients with allowance left.
    expect((await post("/api/waitlist", { ...ADULT_ANSWER, email: "not-an-address" }, {})).status).toBe(400);
    expect((await post("/api/forms/contact", { name: "", email: uniqueEmail(), message: "x" }, {})).status).toBe(400);
    // A bot (the honeypot), answered as a success.
    expect((await post("/api/waitlist", { ...join("nothing"), website: "https://spam.example" }, {})).status).toBe(201);
    // Turnstile's refusal.
    vi.spyOn(globalThis, "fetch").mockImplementation(async () =>
      Response.json({ success: false, "error-codes": ["invalid-input-response"] }),
    );
    const turnstile = {
      TURNSTILE_SITE_KEY: "1x00000000000000000000AA",
      TURNSTILE_SECRET_KEY: "test-turnstile-secret",
      TURNSTILE_VERIFY_URL: "https://turnstile.test/siteverify",
    };
    expect((await post("/api/waitlist", { ...join("nothing"), "cf-turnstile-response": "forged" }, {}, turnstile)).status).toBe(403);
    expect(await rowCounts()).toEqual(before);
    expect(await publicCounterRows()).toBe(0);
  });

  it("a binding that fails lets the request through, logged rate_limit.unavailable (flood control; the database is not involved)", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const email = uniqueEmail("nolimiter");
    const res = await post("/api/waitlist", { ...ADULT_ANSWER, email }, {}, { WAITLIST_LIMITER: failingBinding });
    expect(res.status).toBe(201);
    expect(await repo.findWaitlistEntry(email)).toBeDefined();
    const logged = errors.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
    expect(logged).toContainEqual(expect.objectContaining({ event: "rate_limit.unavailable", limiter: "WAITLIST_LIMITER" }));
    // So does a deploy without the binding (health names it: test/worker/health.test.ts).
    expect((await post("/api/forms/contact", contact("nolimiter"), {}, { FORMS_LIMITER: undefined })).status).toBe(201);
    expect(await publicCounterRows()).toBe(0);
  });

  it("the wait in words: seconds under a minute, else the nearest whole minutes (559 s is 9); no usable wait, the general words", () => {
    expect(tooManyAttempts(559)).toBe("Too many attempts. Please try again in 9 minutes.");
    expect(tooManyAttempts(540)).toBe("Too many attempts. Please try again in 9 minutes.");
    expect(tooManyAttempts(61)).toBe("Too many attempts. Please try again in 1 minute.");
    expect(tooManyAttempts(570)).toBe("Too many attempts. Please try again in 10 minutes.");
    expect(tooManyAttempts(89 * 60)).toBe("Too many attempts. Please try again in 89 minutes.");
    expect(tooManyAttempts(90 * 60)).toBe("Too many attempts. Please try again in 2 hours.");
    expect(tooManyAttempts(80_507)).toBe("Too many attempts. Please try again in 22 hours.");
    expect(tooManyAttempts(60)).toBe("Too many attempts. Please try again in 1 minute.");
    expect(tooManyAttempts(59)).toBe("Too many attempts. Please try again in 59 seconds.");
    expect(tooManyAttempts(40)).toBe("Too many attempts. Please try again in 40 seconds.");
    expect(tooManyAttempts(1)).toBe("Too many attempts. Please try again in 1 second.");
    for (const none of [null, undefined, 0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(tooManyAttempts(none)).toBe("Too many attempts. Please wait a minute and try again.");
    }
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = new Date("2025-10-26T10:00:00Z");
    expect(retryAfterSeconds("559", now)).toBe(559);
    expect(retryAfterSeconds(" 40 ", now)).toBe(40);
    expect(retryAfterSeconds("Sun, 26 Oct 2025 10:09:00 GMT", now)).toBe(540);
    expect(retryAfterSeconds("Sun, 26 Oct 2025 09:00:00 GMT", now)).toBe(0);
    for (const none of [null, "", "soon", "-3", "1.5"]) expect(retryAfterSeconds(none, now)).toBeNull();
  });

  it("the contact form takes 5 per client a minute, and a new window starts over", { timeout: 60_000 }, async () => {
    await roomInWindow();
    const ip = freshNetwork();
    const statuses = (await burst("/api/forms/contact", 7, () => contact("contactburst"), ip, 1)).map((response) => response.status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    // A new window (a 10 s one here, to wait less) starts over.
    const tenSeconds = { FORMS_LIMITER: limitedTo(env.FORMS_LIMITER, 1, 10) };
    await roomInWindow(5, 10);
    const other = freshNetwork();
    expect((await post("/api/forms/contact", contact("contactburst"), { "CF-Connecting-IP": other }, tenSeconds)).status).toBe(201);
    expect((await post("/api/forms/contact", contact("contactburst"), { "CF-Connecting-IP": other }, tenSeconds)).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, secondsLeftInWindow(10) * 1000 + 50));
    expect((await post("/api/forms/contact", contact("contactburst"), { "CF-Connecting-IP": other }, tenSeconds)).status).toBe(201);
  });

  it("40 concurrent posts from one client store exactly the allowance (5 contact posts, and a waitlist limit of 10 here)", {
    timeout: 60_000,
  }, async () => {
    await roomInWindow();
    const ip = freshNetwork();
    const tag = `concurrent${Date.now()}`;
    const settings = { WAITLIST_LIMITER: limitedTo(env.WAITLIST_LIMITER, 10) };
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => post("/api/forms/contact", contact(tag), { "CF-Connecting-IP": ip })).concat(
        Array.from({ length: 20 }, () => post("/api/waitlist", join(tag), { "CF-Connecting-IP": ip }, settings)),
      ),
    );
    const created = responses.filter((response) => response.status === 201).length;
    expect(created).toBe(5 + 10);
    expect(responses.filter((response) => response.status === 429)).toHaveLength(25);
    expect(await mailsTo(tag)).toBe(15);
  });

  it("each form counts on its own: the waitlist's allowance is not the contact form's", { timeout: 60_000 }, async () => {
    await roomInWindow();
    const ip = freshNetwork();
    const statuses = (await burst("/api/forms/contact", 6, () => contact("ownform"), ip, 1)).map((response) => response.status);
    expect(statuses.at(-1)).toBe(429);
    expect((await post("/api/waitlist", join("ownform"), { "CF-Connecting-IP": ip })).status).toBe(201);
  });

  it("X-Forwarded-For, X-Real-IP, True-Client-IP and Forwarded never give a client a new allowance", { timeout: 60_000 }, async () => {
    await roomInWindow();
    const ip = freshNetwork();
    const statuses = [];
    for (let n = 0; n < 8; n += 1) {
      const spoof = `192.0.2.${n + 1}`;
      const headers = {
        "CF-Connecting-IP": ip,
        "X-Forwarded-For": spoof,
        "X-Real-IP": spoof,
        "True-Client-IP": spoof,
        Forwarded: `for=${spoof}`,
      };
      statuses.push((await post("/api/forms/contact", contact("spoof"), headers)).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
  });

  it("IPv6 clients count per /64: 7 addresses of one /64 share 5 contact posts", { timeout: 60_000 }, async () => {
    await roomInWindow();
    const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
    const statuses = [];
    for (let n = 1; n <= 7; n += 1) {
      statuses.push((await post("/api/forms/contact", contact("v6"), { "CF-Connecting-IP": `${prefix}:${n}::${n}` })).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    // The next /64 is another client.
    expect(
      (await post("/api/forms/contact", contact("v6"), { "CF-Connecting-IP": `${prefix.replace(/:[0-9a-f]+$/, ":ffff")}::1` })).status,
    ).toBe(201);
  });

  it("keys clients as Cloudflare reports them: IPv4 as is, IPv6 by /64 in every spelling", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:0DB8:0001:0002::abcd")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("::ffff:198.51.100.4")).toBe("198.51.100.4");
    expect(clientKey("2001:db8:1:2::5%eth0")).toBe("2001:db8:1:2::/64");
    expect(clientKey(null)).toBe("unknown");
  });
});

describe("honeypot", () => {
  it.each([
    ["the waitlist", "/api/waitlist", () => ({ ...ADULT_ANSWER, email: uniqueEmail("bot") })],
    ["the contact form", "/api/forms/contact", () => contact("bot")],
  ])("%s: a filled honeypot gets the normal success answer; nothing is stored or sent", async (_name, path, body) => {
    const payload = body();
    const before = [await countRows("hwh_waitlist"), await countRows("hwh_form_submissions"), await countRows("hwh_dev_mailbox")];
    const res = await post(path, { ...payload, website: "https://spam.example" }, {});
    expect(res.status).toBe(201);
    const answer = await res.json<Record<string, unknown>>();
    const human = await post(path, body(), {});
    // The same shape as a real success: a bot cannot tell it was caught.
    expect(Object.keys(answer).sort()).toEqual(Object.keys(await human.json<Record<string, unknown>>()).sort());
    expect([await countRows("hwh_waitlist"), await countRows("hwh_form_submissions"), await countRows("hwh_dev_mailbox")]).toEqual([
      before[0]! + (path === "/api/waitlist" ? 1 : 0),
      before[1]! + (path === "/api/waitlist" ? 0 : 1),
      // The human's notification, and for a join its confirmation e-mail (issue 16); none for the bot.
      before[2]! + (path === "/api/waitlist" ? 2 : 1),
    ]);
    expect(await mailsTo(payload.email)).toBe(0);
  });

  it("an empty honeypot is a person", async () => {
    expect((await post("/api/waitlist", { ...ADULT_ANSWER, email: uniqueEmail(), website: "" }, {})).status).toBe(201);
  });

  // Some autofill and password managers type a space into every field: that is still a person.
  it.each([
    ["the waitlist", "/api/waitlist", () => ({ ...ADULT_ANSWER, email: uniqueEmail("spaces") })],
    ["the contact form", "/api/forms/contact", () => contact("spaces")],
  ])("%s: a honeypot of only spaces is a person: stored and notified", async (_name, path, body) => {
    const payload = body();
    const before = [await countRows("hwh_waitlist"), await countRows("hwh_form_submissions")];
    const res = await post(path, { ...payload, website: "   " }, {});
    expect(res.status).toBe(201);
    expect([await countRows("hwh_waitlist"), await countRows("hwh_form_submissions")]).toEqual([
      before[0]! + (path === "/api/waitlist" ? 1 : 0),
      before[1]! + (path === "/api/waitlist" ? 0 : 1),
    ]);
    expect(await mailsTo(payload.email)).toBe(1);
  });

  it("the rule: any text but whitespace is a bot; nothing, an empty field or whitespace is a person", () => {
    expect(isBot({})).toBe(false);
    expect(isBot({ website: "" })).toBe(false);
    expect(isBot({ website: " " })).toBe(false);
    expect(isBot({ website: " \t\n\u00a0 " })).toBe(false);
    expect(isBot({ website: "x" })).toBe(true);
    expect(isBot({ website: "  https://spam.example  " })).toBe(true);
  });
});

describe("Turnstile (when both keys are set)", () => {
  const TURNSTILE = {
    TURNSTILE_SITE_KEY: "1x00000000000000000000AA",
    TURNSTILE_SECRET_KEY: "test-turnstile-secret",
    TURNSTILE_VERIFY_URL: "https://turnstile.test/siteverify",
  };

  /** A stand-in for siteverify: accepts the token "good", refuses anything else. */
  function fakeSiteverify(mode: "answer" | "down" = "answer") {
    const calls: URLSearchParams[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input as RequestInfo, init);
      if (request.url !== TURNSTILE.TURNSTILE_VERIFY_URL) throw new Error(`unexpected outbound request to ${request.url}`);
      const form = new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer()));
      calls.push(form);
      if (mode === "down") return new Response("bad gateway", { status: 502 });
      return Response.json(
        form.get("response") === "good" ? { success: true } : { success: false, "error-codes": ["invalid-input-response"] },
      );
    });
    return calls;
  }

  it("checks the token with siteverify (secret, token, client address) before storing", async () => {
    const calls = fakeSiteverify();
    const ip = uniqueClientIp();
    const email = uniqueEmail("human");
    const res = await post(
      "/api/waitlist",
      { ...ADULT_ANSWER, email, "cf-turnstile-response": "good" },
      { "CF-Connecting-IP": ip },
      TURNSTILE,
    );
    expect(res.status).toBe(201);
    expect(calls).toHaveLength(1);
    expect(Object.fromEntries(calls[0]!)).toEqual({ secret: "test-turnstile-secret", response: "good", remoteip: ip });
    expect(await repo.findWaitlistEntry(email)).toBeDefined();
  });

  it.each([
    ["a refused token", { "cf-turnstile-response": "forged" }],
    ["no token", {}],
  ])("%s: 403 with a clear message, nothing stored", async (_name, token) => {
    fakeSiteverify();
    const email = uniqueEmail("robot");
    const res = await post("/api/forms/contact", { name: "R", email, message: "x", ...token }, {}, TURNSTILE);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: { code: "verification_failed", message: "We could not verify that you are a person. Please try again." },
    });
    const stored = await env.DB.prepare("select count(*) as n from hwh_form_submissions where form_data like ?")
      .bind(`%${email}%`)
      .first<{ n: number }>();
    expect(stored!.n).toBe(0);
  });

  it("siteverify not answering: 503 saying to try again, nothing stored", async () => {
    fakeSiteverify("down");
    vi.spyOn(console, "error").mockImplementation(() => {});
    const email = uniqueEmail("unverified");
    const res = await post("/api/waitlist", { ...ADULT_ANSWER, email, "cf-turnstile-response": "good" }, {}, TURNSTILE);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: { code: "verification_unavailable" } });
    expect(await repo.findWaitlistEntry(email)).toBeUndefined();
  });

  it("is off without both keys: no outbound call", async () => {
    const calls = fakeSiteverify();
    expect(
      (await post("/api/waitlist", { ...ADULT_ANSWER, email: uniqueEmail() }, {}, { ...TURNSTILE, TURNSTILE_SECRET_KEY: "" })).status,
    ).toBe(201);
    expect(calls).toHaveLength(0);
  });

  it("the page admits Turnstile's origin and carries the site key only when it is enabled", async () => {
    const off = await call("/");
    expect(off.headers.get("Content-Security-Policy")).not.toContain("challenges.cloudflare.com");
    expect(await off.text()).not.toContain("turnstile-site-key");

    const on = await call("/", {}, TURNSTILE);
    const policy = on.headers.get("Content-Security-Policy")!;
    expect(policy).toMatch(/script-src 'self' 'sha256-[^']+' https:\/\/challenges\.cloudflare\.com/);
    expect(policy).toContain("frame-src https://challenges.cloudflare.com");
    expect(await on.text()).toContain('<meta name="turnstile-site-key" content="1x00000000000000000000AA">');
  });
});
