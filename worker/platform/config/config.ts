import { type CampaignConfig, campaignSettings } from "./campaigns";
import { readSettings, type SettingValues, type Settings } from "./settings";
import { type RetentionConfig, retentionSettings } from "./retention";
import { type AuthConfig, authSettings } from "./sign-in";
import { type WaitlistConfig, waitlistSettings } from "./waitlist";
import { type WebhooksConfig, webhooksSettings } from "./webhooks";

export type { AuthConfig } from "./sign-in";
export type { RequestLimit, Settings } from "./settings";

/**
 * Every setting the worker reads, in one typed object, built once per request from the parsed
 * settings (settings.ts: the environment as one schema, with the names, defaults and ranges).
 * Plain settings are [vars] in wrangler.toml; secrets come from `wrangler secret put` or
 * .dev.vars. Each area's part is built by its own function, here or beside this file.
 *
 * Fails closed: only ENVIRONMENT=development (exactly) is development. Anything else, or
 * nothing, is production: no dev mailbox, and every missing or placeholder secret is reported
 * by /api/health (production.ts).
 */
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
  /** The joiner's journey (worker/features/waitlist/*): confirmation, places and referrals. */
  waitlist: WaitlistConfig;
  /** Launch day: campaigns to the list (worker/features/campaigns/*). */
  campaigns: CampaignConfig;
  /** Cloudflare Turnstile on the public forms: on only when both keys are set. */
  turnstile: { enabled: boolean; siteKey: string; secretKey: string; verifyUrl: string };
  auth: AuthConfig;
  /** The neutral age question (worker/features/age): who needs a parent, and where the visitor is. */
  age: { parentalConsentUnder: number; defaultCountry: string };
  /** The retention schedule the cron enforces (worker/features/retention/). */
  retention: RetentionConfig;
  /** Pages from the edge (worker/features/pages): the cache's lifetime, the page's claims and when the count is shown. */
  pages: PagesConfig;
  /** Signed webhooks and Slack (worker/features/webhooks). */
  webhooks: WebhooksConfig;
  /** Settings given a value out of range or not a number (with what is accepted): health says so. */
  invalidSettings: string[];
};

/** PAGE_CACHE_SECONDS, CLAIM_STUDENTS_THRESHOLD and the claims (docs/configuration.md). */
export type PagesConfig = {
  /** How long a location keeps a page and the confirmed count in the Cache API (0: not at all). */
  cacheSeconds: number;
  /** The confirmed count from which the page states it (rounded down); below it the line is left out. */
  studentsThreshold: number;
  launch: string;
  accuracyRate: string;
  responseTime: string;
};

export function readConfig(env: Settings): AppConfig {
  const { values, invalid } = readSettings(env);
  // How long a sender keeps its claim on what it sends (a notification, a campaign's recipient):
  // longer than any send can take (the mail timeout), so a claim ends only when its sender is gone.
  const lockMs = values.MAIL_TIMEOUT_MS + 60_000;
  return {
    environment: values.ENVIRONMENT.trim() || "production",
    isDevelopment: values.ENVIRONMENT === "development",
    siteUrl: values.SITE_URL,
    companyEmails: values.COMPANY_EMAIL,
    operatorEmails: values.OPERATOR_EMAILS,
    mail: mailSettings(values),
    notify: notifySettings(values, lockMs),
    waitlist: waitlistSettings(values),
    campaigns: campaignSettings(values, lockMs),
    turnstile: turnstileSettings(values),
    auth: authSettings(values),
    age: { parentalConsentUnder: values.PARENTAL_CONSENT_UNDER, defaultCountry: values.DEFAULT_COUNTRY },
    retention: retentionSettings(values),
    pages: {
      cacheSeconds: values.PAGE_CACHE_SECONDS,
      studentsThreshold: values.CLAIM_STUDENTS_THRESHOLD,
      launch: values.CLAIM_LAUNCH,
      accuracyRate: values.CLAIM_ACCURACY,
      responseTime: values.CLAIM_RESPONSE_TIME,
    },
    webhooks: webhooksSettings(values),
    invalidSettings: invalid,
  };
}

function mailSettings(values: SettingValues): AppConfig["mail"] {
  return {
    apiUrl: values.MAIL_API_URL,
    token: values.MAIL_PROVIDER_TOKEN,
    model: values.MAIL_MODEL,
    projectId: values.MAIL_PROJECT_ID,
    templates: { waitlist: values.MAIL_TEMPLATE_WAITLIST, form: values.MAIL_TEMPLATE_FORM },
    timeoutMs: values.MAIL_TIMEOUT_MS,
  };
}

function notifySettings(values: SettingValues, lockMs: number): AppConfig["notify"] {
  return {
    maxAttempts: values.NOTIFY_MAX_ATTEMPTS,
    retryBaseSeconds: values.NOTIFY_RETRY_BASE_SECONDS,
    retryMaxSeconds: values.NOTIFY_RETRY_MAX_SECONDS,
    hourlyCap: values.NOTIFY_HOURLY_CAP,
    lockMs,
    batchSize: 25,
    digestSize: 500,
  };
}

function turnstileSettings(values: SettingValues): AppConfig["turnstile"] {
  const siteKey = values.TURNSTILE_SITE_KEY;
  const secretKey = values.TURNSTILE_SECRET_KEY;
  return { enabled: siteKey !== "" && secretKey !== "", siteKey, secretKey, verifyUrl: values.TURNSTILE_VERIFY_URL };
}
