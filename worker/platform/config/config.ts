import { normalizeEmail } from "../../shared/text";
import { CODE_COOLDOWN_SECONDS, CODE_LENGTH } from "../../shared/sign-in";
import { type CampaignConfig, campaignSettings, missingSenderSettings } from "./campaigns";
import { type WaitlistConfig, waitlistSettings } from "./waitlist";

/**
 * Every setting the worker reads, in one typed object. Plain settings are [vars] in
 * wrangler.toml; secrets come from `wrangler secret put` or .dev.vars. The names are the
 * generated `Env` type's (`npm run types` reads wrangler.toml and .dev.vars.example), so a new
 * setting is added there, here, and in the table in docs/configuration.md.
 *
 * Fails closed: only ENVIRONMENT=development (exactly) is development. Anything else, or
 * nothing, is production: no dev mailbox, and every missing or placeholder secret is reported
 * by /api/health.
 */

/** The string settings of the worker's environment, by their names in `Env`. */
export type Settings = Partial<{ [Name in keyof Env as Env[Name] extends string ? Name : never]: string }>;

export type AppConfig = {
  environment: string;
  /** True only for ENVIRONMENT=development: the dev mailbox and /dev/* exist only then. */
  isDevelopment: boolean;
  /** The site's public origin (SITE_URL, e.g. https://homeworkhelper.app); "" when not set (production then lacks it). */
  siteUrl: string;
  /** Who receives the notification e-mails (COMPANY_EMAIL, comma-separated). */
  companyEmails: string[];
  /** Who may use the operator console and /api/admin (OPERATOR_EMAILS), normalised like sign-in addresses. */
  operatorEmails: ReadonlySet<string>;
  mail: {
    apiUrl: string;
    /** Empty when not configured: the dev mailbox (in development) or a loud failure. */
    token: string;
    model: string;
    projectId: string;
    templates: { waitlist: string; form: string };
    timeoutMs: number;
  };
  notify: {
    /** Attempts with a growing wait; after them the wait stays at retryMaxSeconds, forever. */
    maxAttempts: number;
    retryBaseSeconds: number;
    /** Longest single wait between two attempts. */
    retryMaxSeconds: number;
    /** Single notification e-mails per clock hour; the rest of the hour's go out as digests. */
    hourlyCap: number;
    /** How long a sender keeps its claim on a notification: longer than any send can take. */
    lockMs: number;
    /** How many notifications one cron run sends one by one, per table. */
    batchSize: number;
    /** The most records one digest e-mail lists; a bigger backlog takes several cron runs. */
    digestSize: number;
  };
  /** Per-client limits of the public forms (POST /api/waitlist, POST /api/forms/:form, per form). */
  publicLimits: { waitlist: RequestLimit; forms: RequestLimit };
  /** Per-client limit of the operator API (every /api/admin/* route together), credentials or not. */
  operatorLimit: RequestLimit;
  /** The joiner's journey (worker/features/waitlist/*): confirmation, places and referrals. */
  waitlist: WaitlistConfig;
  /** Launch day: campaigns to the list (worker/features/campaigns/*). */
  campaigns: CampaignConfig;
  /** Cloudflare Turnstile on the public forms: on only when both keys are set. */
  turnstile: { enabled: boolean; siteKey: string; secretKey: string; verifyUrl: string };
  auth: AuthConfig;
  /** Settings given a value out of range or not a number (with what is accepted): health says so. */
  invalidSettings: string[];
};

/** Sign-in settings. The rules the product promises (6 digits, 5 attempts, 10 s) are constants. */
export type AuthConfig = {
  /** Signs access tokens and keys the code and refresh-token hashes; at least 32 characters. */
  jwtSecret: string;
  /** The privileged service key of the admin routes; empty means the admin routes refuse everyone. */
  adminKey: string;
  accessTokenTtlSeconds: number;
  codeTtlSeconds: number;
  codeLength: typeof CODE_LENGTH;
  /** Guesses one code can take, right or wrong; each is counted before it is compared. */
  codeMaxAttempts: 5;
  /** One code request per e-mail address per this many seconds (60 unless configured). */
  codeCooldownSeconds: number;
  /** Code e-mails one address can receive per hour and per day. */
  codeHourlyLimit: number;
  codeDailyLimit: number;
  /** Presenting the previous refresh token within this many seconds returns the current pair. */
  refreshReuseSeconds: 10;
  /** Per client, per route (admin: every /admin/* route together). */
  rateLimit: { otp: RequestLimit; verify: RequestLimit; token: RequestLimit; admin: RequestLimit };
};

/** How many requests one client may make per window. */
export type RequestLimit = { max: number; windowSeconds: number };

export const MIN_JWT_SECRET_LENGTH = 32;
export const TURNSTILE_VERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

export function readConfig(env: Settings): AppConfig {
  /** Settings given a value that is not acceptable: reported by health, never silently used. */
  const invalid: string[] = [];
  /** A whole number within [min, max]; unset takes the default, anything else is reported. */
  const integerSetting = (name: keyof Settings, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === "") return fallback;
    const value = Number(raw);
    if (Number.isInteger(value) && value >= min && value <= max) return value;
    invalid.push(`${name} (a whole number from ${min} to ${max})`);
    return fallback;
  };
  const environment = env.ENVIRONMENT ?? "";
  const timeoutMs = integerSetting("MAIL_TIMEOUT_MS", 10_000, 1, 120_000);
  const siteKey = (env.TURNSTILE_SITE_KEY ?? "").trim();
  const publicWindow = integerSetting("PUBLIC_RATE_LIMIT_WINDOW_SECONDS", 600, 1, 86_400);
  const authWindow = integerSetting("AUTH_RATE_LIMIT_WINDOW_SECONDS", 300, 1, 86_400);
  const secretKey = (env.TURNSTILE_SECRET_KEY ?? "").trim();
  const config: AppConfig = {
    environment: environment.trim() || "production",
    isDevelopment: environment === "development",
    siteUrl: siteUrl(env.SITE_URL ?? "", invalid),
    companyEmails: (env.COMPANY_EMAIL ?? "")
      .split(",")
      .map((address) => address.trim())
      .filter(Boolean),
    operatorEmails: new Set((env.OPERATOR_EMAILS ?? "").split(",").map(normalizeEmail).filter(Boolean)),
    mail: {
      apiUrl: (env.MAIL_API_URL ?? "").trim(),
      token: (env.MAIL_PROVIDER_TOKEN ?? "").trim(),
      model: env.MAIL_MODEL ?? "",
      projectId: env.MAIL_PROJECT_ID ?? "",
      templates: { waitlist: env.MAIL_TEMPLATE_WAITLIST ?? "", form: env.MAIL_TEMPLATE_FORM ?? "" },
      timeoutMs,
    },
    notify: {
      maxAttempts: integerSetting("NOTIFY_MAX_ATTEMPTS", 8, 1, 100),
      retryBaseSeconds: integerSetting("NOTIFY_RETRY_BASE_SECONDS", 300, 1, 86_400),
      retryMaxSeconds: integerSetting("NOTIFY_RETRY_MAX_SECONDS", 6 * 60 * 60, 1, 7 * 86_400),
      hourlyCap: integerSetting("NOTIFY_HOURLY_CAP", 60, 0, 1_000_000),
      lockMs: timeoutMs + 60_000,
      batchSize: 25,
      digestSize: 500,
    },
    publicLimits: {
      // A school network is one address, and a teacher sharing the link in class is the likeliest
      // way students arrive: a class of 40 joining within ten minutes meets at most 40 of these in
      // a window (they start on the clock), and 60 leaves room for re-joins and retries. Bots are
      // the honeypot's, Turnstile's and the notification cap's business.
      waitlist: { max: integerSetting("WAITLIST_RATE_LIMIT", 60, 1, 1_000_000), windowSeconds: publicWindow },
      forms: { max: integerSetting("FORMS_RATE_LIMIT", 5, 1, 1_000_000), windowSeconds: publicWindow },
    },
    waitlist: waitlistSettings(env, integerSetting, invalid),
    campaigns: campaignSettings(env, integerSetting, timeoutMs),
    operatorLimit: { max: integerSetting("OPERATOR_RATE_LIMIT", 300, 1, 1_000_000), windowSeconds: authWindow },
    turnstile: {
      enabled: siteKey !== "" && secretKey !== "",
      siteKey,
      secretKey,
      verifyUrl: (env.TURNSTILE_VERIFY_URL ?? "").trim() || TURNSTILE_VERIFY_URL,
    },
    auth: {
      jwtSecret: (env.AUTH_JWT_SECRET ?? "").trim(),
      adminKey: (env.AUTH_ADMIN_KEY ?? "").trim(),
      accessTokenTtlSeconds: integerSetting("AUTH_ACCESS_TOKEN_TTL_SECONDS", 3600, 60, 86_400),
      codeTtlSeconds: integerSetting("AUTH_CODE_TTL_SECONDS", 600, 60, 86_400),
      codeLength: CODE_LENGTH,
      codeMaxAttempts: 5,
      codeCooldownSeconds: integerSetting("AUTH_CODE_COOLDOWN_SECONDS", CODE_COOLDOWN_SECONDS, 1, 3600),
      codeHourlyLimit: integerSetting("AUTH_CODE_HOURLY_LIMIT", 5, 1, 1000),
      codeDailyLimit: integerSetting("AUTH_CODE_DAILY_LIMIT", 20, 1, 10_000),
      refreshReuseSeconds: 10,
      rateLimit: {
        otp: { max: integerSetting("AUTH_RATE_LIMIT_OTP", 30, 1, 1_000_000), windowSeconds: authWindow },
        verify: { max: integerSetting("AUTH_RATE_LIMIT_VERIFY", 30, 1, 1_000_000), windowSeconds: authWindow },
        token: { max: integerSetting("AUTH_RATE_LIMIT_TOKEN", 150, 1, 1_000_000), windowSeconds: authWindow },
        admin: { max: integerSetting("AUTH_RATE_LIMIT_ADMIN", 60, 1, 1_000_000), windowSeconds: authWindow },
      },
    },
    invalidSettings: invalid,
  };
  return config;
}

/** An origin (https://host, no path) or nothing; anything else is reported as invalid. */
function siteUrl(raw: string, invalid: string[]): string {
  const text = raw.trim().replace(/\/+$/, "");
  if (text === "") return "";
  try {
    const url = new URL(text);
    if ((url.protocol === "https:" || url.protocol === "http:") && url.pathname === "/" && !url.search && !url.hash) return url.origin;
  } catch {
    // reported below
  }
  invalid.push("SITE_URL (an origin such as https://homeworkhelper.app)");
  return "";
}

/**
 * A value someone forgot to replace: empty, a documentation domain (RFC 2606: example, test,
 * invalid, localhost) or a "change me" marker.
 */
export function isPlaceholder(value: string): boolean {
  const text = value.trim().toLowerCase();
  if (text === "") return true;
  if (/change[-_ ]?me|placeholder|replace[-_ ]?me|your[-_]|^x+$|^<.*>$/.test(text)) return true;
  const hosts = text.match(/(?:@|\/\/)([^/:@?#\s]+)/g)?.map((match) => match.replace(/^@|^\/\//, "")) ?? [];
  return hosts.some((host) => /(^|\.)(example|test|invalid|localhost)$|(^|\.)example\.(com|net|org)$/.test(host));
}

/** Words a hurried person types for a secret; a value made only of them (and digits) is not one. */
const GUESSABLE =
  /^(?:test|todo|tbd|password|passwd|secret|admin|token|key|default|dummy|sample|demo|dev|local|prod|changeme|letmein|qwerty|abc|123)+\d*$/;

/**
 * A secret that cannot be trusted: a placeholder, shorter than `minLength`, made of a handful of
 * distinct characters ("aaaa...", "abababab..."), or only guessable words ("secretsecret",
 * "test123"). Random values (`openssl rand -hex 32`) pass.
 */
export function isWeakSecret(value: string, minLength: number): boolean {
  const text = value.trim();
  if (isPlaceholder(text) || text.length < minLength) return true;
  if (new Set(text.toLowerCase()).size < 8) return true;
  return GUESSABLE.test(text.toLowerCase().replace(/[^a-z0-9]/g, ""));
}

/** Shortest acceptable secrets: the JWT secret and the admin key 32 characters, a provider token 16. */
export const MIN_ADMIN_KEY_LENGTH = 32;
export const MIN_PROVIDER_TOKEN_LENGTH = 16;

/**
 * The names of the settings production cannot run without, where they are missing, still
 * placeholders or (for secrets) too weak to trust. Names only, never values: this list is shown
 * by the public health check.
 */
export function missingProductionSettings(config: AppConfig): string[] {
  if (config.isDevelopment) return [];
  const missing: string[] = [];
  const { auth, mail, turnstile } = config;
  if (isWeakSecret(auth.jwtSecret, MIN_JWT_SECRET_LENGTH)) missing.push("AUTH_JWT_SECRET");
  if (isWeakSecret(auth.adminKey, MIN_ADMIN_KEY_LENGTH)) missing.push("AUTH_ADMIN_KEY");
  if (isWeakSecret(mail.token, MIN_PROVIDER_TOKEN_LENGTH)) missing.push("MAIL_PROVIDER_TOKEN");
  if (!/^https?:\/\/[^\s]+$/.test(mail.apiUrl) || isPlaceholder(mail.apiUrl)) missing.push("MAIL_API_URL");
  if (config.companyEmails.length === 0 || config.companyEmails.some(isPlaceholder)) missing.push("COMPANY_EMAIL");
  // Without it, pages would name whatever host a request claims (routes/pages.ts leaves them relative).
  if (isPlaceholder(config.siteUrl)) missing.push("SITE_URL");
  // The bulk-mail laws ask every campaign e-mail to name its sender and a postal address.
  missing.push(...missingSenderSettings(config.campaigns));
  // Half a Turnstile configuration is a mistake, not a choice to leave it off.
  if (turnstile.siteKey !== "" && turnstile.secretKey === "") missing.push("TURNSTILE_SECRET_KEY");
  if (turnstile.secretKey !== "" && turnstile.siteKey === "") missing.push("TURNSTILE_SITE_KEY");
  if (turnstile.enabled && isPlaceholder(turnstile.verifyUrl)) missing.push("TURNSTILE_VERIFY_URL");
  return missing;
}
