/**
 * The operator API's statistics (GET /api/admin/stats) as the console reads them: the breakdowns,
 * the referrers, the age bands and the parents' outcomes (worker/shared/admin.ts re-exports them).
 */
import type { Funnel, ReferralClusters, VoidedReferrals } from "./admin-launch";
import type { AgeBandStored } from "./age";
import type { RetentionStats } from "./retention";

/** How many referrers the stats name, most confirmed referrals first. */
export const REFERRERS_TOP = 10;

/** How many flagged referrers the stats name at most (most referrals from one network first). */
export const FLAGGED_TOP = 50;

/** How many values a breakdown names; the entries of every other value are summed as `other`. */
export const BREAKDOWN_TOP = 20;

/**
 * Where the entries of one column come from (utm_source, placement...): a list, never an object
 * keyed by value, so any value a visitor sent ("constructor", "__proto__", "(none)") is only text.
 */
export type Breakdown = {
  /** The BREAKDOWN_TOP values with the most entries, most first (equal counts by value). */
  top: { value: string; count: number }[];
  /** Entries without a value (no utm_source, no placement...), apart from any value's own row. */
  none: number;
  /** The values beyond the top: how many there are, and their entries together (0 and 0: none). */
  other: { values: number; count: number };
};

/** A referrer as the stats name it: its address (operators see addresses in the lists anyway) and code. */
export type Referrer = { email: string; code: string; referrals: number };

export type AdminStats = {
  /** From joining to an invitation, in counts that add up. */
  funnel: Funnel;
  waitlist: {
    total: number;
    /** Waiting for the e-mailed confirmation, and confirmed (pending + confirmed = total). */
    pending: number;
    confirmed: number;
    /** confirmed / total, from 0 to 1 (0 while the list is empty). */
    confirmationRate: number;
    last24h: number;
    last7d: number;
    /** By the form's placement ("hero", "cta"). */
    bySource: Breakdown;
    byUtmSource: Breakdown;
    byUtmMedium: Breakdown;
    byUtmCampaign: Breakdown;
    byReferrerHost: Breakdown;
    /** The last STATS_DAYS days (UTC dates, oldest first, today last), days without sign-ups as 0. */
    byDay: { date: string; count: number }[];
  };
  referrals: {
    /** Referrals that counted: friends who joined with a code and confirmed (the referrers' referrals_confirmed summed). */
    confirmed: number;
    /** Confirmed referrals per confirmed joiner (0 while nobody confirmed). */
    viralCoefficient: number;
    /** The REFERRERS_TOP referrers with the most confirmed referrals (ties: the earlier confirmation first). */
    top: Referrer[];
    /**
     * Referrers with at least `flagAt` (REFERRAL_NETWORK_FLAG) confirmed referrals from one client
     * network (IPv4 address or IPv6 /64): flagged for a look, never blocked (a school shares one).
     * `fromOneNetwork` is the most from one network; the network itself is never named.
     */
    flagged: (Referrer & { fromOneNetwork: number })[];
    /** How each flagged referrer's referrals cluster (issue 22), by code, in flagged's order; absent when none is flagged. */
    clusters?: (ReferralClusters & { code: string })[];
    /** Per flagged referrer, its voided referrals (admin-launch.ts VoidedReferrals); absent when none is flagged. */
    voided?: VoidedReferrals[];
    flagAt: number;
  };
  /** Messages by form (its slug). */
  submissions: { total: number; byForm: Breakdown };
  notifications: { undelivered: number; oldestUndeliveredAt: string | null };
  /**
   * Of the undelivered, those whose last attempt failed (the provider refused, no COMPANY_EMAIL...),
   * retried with a back-off, and the earliest next attempt (null: none, or at the next run). The
   * rest of the undelivered never failed: they wait for the next run's digest.
   */
  failedNotifications: { count: number; nextAttemptAt: string | null };
  /** The joiner's e-mails this UTC day: VISITOR_EMAIL_DAILY_BUDGET, sent, and waiting (past the budget; the cron sends them oldest first once a day has budget). */
  visitorMail: { budget: number; sentToday: number; waiting: number };
  /** E-mails whose mail-queue batch could not be recorded through every retry (GET /api/admin/mail/dead-letters lists them). */
  mailDeadLetters: number;
  /** The retention schedule and what it deleted (issue 23). */
  retention: RetentionStats;
  /** The waitlist by age, and the parents' answers (issue 23). */
  ages: AgeStats;
  parents: ParentStats;
};

/**
 * The waitlist's entries by age band (issue 23 §6). Entries a parent agreed to on behalf of a
 * child are counted apart (their band is the child's); every other entry is counted under its own
 * band, "unknown" for entries made before the age question. Under 13 never joins on its own, so
 * `byBand.under_13` stays 0 (the console shows it only if it is not). byBand's counts and
 * onBehalfOfChild.total add up to the waitlist's total.
 */
export type AgeStats = {
  byBand: Record<AgeBandStored, number>;
  onBehalfOfChild: { total: number; byBand: Record<AgeBandStored, number> };
};

/** What became of parental requests: agreed, declined, or deleted unanswered by the retention cron. */
export type ParentOutcomes = { agreed: number; declined: number; expired: number };

/**
 * Parental requests (issue 23 §2): how many wait for a parent's answer now, and the answers (and
 * requests deleted unanswered) this UTC day and over the last STATS_DAYS days, today included, as
 * the retention stats count.
 */
export type ParentStats = {
  /** Requests stored and not answered yet (hwh_parental_requests). */
  pending: number;
  /** When the oldest of them was made (null: none waits). */
  oldestPendingAt: string | null;
  today: ParentOutcomes;
  lastDays: ParentOutcomes;
};
