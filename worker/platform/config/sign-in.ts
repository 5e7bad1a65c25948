import { CODE_LENGTH } from "../../shared/sign-in";
import type { RequestLimit, SettingValues } from "./settings";

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
  /** Code e-mails one exact address can receive per hour and per day, and a mailbox's other spellings together. */
  codeHourlyLimit: number;
  codeDailyLimit: number;
  /** Presenting the previous refresh token within this many seconds returns the current pair. */
  refreshReuseSeconds: 10;
  /** Per client, per route (admin: every /admin/* route together). */
  rateLimit: { otp: RequestLimit; verify: RequestLimit; token: RequestLimit; admin: RequestLimit };
};

/** Sign-in's settings (docs/configuration.md), from the parsed settings (settings.ts). */
export function authSettings(values: SettingValues): AuthConfig {
  const perWindow = (max: number): RequestLimit => ({ max, windowSeconds: values.AUTH_RATE_LIMIT_WINDOW_SECONDS });
  return {
    jwtSecret: values.AUTH_JWT_SECRET,
    adminKey: values.AUTH_ADMIN_KEY,
    accessTokenTtlSeconds: values.AUTH_ACCESS_TOKEN_TTL_SECONDS,
    codeTtlSeconds: values.AUTH_CODE_TTL_SECONDS,
    codeLength: CODE_LENGTH,
    codeMaxAttempts: 5,
    codeCooldownSeconds: values.AUTH_CODE_COOLDOWN_SECONDS,
    codeHourlyLimit: values.AUTH_CODE_HOURLY_LIMIT,
    codeDailyLimit: values.AUTH_CODE_DAILY_LIMIT,
    refreshReuseSeconds: 10,
    rateLimit: {
      otp: perWindow(values.AUTH_RATE_LIMIT_OTP),
      verify: perWindow(values.AUTH_RATE_LIMIT_VERIFY),
      token: perWindow(values.AUTH_RATE_LIMIT_TOKEN),
      admin: perWindow(values.AUTH_RATE_LIMIT_ADMIN),
    },
  };
}
