/**
 * The retention schedule's kinds (issue 23; the cron's worker/features/retention/), shared with
 * the console: what the schedule deletes, each counted per UTC day under its name. The audit log
 * and confirmed entries are not among them: they stay until erased.
 */
export const RETENTION_KINDS = [
  /** Waitlist entries never confirmed, past RETENTION_UNCONFIRMED_DAYS since their last join (with their unsent e-mails). */
  "unconfirmed_entries",
  /** The client network hashes of referred confirmations, past RETENTION_REFERRAL_NETWORK_DAYS (cleared, the entry stays). */
  "referral_networks",
  /** Contact form messages, past RETENTION_CONTACT_DAYS. */
  "contact_messages",
  /** A child's requests for a parent's consent nobody answered, past RETENTION_PARENTAL_REQUEST_DAYS since they were made. */
  "parental_requests",
] as const;

export type RetentionKind = (typeof RETENTION_KINDS)[number];

/**
 * The schedule as the privacy policy publishes it (web/src/legal-content.ts prints these), and
 * so the RETENTION_* settings' defaults (worker/platform/config/settings.ts). The site is built
 * once and the policy is part of it, so these are the one place to change the schedule:
 * production refuses a RETENTION_* setting that differs from them (/api/health names it), so the
 * cron never keeps to a schedule other than the published one. Development may try others.
 */
export const PUBLISHED_RETENTION_DAYS = {
  RETENTION_UNCONFIRMED_DAYS: 30,
  RETENTION_PARENTAL_REQUEST_DAYS: 7,
  RETENTION_REFERRAL_NETWORK_DAYS: 30,
  RETENTION_CONTACT_DAYS: 365,
} as const;

/** GET /api/admin/stats's `retention`: the schedule in force and what it deleted. */
export type RetentionStats = {
  /** Each kind's days, as the settings say now. */
  schedule: Record<RetentionKind, number>;
  /** Deleted (or cleared) this UTC day, and in the last STATS_DAYS days with today, per kind. */
  today: Record<RetentionKind, number>;
  lastDays: Record<RetentionKind, number>;
  /** The last day anything was deleted (YYYY-MM-DD), or null: never. */
  lastDeletionDay: string | null;
};
