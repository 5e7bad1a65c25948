import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../worker/platform/config/config";
import { readSettings, TURNSTILE_VERIFY_URL } from "../../worker/platform/config/settings";

/**
 * The environment as one schema (worker/platform/config/settings.ts): what an unset setting
 * becomes, what each accepts, how a value it does not accept is reported (by name, with what is
 * accepted) and replaced by the default, and that docs/configuration.md's table says the same.
 */

const { values: DEFAULTS } = readSettings({});

/** The settings whose value is a whole number, with the range each accepts (read from what they report). */
const WHOLE_NUMBERS = Object.entries(DEFAULTS)
  .filter((entry): entry is [string, number] => typeof entry[1] === "number")
  .map(([name, fallback]) => {
    const said = readSettings({ [name]: "not a number" }).invalid[0] ?? "";
    const [, min, max] = /\(a whole number from (\d+) to (\d+)\)$/.exec(said) ?? [];
    return { name, fallback, min: Number(min), max: Number(max) };
  });

describe("the settings schema", () => {
  it("gives every setting its default when nothing is set, and reports nothing", () => {
    const { values, invalid } = readSettings({});
    expect(invalid).toEqual([]);
    expect(values).toMatchObject({
      ENVIRONMENT: "",
      MAIL_TIMEOUT_MS: 10_000,
      AUTH_RATE_LIMIT_WINDOW_SECONDS: 300,
      NOTIFY_RETRY_MAX_SECONDS: 21_600,
      REFERRAL_NETWORK_FLAG: 5,
      WAITLIST_DOUBLE_OPT_IN: true,
      WAITLIST_CONFIRM_TTL_SECONDS: 604_800,
      CAMPAIGN_SEND_RATE: 10,
      AUTH_CODE_COOLDOWN_SECONDS: 60,
      SITE_URL: "",
      COMPANY_EMAIL: [],
      TURNSTILE_VERIFY_URL,
      RETENTION_UNCONFIRMED_DAYS: 30,
      RETENTION_PARENTAL_REQUEST_DAYS: 7,
      RETENTION_REFERRAL_NETWORK_DAYS: 30,
      RETENTION_CONTACT_DAYS: 365,
    });
    // Blank is unset.
    expect(readSettings({ REFERRAL_NETWORK_FLAG: "  ", WAITLIST_DOUBLE_OPT_IN: "" })).toEqual({ values: DEFAULTS, invalid: [] });
  });

  it("accepts each whole number at both ends of its range, spaces around it forgiven", () => {
    expect(WHOLE_NUMBERS.length).toBeGreaterThan(20);
    for (const { name, min, max } of WHOLE_NUMBERS) {
      expect(readSettings({ [name]: ` ${min} ` }), name).toMatchObject({ values: { [name]: min }, invalid: [] });
      expect(readSettings({ [name]: String(max) }), name).toMatchObject({ values: { [name]: max }, invalid: [] });
    }
  });

  it("reports a number out of range, a fraction or text by name, with what is accepted, and keeps the default", () => {
    for (const { name, fallback, min, max } of WHOLE_NUMBERS) {
      for (const value of [String(min - 1), String(max + 1), `${min}.5`, "lots"]) {
        const { values, invalid } = readSettings({ [name]: value });
        expect(invalid, `${name}=${value}`).toEqual([`${name} (a whole number from ${min} to ${max})`]);
        expect(values, `${name}=${value}`).toEqual({ ...DEFAULTS, [name]: fallback });
      }
    }
  });

  it("reports every value it cannot use, in the schema's order, and uses the others", () => {
    const { values, invalid } = readSettings({
      REFERRAL_NETWORK_FLAG: "0",
      NOTIFY_HOURLY_CAP: "lots",
      CAMPAIGN_SEND_RATE: "7",
      SITE_URL: "ftp://x",
    });
    expect(invalid).toEqual([
      "SITE_URL (an origin such as https://homeworkhelper.app)",
      "NOTIFY_HOURLY_CAP (a whole number from 0 to 1000000)",
      "REFERRAL_NETWORK_FLAG (a whole number from 1 to 1000000)",
    ]);
    expect(values).toMatchObject({ REFERRAL_NETWORK_FLAG: 5, NOTIFY_HOURLY_CAP: 60, CAMPAIGN_SEND_RATE: 7, SITE_URL: "" });
  });

  it("reads WAITLIST_DOUBLE_OPT_IN as true or false in any case; anything else is reported and the default (true) kept", () => {
    const optIn = (value: string) => readSettings({ WAITLIST_DOUBLE_OPT_IN: value });
    expect(optIn("false")).toMatchObject({ values: { WAITLIST_DOUBLE_OPT_IN: false }, invalid: [] });
    expect(optIn(" FALSE ")).toMatchObject({ values: { WAITLIST_DOUBLE_OPT_IN: false }, invalid: [] });
    expect(optIn("True")).toMatchObject({ values: { WAITLIST_DOUBLE_OPT_IN: true }, invalid: [] });
    for (const value of ["no", "0", "off", "yes"]) {
      expect(optIn(value), value).toEqual({ values: DEFAULTS, invalid: ["WAITLIST_DOUBLE_OPT_IN (true or false)"] });
    }
  });

  it("takes SITE_URL as an origin only (trailing slashes forgiven), and anything else as not valid", () => {
    const site = (value: string) => readSettings({ SITE_URL: value });
    expect(site("https://homeworkhelper.app/").values.SITE_URL).toBe("https://homeworkhelper.app");
    expect(site(" HTTPS://HomeworkHelper.app:443 ").values.SITE_URL).toBe("https://homeworkhelper.app");
    expect(site("http://127.0.0.1:8787").values.SITE_URL).toBe("http://127.0.0.1:8787");
    for (const value of ["homeworkhelper.app", "https://homeworkhelper.app/join", "https://x.app/?a=1", "ftp://x.app"]) {
      expect(site(value), value).toEqual({ values: DEFAULTS, invalid: ["SITE_URL (an origin such as https://homeworkhelper.app)"] });
    }
  });

  it("reads the address lists: trimmed, empty ones dropped; operators normalised as sign-in normalises", () => {
    const { values } = readSettings({ COMPANY_EMAIL: " a@x.app, ,b@x.app ", OPERATOR_EMAILS: " Ops@X.app ,, ops@x.app" });
    expect(values.COMPANY_EMAIL).toEqual(["a@x.app", "b@x.app"]);
    expect([...values.OPERATOR_EMAILS]).toEqual(["ops@x.app"]);
  });

  it("has no settings for the public flood limits nor the operator API's: they are wrangler.toml's [[ratelimits]] (issue 24)", () => {
    const gone = [
      "OPERATOR_RATE_LIMIT",
      "WAITLIST_RATE_LIMIT",
      "FORMS_RATE_LIMIT",
      "PUBLIC_RATE_LIMIT_WINDOW_SECONDS",
      "ME_RATE_LIMIT_USER",
      "ME_RATE_LIMIT_CLIENT",
    ];
    const { values, invalid } = readSettings(Object.fromEntries(gone.map((name) => [name, "0"])));
    expect(invalid).toEqual([]);
    for (const name of gone) expect(Object.keys(values), name).not.toContain(name);
  });

  it("builds each area's settings from the parsed values (the config features read)", () => {
    const config = readConfig({
      AUTH_RATE_LIMIT_WINDOW_SECONDS: "120",
      MAIL_TIMEOUT_MS: "5000",
    });
    expect(config.auth.rateLimit.admin).toEqual({ max: 60, windowSeconds: 120 });
    expect(config).not.toHaveProperty("operatorLimit");
    expect(config.notify.lockMs).toBe(65_000);
    expect(config.campaigns.lockMs).toBe(65_000);
    expect(config.environment).toBe("production");
    expect(config.turnstile).toEqual({ enabled: false, siteKey: "", secretKey: "", verifyUrl: TURNSTILE_VERIFY_URL });
  });

  it("builds the retention schedule in days from its four settings", () => {
    expect(readConfig({}).retention).toEqual({ unconfirmedDays: 30, parentalRequestDays: 7, referralNetworkDays: 30, contactDays: 365 });
    const set = readConfig({ RETENTION_UNCONFIRMED_DAYS: "14", RETENTION_CONTACT_DAYS: "90" }).retention;
    expect(set).toMatchObject({ unconfirmedDays: 14, contactDays: 90 });
  });
});

describe("docs/configuration.md's table", () => {
  const table = readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => line.split("|").map((cell) => cell.trim()));
  /** Each row's setting names (`AUTH_RATE_LIMIT_OTP` / `_VERIFY` stands for AUTH_RATE_LIMIT_VERIFY) and its default cell. */
  const rows = table.map(([, names = "", , defaults = "", described = ""]) => {
    const written = [...names.matchAll(/`([A-Z_]+)`/g)].map((match) => match[1]!);
    const first = written[0] ?? "";
    const named = written.map((name) => (name.startsWith("_") ? first.replace(/_[A-Z]+$/, name) : name));
    return { named, defaults: [...defaults.matchAll(/`([^`]+)`/g)].map((match) => match[1]!), described };
  });

  it("names every setting the schema reads", () => {
    const documented = rows.flatMap((row) => row.named);
    for (const name of Object.keys(DEFAULTS)) expect(documented, name).toContain(name);
  });

  it("gives each whole number's default, and its range where it states one", () => {
    for (const { name, fallback, min, max } of WHOLE_NUMBERS) {
      const row = rows.find((candidate) => candidate.named.includes(name));
      expect(row?.defaults[row.named.indexOf(name)], name).toBe(String(fallback));
      const range = /\((\d+) to (\d+)\)/.exec(row?.described ?? "");
      if (range) expect([Number(range[1]), Number(range[2])], name).toEqual([min, max]);
    }
  });
});
