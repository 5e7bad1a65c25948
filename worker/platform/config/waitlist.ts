import type { Settings } from "./config";

/** The joiner's journey's settings (docs/configuration.md), read by worker/platform/config/config.ts. */
export type WaitlistConfig = {
  /** WAITLIST_DOUBLE_OPT_IN: joins wait for the e-mailed confirmation (true) or are confirmed at once. */
  doubleOptIn: boolean;
  /** How long a confirmation link works. */
  confirmTtlSeconds: number;
  /** Places one confirmed referral moves its referrer up (rank_key is written with the value in force then). */
  referralBoost: number;
  /** Confirmed referrals of one referrer from one client network that flag it for the operator. */
  networkFlag: number;
  /** Confirmation e-mails one address may be sent per UTC day, whatever the client. */
  confirmDailyLimit: number;
};

type IntegerSetting = (name: keyof Settings, fallback: number, min: number, max: number) => number;

export function waitlistSettings(env: Settings, integerSetting: IntegerSetting, invalid: string[]): WaitlistConfig {
  // "true" or "false" (any case); unset takes the default, anything else is reported (and the default kept).
  const optIn = (env.WAITLIST_DOUBLE_OPT_IN ?? "").trim().toLowerCase();
  if (optIn !== "" && optIn !== "true" && optIn !== "false") invalid.push("WAITLIST_DOUBLE_OPT_IN (true or false)");
  return {
    doubleOptIn: optIn !== "false",
    confirmTtlSeconds: integerSetting("WAITLIST_CONFIRM_TTL_SECONDS", 7 * 86_400, 60, 90 * 86_400),
    referralBoost: integerSetting("REFERRAL_BOOST", 5, 0, 1000),
    networkFlag: integerSetting("REFERRAL_NETWORK_FLAG", 5, 1, 1_000_000),
    confirmDailyLimit: integerSetting("WAITLIST_CONFIRM_DAILY_LIMIT", 3, 1, 100),
  };
}
