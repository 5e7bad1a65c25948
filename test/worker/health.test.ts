import { describe, expect, it, vi } from "vitest";
import { readConfig } from "../../worker/platform/config/config";
import { isPlaceholder, isWeakSecret, missingProductionSettings } from "../../worker/platform/config/production";
import { brokenDatabase, call, postJson } from "../support/worker";
import { fakeProvider, PROVIDER_ENV } from "../support/fake-provider";
import { ADULT_ANSWER } from "../support/age";

/** GET /api/health, and the fail-closed configuration it reports (issue 8 §3). */

/** Settings with which production has everything it needs. */
const PRODUCTION = {
  ENVIRONMENT: "production",
  ...PROVIDER_ENV,
  MAIL_API_URL: "https://api.provider-mail.com/v1/run",
  COMPANY_EMAIL: "team@homeworkhelper.app",
  AUTH_JWT_SECRET: "9f1c4e7a2b8d3f6e1a5c9b7d2e4f8a1c6b3d9e2f",
  AUTH_ADMIN_KEY: "3b7e1f9c5a2d8e4b6f1a9c3e7d5b2f8a4c6e",
  SITE_URL: "https://homeworkhelper.app",
  SENDER_NAME: "Homework Helper Ltd",
  SENDER_POSTAL_ADDRESS: "1 Launch Street, London, N1 1AA",
};

/** How an operator's script asks for the details in production: the admin key as a bearer token. */
const AS_OPERATOR = { headers: { Authorization: `Bearer ${PRODUCTION.AUTH_ADMIN_KEY}` } };

/** GET /api/health's answer, as these tests read it. */
type Health = {
  status: string;
  environment: string;
  error?: { code: string; message: string };
  database: { driver: string; reachable: boolean; migrated: boolean; problem?: string };
  mail: { transport: string };
  settings: { missing: string[]; invalid: string[] };
  notifications: { undelivered: number; oldestUndeliveredAt: string | null; oldestAgeSeconds: number | null };
};

describe("GET /api/health", () => {
  it("answers 200 in development: database reachable and migrated, the dev mailbox, nothing undelivered counted wrong", async () => {
    const res = await call("/api/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json<Health>();
    expect(body).toMatchObject({
      status: "ok",
      environment: "development",
      database: { driver: "d1", reachable: true, migrated: true },
      mail: { transport: "dev-mailbox" },
      settings: { missing: [] },
      notifications: { undelivered: expect.any(Number) },
    });
  });

  it("reports the provider transport when a token is configured", async () => {
    const res = await call("/api/health", {}, PROVIDER_ENV);
    expect(await res.json()).toMatchObject({ mail: { transport: "provider" } });
  });

  it("answers 200 in production when every setting is real, with the details for an operator (the admin key)", async () => {
    const res = await call("/api/health", AS_OPERATOR, PRODUCTION);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: "ok",
      environment: "production",
      database: { driver: "d1", reachable: true, migrated: true },
      settings: { missing: [] },
      mail: { transport: "provider" },
      notifications: { undelivered: expect.any(Number), oldestAgeSeconds: expect.toBeOneOf([null, expect.any(Number)]) },
    });
  });

  it("in production tells anyone else only the status and the settings to fix: no counts, ages, database or transport", async () => {
    for (const init of [{}, { headers: { Authorization: "Bearer not-the-key" } }, { headers: { Authorization: "Basic abc" } }]) {
      const res = await call("/api/health", init, PRODUCTION);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ok", settings: { missing: [], invalid: [] } });
    }
    const broken = await call("/api/health", {}, { ...PRODUCTION, MAIL_PROVIDER_TOKEN: "" });
    expect(broken.status).toBe(503);
    const body = await broken.json<Health>();
    expect(Object.keys(body).sort()).toEqual(["error", "settings", "status"]);
    expect(body).toMatchObject({
      status: "unavailable",
      error: { code: "not_configured" },
      settings: { missing: ["MAIL_PROVIDER_TOKEN"] },
    });
  });

  it("in production names SITE_URL missing (503) when it is empty or a placeholder", async () => {
    for (const siteUrl of ["", "https://example.com"]) {
      const res = await call("/api/health", {}, { ...PRODUCTION, SITE_URL: siteUrl });
      expect(res.status, siteUrl).toBe(503);
      expect((await res.json<Health>()).settings.missing).toEqual(["SITE_URL"]);
    }
  });

  it("in production names a RETENTION_* setting (503) that differs from the days the privacy policy publishes (issue 23)", async () => {
    const res = await call("/api/health", {}, { ...PRODUCTION, RETENTION_CONTACT_DAYS: "90", RETENTION_UNCONFIRMED_DAYS: "30" });
    expect(res.status).toBe(503);
    expect((await res.json<Health>()).settings.missing).toEqual(["RETENTION_CONTACT_DAYS"]);
    // Development tries other schedules (the tests do).
    const dev = await call("/api/health", {}, { RETENTION_CONTACT_DAYS: "90" });
    expect((await dev.json<Health>()).settings.missing).toEqual([]);
  });

  it("in production names the campaign sender settings (SENDER_NAME, SENDER_POSTAL_ADDRESS) missing (503) when empty", async () => {
    const res = await call("/api/health", {}, { ...PRODUCTION, SENDER_NAME: "", SENDER_POSTAL_ADDRESS: " " });
    expect(res.status).toBe(503);
    expect((await res.json<Health>()).settings.missing).toEqual(["SENDER_NAME", "SENDER_POSTAL_ADDRESS"]);
    const one = await call("/api/health", {}, { ...PRODUCTION, SENDER_POSTAL_ADDRESS: "" });
    expect((await one.json<Health>()).settings.missing).toEqual(["SENDER_POSTAL_ADDRESS"]);
  });

  it.each([
    ["no ENVIRONMENT at all", { ENVIRONMENT: undefined }],
    ["ENVIRONMENT=Production", { ENVIRONMENT: "Production" }],
    ["ENVIRONMENT=staging", { ENVIRONMENT: "staging" }],
  ])("treats %s as production: the settings it lacks make health 503, named, never shown", async (_name, environment) => {
    const res = await call(
      "/api/health",
      {},
      { ...environment, MAIL_PROVIDER_TOKEN: "", AUTH_ADMIN_KEY: "", AUTH_JWT_SECRET: "change-me-change-me-change-me-change-me" },
    );
    expect(res.status).toBe(503);
    const body = await res.json<Health>();
    // Production: without an operator's credentials, no environment, database or transport.
    expect(body).toEqual({ status: "unavailable", error: expect.objectContaining({ code: "not_configured" }), settings: body.settings });
    // The test env's provider URL and company address are placeholders (provider.test, example.com), its SITE_URL empty.
    expect(body.settings.missing).toEqual([
      "AUTH_JWT_SECRET",
      "AUTH_ADMIN_KEY",
      "MAIL_PROVIDER_TOKEN",
      "MAIL_API_URL",
      "COMPANY_EMAIL",
      "SITE_URL",
    ]);
    expect(body.error?.message).toContain("AUTH_JWT_SECRET");
    expect(JSON.stringify(body)).not.toContain("change-me");
  });

  it("reports the undelivered notifications and the age of the oldest", async () => {
    fakeProvider("http-500");
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email: `undelivered-${Date.now()}@example.com` }, PROVIDER_ENV);
    const body = await (await call("/api/health")).json<Health>();
    expect(body.notifications.undelivered).toBeGreaterThan(0);
    expect(Date.parse(body.notifications.oldestUndeliveredAt ?? "")).not.toBeNaN();
    expect(body.notifications.oldestAgeSeconds).toBeGreaterThanOrEqual(0);
  });

  it("answers 503 when the database is unreachable", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await call("/api/health", {}, { DB: brokenDatabase() });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      error: { code: "database_unreachable" },
      database: { driver: "d1", reachable: false },
    });
  });

  it("answers 503 naming what is missing when the schema is not migrated", async () => {
    const unmigrated = await (async () => {
      const { env } = await import("cloudflare:workers");
      // A database whose every statement says a column is missing, as an old schema would.
      const fail = () => Promise.reject(new Error("D1_ERROR: no such column: window_start: SQLITE_ERROR"));
      const statement = { bind: () => statement, first: fail, all: fail, run: fail, raw: fail };
      return { ...env.DB, prepare: () => statement, batch: fail } as unknown as D1Database;
    })();
    const res = await call("/api/health", {}, { DB: unmigrated });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      error: { code: "not_migrated" },
      database: { reachable: true, migrated: false, problem: "no such column: window_start: apply the migrations" },
    });
  });
});

describe("configuration fails closed", () => {
  it("only ENVIRONMENT exactly 'development' is development", () => {
    expect(readConfig({ ENVIRONMENT: "development" }).isDevelopment).toBe(true);
    for (const value of ["Development", "development ", "dev", "production", "staging", "test", ""]) {
      expect(readConfig({ ENVIRONMENT: value }).isDevelopment, value).toBe(false);
    }
    expect(readConfig({}).isDevelopment).toBe(false);
  });

  it("recognises placeholders: empty, documentation domains, change-me markers", () => {
    for (const value of [
      "",
      "  ",
      "https://api.ai-provider.example/v1/run",
      "team@example.com",
      "x@company.test",
      "change-me",
      "CHANGEME-secret",
      "<your key>",
    ]) {
      expect(isPlaceholder(value), value).toBe(true);
    }
    for (const value of ["https://api.provider-mail.com/v1/run", "hello@homeworkhelper.app", "9f1c4e7a2b8d3f6e1a5c9b7d2e4f8a1c"]) {
      expect(isPlaceholder(value), value).toBe(false);
    }
  });

  it.each([
    ["AUTH_ADMIN_KEY", "test"],
    ["AUTH_ADMIN_KEY", "password"],
    ["AUTH_ADMIN_KEY", "3b7e1f9c5a2d8e4b6f1a9c3e7d5b2f8"], // random, but 31 characters
    ["MAIL_PROVIDER_TOKEN", "test"],
    ["MAIL_PROVIDER_TOKEN", "TODO"],
    ["AUTH_JWT_SECRET", "a".repeat(40)],
    ["AUTH_JWT_SECRET", "secretsecretsecretsecretsecretsecret"],
    ["AUTH_JWT_SECRET", "test-test-test-test-test-test-test-1234"],
  ])("a weak secret is no secret: %s=%j makes production health 503", async (name, value) => {
    const res = await call("/api/health", {}, { ...PRODUCTION, [name]: value });
    expect(res.status).toBe(503);
    const body = await res.json<Health>();
    expect(body.settings.missing).toEqual([name]);
    expect(JSON.stringify(body)).not.toContain(`"${value}"`);
  });

  it("tells random secrets from weak ones", () => {
    expect(isWeakSecret("9f1c4e7a2b8d3f6e1a5c9b7d2e4f8a1c", 32)).toBe(false);
    expect(isWeakSecret("Zq8vN2pXr5tLm3Kw", 16)).toBe(false);
    for (const weak of [
      "",
      "abcabcabcabcabcabcabcabcabcabcabc",
      "admin123admin123admin123admin1234",
      "changeme-changeme-changeme-changeme",
    ]) {
      expect(isWeakSecret(weak, 32), weak).toBe(true);
    }
  });

  it("a setting the worker cannot use is named by health, not quietly replaced by its default", async () => {
    const res = await call("/api/health", AS_OPERATOR, { ...PRODUCTION, REFERRAL_NETWORK_FLAG: "0", NOTIFY_HOURLY_CAP: "lots" });
    expect(res.status).toBe(503);
    const body = await res.json<Health>();
    expect(body.settings.invalid).toEqual([
      "NOTIFY_HOURLY_CAP (a whole number from 0 to 1000000)",
      "REFERRAL_NETWORK_FLAG (a whole number from 1 to 1000000)",
    ]);
    expect(body.error?.message).toContain("settings not valid: NOTIFY_HOURLY_CAP");
    // Only those two take their defaults: every other setting of the worker's env is still read.
    expect(body.settings.missing).toEqual([]);
    expect(body.environment).toBe("production");
    // In development it is reported, and the default is used.
    const dev = await (await call("/api/health", {}, { REFERRAL_NETWORK_FLAG: "0" })).json<Health>();
    expect(dev.status).toBe("ok");
    expect(dev.settings.invalid).toEqual(["REFERRAL_NETWORK_FLAG (a whole number from 1 to 1000000)"]);
  });

  it("a production deploy without a public route's rate-limit binding is not ready, and health names it (issue 24)", async () => {
    const res = await call("/api/health", AS_OPERATOR, { ...PRODUCTION, WAITLIST_LIMITER: undefined, CONFIRM_LIMITER: undefined });
    expect(res.status).toBe(503);
    const body = await res.json<Health>();
    expect(body.error?.message).toContain("rate-limit bindings missing (wrangler.toml [[ratelimits]]): WAITLIST_LIMITER, CONFIRM_LIMITER");
    // Anyone is told what to fix, as with settings.
    expect((await (await call("/api/health", {}, { ...PRODUCTION, FORMS_LIMITER: undefined })).json<Health>()).error?.message).toContain(
      "FORMS_LIMITER",
    );
    // With every binding there, production is ready.
    expect((await call("/api/health", AS_OPERATOR, PRODUCTION)).status).toBe(200);
  });

  it("asks for both Turnstile keys or neither", () => {
    const config = (turnstile: Record<string, string>) => readConfig({ ...PRODUCTION, ...turnstile });
    expect(missingProductionSettings(config({}))).toEqual([]);
    expect(missingProductionSettings(config({ TURNSTILE_SITE_KEY: "0x4AAA" }))).toEqual(["TURNSTILE_SECRET_KEY"]);
    expect(missingProductionSettings(config({ TURNSTILE_SECRET_KEY: "0x4BBB" }))).toEqual(["TURNSTILE_SITE_KEY"]);
    expect(config({ TURNSTILE_SITE_KEY: "0x4AAA", TURNSTILE_SECRET_KEY: "0x4BBB" }).turnstile.enabled).toBe(true);
  });

  it("in production, sign-in with a placeholder secret says it is not configured", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await call(
      "/auth/v1/otp",
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: "a@example.com" }) },
      { ...PRODUCTION, AUTH_JWT_SECRET: "change-me-change-me-change-me-change-me" },
    );
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: "unexpected_failure", message: "Sign-in is not configured on this server." });
  });
});
