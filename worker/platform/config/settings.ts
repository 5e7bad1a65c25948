import * as v from "valibot";
import { SPEC_CLAIMS } from "../../shared/claims";
import { PUBLISHED_RETENTION_DAYS } from "../../shared/retention";
import { CODE_COOLDOWN_SECONDS } from "../../shared/sign-in";
import { normalizeEmail } from "../../shared/text";

/**
 * The worker's environment as one valibot schema: every setting the worker reads, by its name in
 * the generated `Env` type (`npm run types` reads wrangler.toml and .dev.vars.example, so a name
 * nobody declared does not compile), from its text to its value, with its default and what it
 * accepts. Each area's settings (config.ts and its neighbours) are built from the parsed values;
 * nothing else reads the environment's text. A new setting is added here, in .dev.vars.example,
 * and in the table in docs/configuration.md.
 *
 * A setting that is unset (or blank) takes its default. A value the worker cannot use is never
 * used: it is named in `invalid`, with what is accepted (health reports it; production answers
 * 503), and the setting takes its default.
 */

/** The string settings of the worker's environment, by their names in `Env`. */
export type Settings = Partial<{ [Name in keyof Env as Env[Name] extends string ? Name : never]: string }>;

/** How many requests one client may make per window. */
export type RequestLimit = { max: number; windowSeconds: number };

/** Where Turnstile tokens are checked unless TURNSTILE_VERIFY_URL says otherwise. */
export const TURNSTILE_VERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

/** Where a webhook receiver's host name is resolved unless WEBHOOK_DNS_URL says otherwise (Cloudflare's DNS over HTTPS). */
export const WEBHOOK_DNS_URL = "https://cloudflare-dns.com/dns-query";

/** The text as set; unset is "". */
const text = v.optional(v.string(), "");

/** The text without the spaces around it. */
const trimmed = v.pipe(text, v.trim());

/** A whole number within [min, max]; unset or blank takes `fallback`. */
function wholeNumber(fallback: number, min: number, max: number) {
  const accepted = `a whole number from ${min} to ${max}`;
  return v.pipe(
    trimmed,
    v.transform((value) => (value === "" ? fallback : Number(value))),
    v.number(accepted),
    v.integer(accepted),
    v.minValue(min, accepted),
    v.maxValue(max, accepted),
  );
}

/** "true" or "false", in any case; unset or blank takes `fallback`. */
function trueOrFalse(fallback: boolean) {
  return v.pipe(
    trimmed,
    v.toLowerCase(),
    v.picklist(["", "true", "false"], "true or false"),
    v.transform((value) => (value === "" ? fallback : value === "true")),
  );
}

/** The origin a URL names when it is only an origin (http or https, no path, query or fragment), else null. */
function originOf(value: string): string | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  const bare = url.pathname === "/" && !url.search && !url.hash;
  return (url.protocol === "https:" || url.protocol === "http:") && bare ? url.origin : null;
}

/** An origin (https://host, trailing slashes forgiven) or nothing (""). */
const origin = v.pipe(
  trimmed,
  v.transform((value) => value.replace(/\/+$/, "")),
  v.check((value) => value === "" || originOf(value) !== null, "an origin such as https://homeworkhelper.app"),
  v.transform((value) => (value === "" ? "" : originOf(value)!)),
);

/** Comma-separated addresses, each trimmed; empty ones dropped. */
const addresses = v.pipe(
  text,
  v.transform((value) =>
    value
      .split(",")
      .map((address) => address.trim())
      .filter(Boolean),
  ),
);

/** Comma-separated addresses, normalised as sign-in normalises an address (so a listed operator's sign-in matches). */
const signInAddresses = v.pipe(
  text,
  v.transform((value): ReadonlySet<string> => new Set(value.split(",").map(normalizeEmail).filter(Boolean))),
);

/** A two-letter country code (ISO 3166-1 alpha-2, upper-cased), or nothing (""). */
const countryOrNothing = v.pipe(
  trimmed,
  v.toUpperCase(),
  v.check((value) => value === "" || /^[A-Z]{2}$/.test(value), "two letters such as US, or empty"),
);

/** A claim the page states: one line of at most 60 characters; unset or blank takes `fallback`. */
function claim(fallback: string) {
  return v.pipe(
    trimmed,
    v.check((value) => value.length <= 60 && !/[<>|\p{Cc}]/u.test(value), "one line of at most 60 characters, without <, > or |"),
    v.transform((value) => value || fallback),
  );
}

/** Every setting, in the order a problem is reported (the order health names them in). */
const SETTINGS = v.object({
  /** Not trimmed: only "development", exactly, is development (config.ts). */
  ENVIRONMENT: text,
  MAIL_TIMEOUT_MS: wholeNumber(10_000, 1, 120_000),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: wholeNumber(300, 1, 86_400),
  SITE_URL: origin,
  COMPANY_EMAIL: addresses,
  OPERATOR_EMAILS: signInAddresses,
  MAIL_API_URL: trimmed,
  MAIL_PROVIDER_TOKEN: trimmed,
  MAIL_MODEL: text,
  MAIL_PROJECT_ID: text,
  MAIL_TEMPLATE_WAITLIST: text,
  MAIL_TEMPLATE_FORM: text,
  NOTIFY_MAX_ATTEMPTS: wholeNumber(8, 1, 100),
  NOTIFY_RETRY_BASE_SECONDS: wholeNumber(300, 1, 86_400),
  NOTIFY_RETRY_MAX_SECONDS: wholeNumber(6 * 60 * 60, 1, 7 * 86_400),
  NOTIFY_HOURLY_CAP: wholeNumber(60, 0, 1_000_000),
  WAITLIST_DOUBLE_OPT_IN: trueOrFalse(true),
  WAITLIST_CONFIRM_TTL_SECONDS: wholeNumber(7 * 86_400, 60, 90 * 86_400),
  REFERRAL_BOOST: wholeNumber(5, 0, 1000),
  REFERRAL_NETWORK_FLAG: wholeNumber(5, 1, 1_000_000),
  WAITLIST_CONFIRM_DAILY_LIMIT: wholeNumber(3, 1, 100),
  // How long the public join waits for its database call (issue 24 §3): past it the join is
  // treated as refused by the database and waits on the joins queue (README "When the database
  // cannot take a join").
  JOIN_DB_TIMEOUT_MS: wholeNumber(3000, 100, 30_000),
  // The joiner's e-mails (confirmations, welcomes) to everyone in a UTC day: a launch-day spike
  // of a few thousand joins goes out at once; an abuser's flood past it waits (docs/configuration.md).
  VISITOR_EMAIL_DAILY_BUDGET: wholeNumber(5000, 1, 10_000_000),
  SENDER_NAME: trimmed,
  SENDER_POSTAL_ADDRESS: trimmed,
  EMAIL_FROM: trimmed,
  CAMPAIGN_SEND_RATE: wholeNumber(10, 1, 10_000),
  TURNSTILE_SITE_KEY: trimmed,
  TURNSTILE_SECRET_KEY: trimmed,
  TURNSTILE_VERIFY_URL: v.pipe(
    trimmed,
    v.transform((value) => value || TURNSTILE_VERIFY_URL),
  ),
  AUTH_JWT_SECRET: trimmed,
  AUTH_ADMIN_KEY: trimmed,
  AUTH_ACCESS_TOKEN_TTL_SECONDS: wholeNumber(3600, 60, 86_400),
  AUTH_CODE_TTL_SECONDS: wholeNumber(600, 60, 86_400),
  AUTH_CODE_COOLDOWN_SECONDS: wholeNumber(CODE_COOLDOWN_SECONDS, 1, 3600),
  AUTH_CODE_HOURLY_LIMIT: wholeNumber(5, 1, 1000),
  AUTH_CODE_DAILY_LIMIT: wholeNumber(20, 1, 10_000),
  // The waitlist's class rule (WAITLIST_LIMITER in wrangler.toml): a school network is one client, and a
  // class of 40 signing in within ten minutes asks at most 40 codes and makes at most 40 right
  // guesses in a window; 60 leaves room for a second code and a mistyped one. An inbox is guarded
  // by the caps per address and per mailbox, a code by its 5 guesses, not by these.
  AUTH_RATE_LIMIT_OTP: wholeNumber(60, 1, 1_000_000),
  AUTH_RATE_LIMIT_VERIFY: wholeNumber(60, 1, 1_000_000),
  AUTH_RATE_LIMIT_TOKEN: wholeNumber(150, 1, 1_000_000),
  AUTH_RATE_LIMIT_ADMIN: wholeNumber(60, 1, 1_000_000),
  // The retention schedule (issue 23; the cron's worker/features/retention/): days after which
  // what each names is deleted, by default as the privacy policy publishes them (production
  // accepts no other: production.ts). Ten years is the longest: nothing is kept indefinitely.
  RETENTION_UNCONFIRMED_DAYS: wholeNumber(PUBLISHED_RETENTION_DAYS.RETENTION_UNCONFIRMED_DAYS, 1, 3650),
  RETENTION_PARENTAL_REQUEST_DAYS: wholeNumber(PUBLISHED_RETENTION_DAYS.RETENTION_PARENTAL_REQUEST_DAYS, 1, 3650),
  RETENTION_REFERRAL_NETWORK_DAYS: wholeNumber(PUBLISHED_RETENTION_DAYS.RETENTION_REFERRAL_NETWORK_DAYS, 1, 3650),
  RETENTION_CONTACT_DAYS: wholeNumber(PUBLISHED_RETENTION_DAYS.RETENTION_CONTACT_DAYS, 1, 3650),
  // Students and their parents (issue 23; worker/features/age): the age below which a parent
  // decides everywhere, at least (a country's own consent age applies when higher); the country
  // assumed when Cloudflare names none (empty: unknown, the strictest consent age); and whether
  // minors' referrals move them up the line.
  PARENTAL_CONSENT_UNDER: wholeNumber(13, 13, 18),
  DEFAULT_COUNTRY: countryOrNothing,
  MINOR_REFERRAL_REWARDS: trueOrFalse(false),
  // Pages from the edge (issue 24; worker/features/pages): how long a location keeps the home page
  // and the confirmed count in Cloudflare's cache (0: never), the count from which the page says how
  // many students wait, and the page's other claims (the spec's words by default).
  PAGE_CACHE_SECONDS: wholeNumber(60, 0, 3600),
  CLAIM_STUDENTS_THRESHOLD: wholeNumber(1000, 0, 100_000_000),
  CLAIM_LAUNCH: claim(SPEC_CLAIMS.launch),
  CLAIM_ACCURACY: claim(SPEC_CLAIMS.accuracyRate),
  CLAIM_RESPONSE_TIME: claim(SPEC_CLAIMS.responseTime),
  // Signed webhooks and Slack (issue 25; worker/features/webhooks): the secret the endpoints' signing
  // secrets (and Slack's addresses) are encrypted under (at least 32 characters; without it no
  // endpoint can be added or delivered to), where a receiver's host name is resolved to be checked
  // (DNS over HTTPS, JSON answers), how long a receiver has to answer, how many deliveries one
  // consumer run takes, and the least time between two messages to one Slack endpoint.
  WEBHOOK_SECRETS_KEY: trimmed,
  WEBHOOK_DNS_URL: v.pipe(
    trimmed,
    v.transform((value) => value || WEBHOOK_DNS_URL),
  ),
  WEBHOOK_TIMEOUT_MS: wholeNumber(15_000, 1000, 30_000),
  WEBHOOK_BATCH_SIZE: wholeNumber(100, 1, 500),
  WEBHOOK_SLACK_INTERVAL_MS: wholeNumber(1000, 1000, 60_000),
} satisfies { [Name in keyof Settings]?: v.GenericSchema<string | undefined, unknown> });

/** Every setting's value, parsed (the defaults in place of what is unset or not accepted). */
export type SettingValues = v.InferOutput<typeof SETTINGS>;

/**
 * The environment's settings as values, and the settings given a value that is not accepted,
 * each named with what is accepted ("REFERRAL_NETWORK_FLAG (a whole number from 1 to 1000000)").
 */
export function readSettings(env: Settings): { values: SettingValues; invalid: string[] } {
  const parsed = v.safeParse(SETTINGS, env, { abortPipeEarly: true });
  if (parsed.success) return { values: parsed.output, invalid: [] };
  const refused = parsed.issues.map((issue) => ({ name: v.getDotPath(issue) ?? "", accepted: issue.message }));
  // A value not accepted is left out, so its setting takes its default, as if unset. (Read by
  // the schema's names: the runtime's env object need not list its bindings.)
  const names = new Set(refused.map(({ name }) => name));
  const accepted = Object.fromEntries(
    Object.keys(SETTINGS.entries).map((name) => [name, names.has(name) ? undefined : env[name as keyof Settings]]),
  );
  return { values: v.parse(SETTINGS, accepted), invalid: refused.map(({ name, accepted }) => `${name} (${accepted})`) };
}
