import { describe, expect, it } from "vitest";
import { AGE_COOKIE, decideAge, readAgeAnswer, signAgeAnswer, visitorCountry } from "../../worker/features/age";
import { readConfig, type Settings } from "../../worker/platform/config/config";
import { ApiError } from "../../worker/platform/http/errors";
import { AGE_MESSAGES } from "../../worker/shared/age";

/**
 * The age question's decision (worker/features/age, issue 23) at a fixed time: the bands at their
 * boundaries (a birth month counts as the younger reading), the consent age per country, the
 * cookie's 24-hour lock, and where the country comes from.
 */

const SECRET = "test-jwt-secret-0123456789abcdef0123456789abcdef";
// 15 June 2026: someone born in June 2008 is counted 17 (their birthday may be later this month).
const NOW = new Date("2026-06-15T12:00:00.000Z");

function depsWith(settings: Settings = {}) {
  return { config: readConfig({ ENVIRONMENT: "development", AUTH_JWT_SECRET: SECRET, ...settings }), now: () => NOW };
}

/** A request from `country` (the development header), with the cookie `cookie` if given. */
function from(country: string | null, cookie?: string): Request {
  const headers = new Headers();
  if (country) headers.set("CF-IPCountry", country);
  if (cookie) headers.set("Cookie", `${AGE_COOKIE}=${cookie}`);
  return new Request("http://localhost/api/waitlist", { method: "POST", headers });
}

const decide = (month: unknown, year: unknown, country: string | null = "US", settings: Settings = {}, cookie?: string) =>
  decideAge(depsWith(settings), { birthMonth: month, birthYear: year, request: from(country, cookie) });

describe("the bands at their boundaries (birth month: the younger reading)", () => {
  it.each([
    // [birth month, birth year, band]
    [6, 2008, "16_17"], // turns 18 this month: counted 17
    [5, 2008, "18_plus"], // turned 18 last month
    [7, 2008, "16_17"],
    [6, 2010, "13_15"], // turns 16 this month: 15
    [5, 2010, "16_17"],
    [6, 2013, "under_13"], // turns 13 this month: 12
    [5, 2013, "13_15"],
    [1, 1990, "18_plus"],
    [6, 2026, "under_13"], // born this month
  ] as const)("born %i/%i: %s", async (month, year, band) => {
    expect((await decide(month, year)).band).toBe(band);
  });

  it("numeric strings are read as numbers (a form post's selects)", async () => {
    expect(await decide("5", "2008")).toMatchObject({ band: "18_plus", parentNeeded: false });
  });
});

describe("the consent age per country", () => {
  it.each([
    // [country, age, parent decides]
    ["US", 12, true],
    ["US", 13, false],
    ["DE", 15, true],
    ["DE", 16, false],
    ["FR", 15, false],
    ["FR", 14, true],
    ["AT", 13, true],
    ["AT", 14, false],
    [null, 15, true], // unknown country: 16
    [null, 16, false],
    ["XX", 15, true],
    // France's outermost regions, which Cloudflare names by their own codes: France's 15.
    ["RE", 14, true],
    ["GP", 15, false],
  ] as const)("%s, %i years old: a parent decides: %s", async (country, age, parent) => {
    // Born in May: the age in whole years on 15 June 2026 is 2026 - year.
    expect((await decide(5, 2026 - age, country)).parentNeeded).toBe(parent);
  });

  it("PARENTAL_CONSENT_UNDER=16: a 15-year-old in the US needs a parent, a 16-year-old does not", async () => {
    expect((await decide(5, 2011, "US", { PARENTAL_CONSENT_UNDER: "16" })).parentNeeded).toBe(true);
    expect((await decide(5, 2010, "US", { PARENTAL_CONSENT_UNDER: "16" })).parentNeeded).toBe(false);
  });

  it("DEFAULT_COUNTRY names the country when the request names none", async () => {
    expect(await decide(5, 2012, null, { DEFAULT_COUNTRY: "us" })).toMatchObject({ country: "US", parentNeeded: false });
    expect(await decide(5, 2012, null)).toMatchObject({ country: null, parentNeeded: true });
  });
});

describe("a missing or impossible answer: 400 naming the field, no cookie", () => {
  it.each([
    [undefined, 1990, "birth_month", AGE_MESSAGES.birthMissing],
    ["", "", "birth_month", AGE_MESSAGES.birthMissing],
    [1, undefined, "birth_year", AGE_MESSAGES.birthMissing],
    [13, 1990, "birth_month", AGE_MESSAGES.birthImpossible],
    [0, 1990, "birth_month", AGE_MESSAGES.birthImpossible],
    ["March", 1990, "birth_month", AGE_MESSAGES.birthImpossible],
    [1.5, 1990, "birth_month", AGE_MESSAGES.birthImpossible],
    [1, 99, "birth_year", AGE_MESSAGES.birthImpossible],
    [7, 2026, "birth_year", AGE_MESSAGES.birthImpossible], // next month
    [1, 2027, "birth_year", AGE_MESSAGES.birthImpossible],
    [1, 1905, "birth_year", AGE_MESSAGES.birthImpossible], // over 120 years ago
    [1, { year: 1990 }, "birth_year", AGE_MESSAGES.birthImpossible],
  ])("%j / %j: %s", async (month, year, field, message) => {
    const refused = await decide(month, year).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    const error = refused as ApiError;
    expect(error.status).toBe(400);
    expect(error.code).toBe("validation_failed");
    expect(error.message).toBe(message);
    expect(error.details).toEqual({ field, fields: { [field]: message } });
    expect(error.headers).toEqual({});
  });
});

describe("the hwh_age cookie: the 24-hour lock", () => {
  const cookieValue = (setCookie: string | null) => /^hwh_age=([^;]+);/.exec(setCookie ?? "")![1]!;

  it("an answer sets it: the band and the parent flag signed, HttpOnly, SameSite=Lax, Path=/, a day; Secure outside development", async () => {
    const decided = await decide(5, 2014, "US");
    expect(decided.setCookie).toMatch(/^hwh_age=under_13\.1\.\d+\.[A-Za-z0-9_-]{43}; Max-Age=86400; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(await readAgeAnswer(SECRET, cookieValue(decided.setCookie), NOW)).toEqual({
      band: "under_13",
      parentNeeded: true,
      expires: new Date(NOW.getTime() + 86_400_000),
    });
    const production = { config: readConfig({ AUTH_JWT_SECRET: SECRET }), now: () => NOW };
    const secure = await decideAge(production, { birthMonth: 5, birthYear: 1990, request: from(null) });
    expect(secure.setCookie).toMatch(/; Secure$/);
  });

  it("while valid it wins over a new answer (a child cannot try another year), and the fields may be left out; it is not set again", async () => {
    const child = cookieValue((await decide(5, 2014, "US")).setCookie);
    expect(await decide(1, 1990, "US", {}, child)).toEqual({ band: "under_13", parentNeeded: true, country: "US", setCookie: null });
    expect(await decide(undefined, undefined, "US", {}, child)).toMatchObject({ band: "under_13", parentNeeded: true });
  });

  it("a tampered cookie is ignored (the answer typed decides)", async () => {
    const child = cookieValue((await decide(5, 2014, "US")).setCookie);
    const tampered = child.replace("under_13.1", "18_plus.0");
    expect(await readAgeAnswer(SECRET, tampered, NOW)).toBeNull();
    expect(await decide(1, 1990, "US", {}, tampered)).toMatchObject({ band: "18_plus", parentNeeded: false });
    const otherSecret = await signAgeAnswer("another-secret-0123456789abcdef0123456789", {
      band: "18_plus",
      parentNeeded: false,
      expires: new Date(NOW.getTime() + 3_600_000),
    });
    expect(await decide(5, 2014, "US", {}, otherSecret)).toMatchObject({ band: "under_13", parentNeeded: true });
  });

  it("an expired cookie is ignored", async () => {
    const expired = await signAgeAnswer(SECRET, { band: "under_13", parentNeeded: true, expires: new Date(NOW.getTime() - 1000) });
    expect(await readAgeAnswer(SECRET, expired, NOW)).toBeNull();
    expect(await decide(1, 1990, "US", {}, expired)).toMatchObject({ band: "18_plus", parentNeeded: false });
  });
});

describe("the visitor's country", () => {
  const request = (headers: Record<string, string>, cf?: { country: string }) =>
    new Request("http://localhost/", { headers, ...(cf ? { cf } : {}) } as RequestInit);

  it("CF-IPCountry is honoured in development only; Cloudflare's reading otherwise; DEFAULT_COUNTRY last", () => {
    const dev = depsWith();
    const production = { config: readConfig({ AUTH_JWT_SECRET: SECRET }) };
    expect(visitorCountry(dev, request({ "CF-IPCountry": "de" }, { country: "US" }))).toBe("DE");
    expect(visitorCountry(production, request({ "CF-IPCountry": "DE" }, { country: "US" }))).toBe("US");
    expect(visitorCountry(production, request({ "CF-IPCountry": "DE" }))).toBeNull();
    expect(visitorCountry({ config: readConfig({ DEFAULT_COUNTRY: "FR" }) }, request({}))).toBe("FR");
    expect(visitorCountry(dev, request({}, { country: "T1" }))).toBeNull();
  });
});
