import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { subjectHash } from "../../worker/features/operator/audit";
import { ME_ROUTES } from "../../worker/shared/me";
import { JWT_SECRET, signIn } from "../support/auth";
import { limitedTo, publicCounterRows, roomInWindow, rowCounts, secondsLeftInWindow } from "../support/rate-limits";
import { call, type EnvOverrides, testRepository, uniqueClientIp, uniqueEmail } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

/**
 * Issue 22: /api/me had no limit. Twenty leave-and-rejoin rounds sent 20 welcome e-mails in
 * 0.9 s, and 200 data downloads wrote 200 audit rows. Its writes and the data download now
 * count per signed-in user (ME_USER_LIMITER, 20 a minute) and per client network
 * (ME_CLIENT_LIMITER, 150 a minute), on the rate-limit bindings since issue 24 (no database
 * counter), answering the API's 429 with the real wait; a welcome counts against the mailbox's
 * daily cap on joiner e-mails like a confirmation. The bindings count real minutes: no fake clock.
 */

type ErrorBody = { error: { code: string; message: string; retry_after?: number } };

function me(method: string, path: string, token: string, options: { body?: unknown; ip?: string; overrides?: EnvOverrides } = {}) {
  const headers = new Headers({ Authorization: `Bearer ${token}` });
  if (options.ip) headers.set("CF-Connecting-IP", options.ip);
  if (options.body !== undefined) headers.set("Content-Type", "application/json");
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return call(path, { method, headers, body }, options.overrides);
}

async function signedIn(tag: string) {
  const email = uniqueEmail(tag);
  return { email, token: (await signIn(email)).access_token };
}

async function expectLimited(response: Response, secondsLeft: number) {
  const body = (await response.json()) as ErrorBody;
  expect(response.status).toBe(429);
  expect(body.error.code).toBe("rate_limited");
  expect(body.error.message).toMatch(/^Too many attempts\. Please try again in /);
  // The real wait: the rest of the current minute.
  expect(Math.abs(body.error.retry_after! - secondsLeft)).toBeLessThanOrEqual(1);
  expect(response.headers.get("Retry-After")).toBe(String(body.error.retry_after));
}

describe("/api/me's limits (issue 22)", () => {
  it("200 data downloads by one user write at most ME_USER_LIMITER's 20 audit rows; the rest answer 429 with the real wait", {
    timeout: 60_000,
  }, async () => {
    const { email, token } = await signedIn("downloads");
    await roomInWindow(20);
    const statuses: number[] = [];
    for (let n = 0; n < 200; n++) {
      const response = await me("GET", ME_ROUTES.data, token);
      statuses.push(response.status);
      if (response.status === 429 && statuses.filter((status) => status === 429).length === 1)
        await expectLimited(response, secondsLeftInWindow());
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.slice(20).every((status) => status === 429)).toBe(true);
    const hash = await subjectHash(JWT_SECRET, email);
    const audit = (await testRepository().operator.auditTrail(500)).filter((row) => row.subjectHash === hash);
    expect(audit).toHaveLength(20);
    // A refused request writes nothing to the database (no counter either).
    const before = await rowCounts();
    expect((await me("GET", ME_ROUTES.data, token)).status).toBe(429);
    expect(await rowCounts()).toEqual(before);
    // Reading the place is not a write: never limited.
    for (let n = 0; n < 25; n++) expect((await me("GET", ME_ROUTES.me, token)).status).toBe(200);
    expect(await publicCounterRows()).toBe(0);
  });

  it("twenty leave-and-rejoin rounds are stopped by the limit, and send at most WAITLIST_CONFIRM_DAILY_LIMIT (3) welcomes", {
    timeout: 60_000,
  }, async () => {
    const { email, token } = await signedIn("rounds");
    await roomInWindow(20);
    const statuses: number[] = [];
    for (let round = 0; round < 20; round++) {
      statuses.push(
        (await me("DELETE", ME_ROUTES.waitlist, token)).status,
        (await me("POST", ME_ROUTES.waitlist, token, { body: ADULT_ANSWER })).status,
      );
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    const welcomes = (await testRepository().devMail.list(500)).filter(
      (mail) => mail.receivers.includes(email) && /^You're #\d+ in line/.test(mail.title),
    );
    expect(welcomes).toHaveLength(3);
  });

  it("counts every user of one client network against ME_CLIENT_LIMITER (a limit of 3 here)", { timeout: 60_000 }, async () => {
    const overrides = { ME_CLIENT_LIMITER: limitedTo(env.ME_CLIENT_LIMITER, 3) };
    const ip = uniqueClientIp();
    const people = await Promise.all([1, 2, 3, 4].map((n) => signedIn(`network-${n}`)));
    await roomInWindow();
    const statuses = [];
    for (const { token } of people) {
      statuses.push((await me("POST", ME_ROUTES.subscription, token, { body: { subscribed: false }, ip, overrides })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another network is not held back by this one's count.
    expect((await me("POST", ME_ROUTES.subscription, people[3]!.token, { body: { subscribed: false }, overrides })).status).toBe(200);
    // The refused request changed nothing: the fourth was unsubscribed only by its second try.
    const events = await env.DB.prepare("select count(*) as n from hwh_subscription_events").first<{ n: number }>();
    expect(events!.n).toBe(4);
  });

  it("a binding that fails lets My place's writes through (flood control; nothing counted in the database)", async () => {
    const { token } = await signedIn("unlimited");
    const failing = { limit: async () => Promise.reject(new Error("rate limiter unavailable (simulated)")) } as unknown as RateLimit;
    const overrides = { ME_USER_LIMITER: failing, ME_CLIENT_LIMITER: failing };
    const response = await me("POST", ME_ROUTES.subscription, token, { body: { subscribed: false }, overrides });
    expect(response.status).toBe(200);
  });
});
