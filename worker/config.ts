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
  auth: AuthConfig;
};

/** Sign-in settings. The rules the product promises (6 digits, 5 attempts, 10 s) are constants. */
export type AuthConfig = {
  /** Signs access tokens and keys the code and refresh-token hashes; at least 32 characters. */
  jwtSecret: string;
  /** The privileged service key of the admin routes; empty means the admin routes refuse everyone. */
  adminKey: string;
  accessTokenTtlSeconds: number;
  codeTtlSeconds: number;
  codeLength: 6;
  /** Wrong codes a code survives; the next wrong one (or the right one) is one too many. */
  codeMaxAttempts: 5;
  /** One code request per e-mail address per this many seconds (60 unless configured). */
  codeCooldownSeconds: number;
  /** Presenting the previous refresh token within this many seconds returns the current pair. */
  refreshReuseSeconds: 10;
  /** Per client IP, per route, per window. */
  rateLimit: { windowSeconds: number; otp: number; verify: number; token: number };
};

export const MIN_JWT_SECRET_LENGTH = 32;

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
    | "NOTIFY_RETRY_BASE_SECONDS"
    | "AUTH_JWT_SECRET"
    | "AUTH_ADMIN_KEY"
    | "AUTH_ACCESS_TOKEN_TTL_SECONDS"
    | "AUTH_CODE_TTL_SECONDS"
    | "AUTH_CODE_COOLDOWN_SECONDS"
    | "AUTH_RATE_LIMIT_WINDOW_SECONDS"
    | "AUTH_RATE_LIMIT_OTP"
    | "AUTH_RATE_LIMIT_VERIFY"
    | "AUTH_RATE_LIMIT_TOKEN",
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
    auth: {
      jwtSecret: (env.AUTH_JWT_SECRET ?? "").trim(),
      adminKey: (env.AUTH_ADMIN_KEY ?? "").trim(),
      accessTokenTtlSeconds: integerSetting(env.AUTH_ACCESS_TOKEN_TTL_SECONDS, 3600, 60, 86_400),
      codeTtlSeconds: integerSetting(env.AUTH_CODE_TTL_SECONDS, 600, 60, 86_400),
      codeLength: 6,
      codeMaxAttempts: 5,
      codeCooldownSeconds: integerSetting(env.AUTH_CODE_COOLDOWN_SECONDS, 60, 1, 3600),
      refreshReuseSeconds: 10,
      rateLimit: {
        windowSeconds: integerSetting(env.AUTH_RATE_LIMIT_WINDOW_SECONDS, 300, 1, 86_400),
        otp: integerSetting(env.AUTH_RATE_LIMIT_OTP, 30, 1, 1_000_000),
        verify: integerSetting(env.AUTH_RATE_LIMIT_VERIFY, 30, 1, 1_000_000),
        token: integerSetting(env.AUTH_RATE_LIMIT_TOKEN, 150, 1, 1_000_000),
      },
    },
  };
}
