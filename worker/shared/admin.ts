/**
 * The operator API under /api/admin (worker/features/operator/routes.ts) as its one caller, the console
 * (web/src/admin), reads it: paths, limits and the JSON shapes. Field names are the API's
 * (snake_case, like the database columns and GoTrue's JSON).
 */
import type { Funnel, ReferralClusters, VoidedReferrals } from "./admin-launch";
import type { AgeBandStored } from "./age";
import type { RetentionStats } from "./retention";
import type { Attribution } from "./waitlist";

/** Where the operator API lives. */
export const ADMIN_API = "/api/admin";

/** Rows per page of a list: `limit` when the request gives none, and the most it may ask for. */
export const ADMIN_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

/** How many days the sign-ups chart of the stats covers (today included). */
export const STATS_DAYS = 30;

export { ATTRIBUTION_FIELDS, ATTRIBUTION_MAX_LENGTH, type Attribution, type AttributionField } from "./waitlist";
/** What every notified record says about its notification e-mail. */
export type DeliveryStatus = {
  email_sent: boolean;
  email_sent_at: string | null;
  notify_attempts: number;
  notify_last_error: string | null;
  /**
   * When the next attempt is due after a failed one (null: at the next run). Undelivered without
   * a last error: no attempt failed, it waits for the next run (a digest past the hour's cap).
   */
  notify_next_attempt_at: string | null;
};

/** Where a joiner is: waiting for the e-mailed confirmation, or confirmed (with a place in line). */
export type EntryStatus = "pending" | "confirmed";

/** The joiner's journey of one entry (issue 16): confirmation, place in line and referrals. */
export type JourneyFields = {
  status: EntryStatus;
  confirmed_at: string | null;
  /** The place in line now (null while pending): docs/api.md "The place in line". */
  place: number | null;
  /** The entry's own code (given at confirmation), which its referral link carries. */
  referral_code: string | null;
  /** The code the entry joined with (a known code only). */
  referred_by: string | null;
  /** Friends who joined with this entry's code and confirmed (its own mailbox never counts). */
  referrals_confirmed: number;
};

/** The journey's fields in the order the waitlist's export and the person look-up show them. */
export const JOURNEY_FIELDS = [
  "status",
  "confirmed_at",
  "place",
  "referral_code",
  "referred_by",
  "referrals_confirmed",
] as const satisfies readonly (keyof JourneyFields)[];

/** Launch day (issue 17): the invite wave that drew the entry, so the next wave continues down the line. */
export type InvitedFields = {
  /** When an invite wave drew the entry; null: not invited yet. */
  invited_at: string | null;
  /** The campaign of that wave (GET /api/admin/campaigns/:id). */
  invited_campaign_id: number | null;
};

/** The invited fields in the order the waitlist's export shows them (after the journey's). */
export const INVITED_FIELDS = ["invited_at", "invited_campaign_id"] as const satisfies readonly (keyof InvitedFields)[];

/**
 * Students and their parents (issue 23): the entry's age band (never the birth date; "unknown" for
 * entries made before the question), the visitor's country, and whether a parent or guardian
 * agreed to it on behalf of a child (then the address is the parent's, and the band the child's).
 */
export type AgeFields = {
  age_band: AgeBandStored;
  /** ISO 3166-1 alpha-2 as Cloudflare read it when the entry was made; null: not known. */
  country: string | null;
  on_behalf_of_child: boolean;
};

/** The age fields in the order the waitlist's export shows them (after the invited fields). */
export const AGE_FIELDS = ["age_band", "country", "on_behalf_of_child"] as const satisfies readonly (keyof AgeFields)[];

export type AdminWaitlistEntry = {
  id: number;
  email: string;
  source: string | null;
  created_at: string;
  updated_at: string;
  /** When an operator held the entry out of invite waves (issue 22); null: waves may draw it. */
  held_at: string | null;
} & Attribution &
  JourneyFields &
  InvitedFields &
  AgeFields &
  DeliveryStatus;

export {
  ADMIN_ENTRY,
  type AdminListedEntry,
  type EntryVoided,
  type Funnel,
  type ReferralClusters,
  type HoldRequest,
  REASON_MAX_LENGTH,
  type VoidRequest,
} from "./admin-launch";

export type AdminSubmission = {
  id: number;
  /** The form's slug, e.g. "contact". */
  form: string;
  /** The fields as submitted (validated), by the form definition's field names. */
  fields: Record<string, unknown>;
  created_at: string;
} & DeliveryStatus;

/**
 * One page of a list, newest first; `next_cursor` asks for the following page (null: no more);
 * `total` is how many rows match the search in all pages together (counted with the page).
 */
export type AdminPage<T> = { items: T[]; next_cursor: string | null; total: number };

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

/**
 * The consent record of a waitlist entry (the operator's look-up, like /api/me/data's): for an entry
 * on behalf of a child, when the parent agreed and the parent's address (the entry's own); for an
 * entry the person made themselves, when they confirmed their address (null: not yet) and that address.
 */
export type ConsentRecord = { at: string | null; by: string; on_behalf_of_child: boolean };

export type AdminSession = {
  id: string;
  created_at: string;
  updated_at: string;
  refreshed_at: string | null;
  user_agent: string | null;
  ip: string | null;
};

export type AdminUser = {
  id: string;
  email: string;
  email_confirmed_at: string | null;
  last_sign_in_at: string | null;
  user_metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  sessions: AdminSession[];
};

/**
 * The data-protection routes take the person's address in a JSON body ({"email": ...}), never in
 * the path: request lines are logged (wrangler, Workers Logs), bodies are not.
 */
export const ADMIN_PEOPLE = { lookup: "/people/lookup", erase: "/people/erase" } as const;

/** The body of both people routes. */
export type PersonRequest = { email: string };

/** POST /api/admin/people/lookup: everything stored about one address. */
export type PersonRecord = {
  email: string;
  waitlist: AdminWaitlistEntry | null;
  submissions: AdminSubmission[];
  user: AdminUser | null;
  /**
   * The record of the last sign-in code sent to the address (times only; the code is never
   * shown): `usable` while it can still be used, false once it was used, worn out or expired.
   */
  sign_in_code: { sent_at: string; expires_at: string; usable: boolean } | null;
  /** The waitlist entry's consent record (null: no entry). */
  consent: ConsentRecord | null;
  /**
   * Children's requests waiting for this address's answer as their parent or guardian (issue 23),
   * oldest first: only what they keep (never the child's address), and when the e-mail went.
   */
  parental_requests: { created_at: string; age_band: AgeBandStored; country: string | null; sent_at: string | null }[];
};

/** POST /api/admin/people/erase: how many records were erased. */
export type ErasureCounts = { waitlist: number; submissions: number; users: number };

/** POST /api/admin/notifications/retry. */
export type RetryResult = { requeued: number };

/** Error codes of the operator API besides the API's usual ones (invalid_request, rate_limited...). */
export const ADMIN_ERRORS = {
  /** 401: no credentials, or a token that is not valid (expired, signed out). */
  notSignedIn: "not_signed_in",
  /** 403: a valid token of an address that is not in OPERATOR_EMAILS. */
  notOperator: "not_operator",
  /** 404: no waitlist entry with that id (an action on one entry). */
  entryNotFound: "entry_not_found",
  /** 409: the entry gave no referral credit that still counts (none, or voided already). */
  noReferralCredit: "no_referral_credit",
} as const;
