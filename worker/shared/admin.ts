import type { AgeBandStored } from "./age";
import type { Attribution } from "./waitlist";

export * from "./admin-stats";

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
