import { PUBLISHED_RETENTION_DAYS } from "../../shared/retention";
import type { SettingValues } from "./settings";

/**
 * The retention schedule (docs/configuration.md; issue 23): how many days each kind of record is
 * kept before the cron deletes it (worker/features/retention/). The audit log and confirmed
 * entries are not in it: they stay until erased.
 */
export type RetentionConfig = {
  /** RETENTION_UNCONFIRMED_DAYS: a waitlist entry never confirmed, counted from its last join. */
  unconfirmedDays: number;
  /** RETENTION_PARENTAL_REQUEST_DAYS: a parent's consent request nobody answered. */
  parentalRequestDays: number;
  /** RETENTION_REFERRAL_NETWORK_DAYS: the keyed hash of the client network of a referred confirmation. */
  referralNetworkDays: number;
  /** RETENTION_CONTACT_DAYS: a contact form's message. */
  contactDays: number;
};

export function retentionSettings(values: SettingValues): RetentionConfig {
  return {
    unconfirmedDays: values.RETENTION_UNCONFIRMED_DAYS,
    parentalRequestDays: values.RETENTION_PARENTAL_REQUEST_DAYS,
    referralNetworkDays: values.RETENTION_REFERRAL_NETWORK_DAYS,
    contactDays: values.RETENTION_CONTACT_DAYS,
  };
}

/** Each part's setting. */
const SETTING: Record<keyof RetentionConfig, keyof typeof PUBLISHED_RETENTION_DAYS> = {
  unconfirmedDays: "RETENTION_UNCONFIRMED_DAYS",
  parentalRequestDays: "RETENTION_PARENTAL_REQUEST_DAYS",
  referralNetworkDays: "RETENTION_REFERRAL_NETWORK_DAYS",
  contactDays: "RETENTION_CONTACT_DAYS",
};

/** The RETENTION_* settings whose days differ from what the privacy policy publishes (production refuses them). */
export function unpublishedRetention(config: RetentionConfig): string[] {
  return (Object.keys(SETTING) as (keyof RetentionConfig)[])
    .filter((part) => config[part] !== PUBLISHED_RETENTION_DAYS[SETTING[part]])
    .map((part) => SETTING[part]);
}
