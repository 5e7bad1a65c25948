import { JOURNEY_TEXT } from "../../worker/shared/journey-text";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDeps } from "../../worker/deps";
import { joinOnBehalfOfChild } from "../../worker/features/waitlist";
import { placePage } from "../../worker/features/waitlist/confirm-page";
import { shareBoxOf } from "../../worker/features/waitlist/place";
import { AGE_MESSAGES } from "../../worker/shared/age";
import { type MeAnswer, ME_ROUTES } from "../../worker/shared/me";
import type { MyData } from "../../worker/shared/my-data";
import { FORM_MEDIA_TYPE } from "../../worker/platform/http/body";
import { ADULT_ANSWER } from "../support/age";
import { signIn } from "../support/auth";
import { call, type EnvOverrides, testRepository, uniqueEmail } from "../support/worker";

/**
 * The age question on the joins (issue 23; docs/api.md "The age question"): what each answer
 * stores, refuses and sets, the parent path (the child's address kept nowhere), the lock, the
 * one-click join, minors' referrals, and the entries a parent makes on behalf of a child.
 */

const repo = testRepository();
const OPT_IN_OFF: EnvOverrides = { WAITLIST_DOUBLE_OPT_IN: "false" };
const YEAR = new Date().getUTCFullYear();
/** A birth date `age` years ago, safely (January: the birthday is behind everyone but in January, counted the younger way). */
const aged = (age: number) => ({ birth_month: 1, birth_year: YEAR - age - (new Date().getUTCMonth() === 0 ? 1 : 0) });

function join(body: Record<string, unknown>, headers: Record<string, string> = {}, overrides: EnvOverrides = {}) {
  return call(
    "/api/waitlist",
    { method: "POST", headers: { "Content-Type": "application/json", "CF-IPCountry": "US", ...headers }, body: JSON.stringify(body) },
    overrides,
  );
}

/** The `hwh_age=...` pair of an answer's Set-Cookie, for the next request's Cookie header. */
const cookieOf = (response: Response) => /^(hwh_age=[^;]+);/.exec(response.headers.get("Set-Cookie") ?? "")?.[1] ?? null;

const count = async (table: string) => (await env.DB.prepare(`select count(*) as n from ${table}`).first<{ n: number }>())!.n;

/** Every row of every table of the database, as JSON text per table. */
async function everyTable(): Promise<{ table: string; columns: string[]; rows: Record<string, unknown>[] }[]> {
  const tables = await env.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%'",
  ).all<{ name: string }>();
  return Promise.all(
    tables.results.map(async ({ name }) => {
      const columns = (await env.DB.prepare(`pragma table_info(${name})`).all<{ name: string }>()).results.map((c) => c.name);
      const rows = (await env.DB.prepare(`select * from ${name}`).all<Record<string, unknown>>()).results;
      return { table: name, columns, rows };
    }),
  );
}

let logged: string[] = [];
beforeEach(() => {
  logged = [];
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
  }
});
afterEach(() => vi.restoreAllMocks());

describe("POST /api/waitlist with the age question", () => {
  it("an adult's join is the spec's 201; the entry keeps the band and the country; the answer sets hwh_age for a day", async () => {
    const email = uniqueEmail("adult");
    const response = await join({ ...ADULT_ANSWER, email }, { "CF-IPCountry": "GB" });
    expect(response.status).toBe(201);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ ageBand: "18_plus", country: "GB", onBehalfOfChild: false });
    expect(response.headers.get("Set-Cookie")).toMatch(
      /^hwh_age=18_plus\.0\.\d+\.[\w-]{43}; Max-Age=86400; Path=\/; HttpOnly; SameSite=Lax$/,
    );
  });

  it("a form post without JavaScript answers with the selects' values, and gets the cookie too", async () => {
    const email = uniqueEmail("form-age");
    const response = await call("/api/waitlist", {
      method: "POST",
      headers: { "Content-Type": FORM_MEDIA_TYPE, "Sec-Fetch-Site": "same-origin", "CF-IPCountry": "FR" },
      body: new URLSearchParams({
        email,
        birth_month: String(aged(15).birth_month),
        birth_year: String(aged(15).birth_year),
        website: "",
      }).toString(),
    });
    expect(response.status).toBe(201);
    expect(cookieOf(response)).toMatch(/^hwh_age=13_15\.0\./);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ ageBand: "13_15", country: "FR" });
  });

  it.each([
    [{}, "birth_month", AGE_MESSAGES.birthMissing],
    [{ birth_month: 2 }, "birth_year", AGE_MESSAGES.birthMissing],
    [{ birth_month: 14, birth_year: 1990 }, "birth_month", AGE_MESSAGES.birthImpossible],
    [{ birth_month: 2, birth_year: YEAR + 1 }, "birth_year", AGE_MESSAGES.birthImpossible],
    [{ birth_month: "two", birth_year: 1990 }, "birth_month", AGE_MESSAGES.birthImpossible],
  ])("%j: 400 naming the field, nothing stored, no cookie", async (answer, field, message) => {
    const before = [await count("hwh_waitlist"), await count("hwh_parental_requests")];
    const response = await join({ ...answer, email: uniqueEmail("unanswered"), parent_email: uniqueEmail("parent") });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: "validation_failed", message, field, fields: { [field]: message } } });
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect([await count("hwh_waitlist"), await count("hwh_parental_requests")]).toEqual(before);
  });

  it("a 12-year-old in the US without a parent's address: 400 parent_needed at parent_email, the cookie set, nothing stored", async () => {
    const child = uniqueEmail("child");
    const before = [await count("hwh_waitlist"), await count("hwh_parental_requests")];
    const response = await join({ ...aged(12), email: child });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: "parent_needed",
        message: AGE_MESSAGES.parentNeeded,
        field: "parent_email",
        fields: { parent_email: AGE_MESSAGES.parentNeeded },
      },
    });
    expect(cookieOf(response)).toMatch(/^hwh_age=under_13\.1\./);
    expect([await count("hwh_waitlist"), await count("hwh_parental_requests")]).toEqual(before);
  });

  it("with a parent's address: 202 parent_asked; the request holds the parent's address, the child's is in no table, no e-mail, no log line", async () => {
    const child = uniqueEmail("kept-nowhere");
    const parent = uniqueEmail("parent");
    const response = await join({ ...aged(14), email: child, parent_email: parent }, { "CF-IPCountry": "DE" });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ status: "parent_asked", message: AGE_MESSAGES.parentSentTitle });
    expect(cookieOf(response)).toMatch(/^hwh_age=13_15\.1\./);
    const request = await env.DB.prepare("select * from hwh_parental_requests where parent_email = ?").bind(parent).first();
    expect(request).toMatchObject({ age_band: "13_15", country: "DE" });
    expect(await repo.findWaitlistEntry(child)).toBeFalsy();
    expect(JSON.stringify(await everyTable())).not.toContain(child);
    expect(logged.join("\n")).not.toContain(child);
  });

  it("the parent step of a page without JavaScript may leave the child's address out", async () => {
    const response = await join({ ...aged(10), parent_email: uniqueEmail("parent-step") });
    expect(response.status).toBe(202);
    // Anywhere else the address is still required.
    const adult = await join({ ...ADULT_ANSWER });
    expect(adult.status).toBe(400);
    expect(await adult.json()).toMatchObject({ error: { field: "email" } });
  });

  it.each([
    ["US", 12, "parent"],
    ["DE", 15, "parent"],
    ["FR", 15, "self"],
    ["AT", 13, "parent"],
    ["", 15, "parent"],
  ])("consent ages: %s (empty: unknown), %i years old: %s", async (country, age, who) => {
    const email = uniqueEmail(`consent-${country.toLowerCase() || "unknown"}`);
    const response = await join({ ...aged(age), email }, { "CF-IPCountry": country });
    if (who === "parent") {
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: "parent_needed" } });
      expect(await repo.findWaitlistEntry(email)).toBeFalsy();
    } else {
      expect(response.status).toBe(201);
      expect(await repo.findWaitlistEntry(email)).toMatchObject({ country });
    }
  });

  it("PARENTAL_CONSENT_UNDER=16: a 15-year-old in the US needs a parent", async () => {
    const response = await join({ ...aged(15), email: uniqueEmail("stricter") }, {}, { PARENTAL_CONSENT_UNDER: "16" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "parent_needed" } });
  });

  it("the 24-hour lock: with the child's cookie, an adult's answer changes nothing; a tampered cookie is ignored", async () => {
    const first = await join({ ...aged(11), email: uniqueEmail("lock") });
    const cookie = cookieOf(first)!;
    const retry = await join({ ...ADULT_ANSWER, email: uniqueEmail("lock") }, { Cookie: cookie });
    expect(retry.status).toBe(400);
    expect(await retry.json()).toMatchObject({ error: { code: "parent_needed" } });
    expect(retry.headers.get("Set-Cookie")).toBeNull();
    const tampered = cookie.replace("under_13.1", "18_plus.0");
    const email = uniqueEmail("tampered");
    expect((await join({ ...aged(11), email }, { Cookie: tampered })).status).toBe(400);
    expect((await join({ ...ADULT_ANSWER, email }, { Cookie: tampered })).status).toBe(201);
  });

  it("with an adult's cookie the birth fields may be left out", async () => {
    const cookie = cookieOf(await join({ ...ADULT_ANSWER, email: uniqueEmail("first") }))!;
    const email = uniqueEmail("second");
    expect((await join({ email }, { Cookie: cookie })).status).toBe(201);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ ageBand: "18_plus" });
  });

  it("CF-IPCountry names the country in development (the tests' environment)", async () => {
    const email = uniqueEmail("country");
    await join({ ...ADULT_ANSWER, email }, { "CF-IPCountry": "nl" });
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ country: "NL" });
  });
});

describe("no birth month or year is kept anywhere", () => {
  it("after joins of every kind, no table has a birth column or a row holding the year, and no log line holds it", async () => {
    const answer = { birth_month: 7, birth_year: 1937 };
    expect((await join({ ...answer, email: uniqueEmail("born-1937") })).status).toBe(201);
    const child = { birth_month: 7, birth_year: YEAR - 10 };
    expect((await join({ ...child, email: uniqueEmail("young"), parent_email: uniqueEmail("p") })).status).toBe(202);
    const { access_token } = await signIn(uniqueEmail("me-1937"));
    const me = await call(ME_ROUTES.waitlist, {
      method: "POST",
      headers: { Authorization: `Bearer ${access_token}`, "Content-Type": "application/json" },
      body: JSON.stringify(answer),
    });
    expect(me.status).toBe(200);
    for (const { table, columns, rows } of await everyTable()) {
      expect(
        columns.filter((name) => /birth/i.test(name)),
        table,
      ).toEqual([]);
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          expect([1937, "1937", YEAR - 10, String(YEAR - 10)], `${table}.${column}`).not.toContain(value);
        }
      }
    }
    for (const line of logged) {
      expect(line).not.toMatch(/birth/i);
      expect(line).not.toMatch(/\b1937\b/);
    }
  });
});

describe("POST /api/me/waitlist with the age question", () => {
  const meJoin = (token: string, body?: unknown, headers: Record<string, string> = {}) =>
    call(ME_ROUTES.waitlist, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "CF-IPCountry": "US",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("an adult joins with one click, the band and country kept, the cookie set", async () => {
    const email = uniqueEmail("me-adult");
    const { access_token } = await signIn(email);
    const response = await meJoin(access_token, ADULT_ANSWER);
    expect(response.status).toBe(200);
    expect(cookieOf(response)).toMatch(/^hwh_age=18_plus\.0\./);
    expect(await response.json()).toMatchObject({ status: "confirmed", age_band: "18_plus", on_behalf_of_child: false, referral_boost: 5 });
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ ageBand: "18_plus", country: "US" });
  });

  it("without an answer or a cookie: 400 at birth_month; with the cookie the body may be left out", async () => {
    const email = uniqueEmail("me-cookie");
    const { access_token } = await signIn(email);
    const missing = await meJoin(access_token);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { code: "validation_failed", field: "birth_month" } });
    const cookie = cookieOf(await join({ ...ADULT_ANSWER, email: uniqueEmail("elsewhere") }))!;
    expect((await meJoin(access_token, undefined, { Cookie: cookie })).status).toBe(200);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ ageBand: "18_plus" });
  });

  it("below the consent age: 400 parent_needed, nothing stored", async () => {
    const email = uniqueEmail("me-child");
    const { access_token } = await signIn(email);
    const response = await meJoin(access_token, aged(12));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "parent_needed", field: "parent_email" } });
    expect(await repo.findWaitlistEntry(email)).toBeFalsy();
  });

  it("an entry of before the question ('unknown') takes its owner's answer at a signed-in join, never a stranger's public one", async () => {
    const email = uniqueEmail("before");
    await repo.waitlist.join({ email, source: null }, { now: new Date(), lockMs: 60_000 });
    await env.DB.prepare("update hwh_waitlist set email_sent = 1 where email = ?").bind(email).run();
    expect((await join({ ...aged(30), email }, { "CF-IPCountry": "IE" })).status).toBe(409);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ ageBand: "unknown", country: null });
    const { access_token } = await signIn(email);
    expect((await meJoin(access_token, aged(16), { "CF-IPCountry": "IE" })).status).toBe(200);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ ageBand: "16_17", country: "IE" });
  });

  it("an unknown field is a 400", async () => {
    const { access_token } = await signIn(uniqueEmail("me-extra"));
    const response = await meJoin(access_token, { ...ADULT_ANSWER, parent_email: "p@example.com" });
    expect(response.status).toBe(400);
  });
});

describe("minors' referrals (MINOR_REFERRAL_REWARDS off by default)", () => {
  async function minorAtOnce(overrides: EnvOverrides = {}) {
    const email = uniqueEmail("minor");
    expect((await join({ ...aged(16), email }, {}, { ...OPT_IN_OFF, ...overrides })).status).toBe(201);
    return (await repo.findWaitlistEntry(email))!;
  }

  it("a 16-year-old keeps the link and sharing; GET /api/me says referral_boost 0; a friend's referral counts but does not move them", async () => {
    const minor = await minorAtOnce();
    expect(minor).toMatchObject({ ageBand: "16_17" });
    expect(minor.referralCode).toBeTruthy();
    const { access_token } = await signIn(minor.email);
    const me = (await (await call(ME_ROUTES.me, { headers: { Authorization: `Bearer ${access_token}` } })).json()) as MeAnswer;
    expect(me).toMatchObject({ referral_boost: 0, age_band: "16_17", on_behalf_of_child: false });
    expect(me.referral_link).toContain(`?ref=${minor.referralCode}`);
    expect((await join({ ...ADULT_ANSWER, email: uniqueEmail("friend"), ref: minor.referralCode }, {}, OPT_IN_OFF)).status).toBe(201);
    expect(await repo.findWaitlistEntry(minor.email)).toMatchObject({ referralsConfirmed: 1, rankKey: minor.rankKey });
  });

  it("their welcome and the confirmation page's share box leave out the 'moves you up' sentence", async () => {
    const minor = await minorAtOnce();
    const welcome = (await repo.devMail.list(500)).find((mail) => mail.receivers.includes(minor.email))!;
    expect(welcome.bodyText).toContain(`?ref=${minor.referralCode}`);
    expect(welcome.bodyText).not.toMatch(/moves you up/);
    const page = placePage(await shareBoxOf(createDeps(env), minor.id, "http://localhost"), false);
    expect(page.main).toContain(`?ref=${minor.referralCode}`);
    expect(page.main).not.toMatch(/moves you up/);
    // No reward in the heading either (the reviewer's finding): the neutral words, sharing kept.
    expect(page.main).not.toContain(JOURNEY_TEXT.shareHeading);
    expect(page.main).toContain(JOURNEY_TEXT.shareHeadingNoBoost);
    expect(page.main).toContain(JOURNEY_TEXT.shareRuleNoBoost);
  });

  it("with MINOR_REFERRAL_REWARDS=true their referrals move them up like anyone's", async () => {
    const rewards = { MINOR_REFERRAL_REWARDS: "true" };
    const minor = await minorAtOnce(rewards);
    const { access_token } = await signIn(minor.email);
    const me = (await (await call(ME_ROUTES.me, { headers: { Authorization: `Bearer ${access_token}` } }, rewards)).json()) as MeAnswer;
    expect(me.referral_boost).toBe(5);
    await join({ ...ADULT_ANSWER, email: uniqueEmail("friend"), ref: minor.referralCode }, {}, { ...OPT_IN_OFF, ...rewards });
    expect((await repo.findWaitlistEntry(minor.email))!.rankKey).toBe(minor.rankKey! - 11);
  });
});

describe("an entry a parent makes on behalf of a child (joinOnBehalfOfChild)", () => {
  const consentAt = new Date("2026-12-04T10:00:00.000Z");

  it("joins the parent's address confirmed at once: on behalf, the consent time, the child's band, no referral code, a welcome without a link", async () => {
    const parent = uniqueEmail("agreed");
    const outcome = await joinOnBehalfOfChild(createDeps(env), parent, {
      band: "under_13",
      country: "US",
      consentAt,
      origin: "http://localhost",
    });
    expect(outcome).toBe("joined");
    const entry = (await repo.findWaitlistEntry(parent))!;
    expect(entry).toMatchObject({
      onBehalfOfChild: true,
      parentalConsentAt: consentAt.toISOString(),
      ageBand: "under_13",
      country: "US",
      referralCode: null,
      referredBy: null,
    });
    expect(entry.confirmedAt).not.toBeNull();
    const welcome = (await repo.devMail.list(500)).find((mail) => mail.receivers.includes(parent))!;
    expect(welcome.title).toMatch(/^You're #\d+ in line/);
    expect(welcome.bodyText).not.toMatch(/\?ref=|Your link|moves you up/);
    // Its confirmation page's place has no share box and no link.
    const page = placePage(await shareBoxOf(createDeps(env), entry.id, "http://localhost"), true);
    expect(page.main).not.toMatch(/data-share-box|\?ref=|moves you up/);

    const { access_token } = await signIn(parent);
    const me = (await (await call(ME_ROUTES.me, { headers: { Authorization: `Bearer ${access_token}` } })).json()) as MeAnswer;
    expect(me).toMatchObject({
      status: "confirmed",
      on_behalf_of_child: true,
      age_band: "under_13",
      referral_code: null,
      referral_link: null,
      referral_boost: 0,
    });
    const data = (await (await call(ME_ROUTES.data, { headers: { Authorization: `Bearer ${access_token}` } })).json()) as MyData;
    expect(data["your place on the waitlist"]).toMatchObject({
      "your age group": "under_13",
      "the country you joined from": "US",
      "a parent's or guardian's consent": { "agreed at": consentAt.toISOString(), "agreed by": parent },
    });
  });

  it("an address already on the list keeps its entry as it is: 'already', nothing recorded", async () => {
    const parent = uniqueEmail("already");
    expect((await join({ ...ADULT_ANSWER, email: parent })).status).toBe(201);
    const before = await repo.findWaitlistEntry(parent);
    const outcome = await joinOnBehalfOfChild(createDeps(env), parent, {
      band: "13_15",
      country: "FR",
      consentAt,
      origin: "http://localhost",
    });
    expect(outcome).toBe("already");
    expect(await repo.findWaitlistEntry(parent)).toEqual(before);
  });

  it("an adult's own /api/me/data has no consent record", async () => {
    const email = uniqueEmail("own");
    const { access_token } = await signIn(email);
    await call(ME_ROUTES.waitlist, {
      method: "POST",
      headers: { Authorization: `Bearer ${access_token}`, "Content-Type": "application/json", "CF-IPCountry": "GB" },
      body: JSON.stringify(ADULT_ANSWER),
    });
    const data = (await (await call(ME_ROUTES.data, { headers: { Authorization: `Bearer ${access_token}` } })).json()) as MyData;
    expect(data["your place on the waitlist"]).toMatchObject({
      "your age group": "18_plus",
      "the country you joined from": "GB",
      "a parent's or guardian's consent": null,
    });
  });
});
