import type { SettingValues } from "./settings";

/** The joiner's journey's settings (docs/configuration.md), from the parsed settings (settings.ts). */
export type WaitlistConfig = {
  /** WAITLIST_DOUBLE_OPT_IN: joins wait for the e-mailed confirmation (true) or are confirmed at once. */
  doubleOptIn: boolean;
  /** How long a confirmation link works. */
  confirmTtlSeconds: number;
  /** Places one confirmed referral moves its referrer up (rank_key is written with the value in force then). */
  referralBoost: number;
  /** Confirmed referrals of one referrer from one client network that flag it for the operator. */
  networkFlag: number;
  /** Confirmation and welcome e-mails one mailbox may be sent per UTC day, whatever the client. */
  confirmDailyLimit: number;
  /** Confirmation and welcome e-mails to all visitors per UTC day; past it they wait in the outbox. */
  visitorMailDailyBudget: number;
  /** MINOR_REFERRAL_REWARDS: whether a minor's (under 18) confirmed referrals move them up the line. */
  minorReferralRewards: boolean;
  /** JOIN_DB_TIMEOUT_MS: past it the public join's database call counts as refused, and the join waits on the joins queue. */
  dbTimeoutMs: number;
};

export function waitlistSettings(values: SettingValues): WaitlistConfig {
  return {
    doubleOptIn: values.WAITLIST_DOUBLE_OPT_IN,
    confirmTtlSeconds: values.WAITLIST_CONFIRM_TTL_SECONDS,
    referralBoost: values.REFERRAL_BOOST,
    networkFlag: values.REFERRAL_NETWORK_FLAG,
    confirmDailyLimit: values.WAITLIST_CONFIRM_DAILY_LIMIT,
    visitorMailDailyBudget: values.VISITOR_EMAIL_DAILY_BUDGET,
    minorReferralRewards: values.MINOR_REFERRAL_REWARDS,
    dbTimeoutMs: values.JOIN_DB_TIMEOUT_MS,
  };
}
