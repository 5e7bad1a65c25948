/**
 * Every setting the worker reads, in one typed object. Plain settings are [vars] in
 * wrangler.toml; secrets come from `wrangler secret put` or .dev.vars. The README's
 * configuration table lists the same names.
 */
export type AppConfig = {
  environment: string;
  isProduction: boolean;
  /** Who receives the notification e-mails (COMPANY_EMAIL, comma-separated). */
  companyEmails: string[];
  mail: {
    apiUrl: string;
    /** Empty when not configured: the dev mailbox (outside production) or a loud failure. */
    token: string;
    model: string;
    projectId: string;
    templates: { waitlist: string; form: string };
    timeoutMs: number;
  };
  notify: {
    maxAttempts: number;
    retryBaseSeconds: number;
    /** Longest single wait between two attempts. */
    retryMaxSeconds: number;
    /** How long a sender keeps its claim on a notification: longer than any send can take. */
    lockMs: number;
    /** How many notifications one cron run retries per table. */
    batchSize: number;
  };
};

type ConfigSource = Partial<
  Record<
    | "ENVIRONMENT"
    | "COMPANY_EMAIL"
    | "MAIL_API_URL"
    | "MAIL_PROVIDER_TOKEN"
    | "MAIL_MODEL"
    | "MAIL_PROJECT_ID"
    | "MAIL_TEMPLATE_WAITLIST"
    | "MAIL_TEMPLATE_FORM"
    | "MAIL_TIMEOUT_MS"
    | "NOTIFY_MAX_ATTEMPTS"
    | "NOTIFY_RETRY_BASE_SECONDS",
    string
  >
>;

/** A whole number within [min, max]; anything else falls back to the default. */
function integerSetting(raw: string | undefined, fallback: number, min: number, max: number): number {
  const value = Number(raw);
  return raw !== undefined && raw.trim() !== "" && Number.isInteger(value) && value >= min && value <= max
    ? value
    : fallback;
}

export function readConfig(env: ConfigSource): AppConfig {
  const environment = (env.ENVIRONMENT || "production").trim();
  const timeoutMs = integerSetting(env.MAIL_TIMEOUT_MS, 10_000, 1, 120_000);
  return {
    environment,
    isProduction: environment === "production",
    companyEmails: (env.COMPANY_EMAIL ?? "")
      .split(",")
      .map((address) => address.trim())
      .filter(Boolean),
    mail: {
      apiUrl: (env.MAIL_API_URL ?? "").trim(),
      token: (env.MAIL_PROVIDER_TOKEN ?? "").trim(),
      model: env.MAIL_MODEL ?? "",
      projectId: env.MAIL_PROJECT_ID ?? "",
      templates: { waitlist: env.MAIL_TEMPLATE_WAITLIST ?? "", form: env.MAIL_TEMPLATE_FORM ?? "" },
      timeoutMs,
    },
    notify: {
      maxAttempts: integerSetting(env.NOTIFY_MAX_ATTEMPTS, 8, 1, 100),
      retryBaseSeconds: integerSetting(env.NOTIFY_RETRY_BASE_SECONDS, 300, 1, 86_400),
      retryMaxSeconds: 6 * 60 * 60,
      lockMs: timeoutMs + 60_000,
      batchSize: 25,
    },
  };
}
