/**
 * Launch-day campaigns as the operator API (/api/admin/campaigns, worker/features/campaigns/routes.ts)
 * and its one caller, the console's Campaigns view (web/src/admin), read them: paths, limits and
 * JSON shapes. Field names are the API's (snake_case, like the other operator routes).
 */

/** Where the campaigns live under the operator API. */
export const CAMPAIGNS_API = "/api/admin/campaigns";

/** What a campaign may hold (characters): a subject line, a body of paragraphs and links. */
export const CAMPAIGN_LIMITS = { subjectMax: 150, bodyMax: 20_000, waveMax: 1_000_000 } as const;

/** A text's length as CAMPAIGN_LIMITS counts it: by code points (an emoji is one, not two UTF-16 units). */
export const characterCount = (text: string): number => [...text].length;

/**
 * How often the console reads a running campaign's progress (ms). Every read counts against the
 * operator's OPERATOR_LIMITER (wrangler.toml: 150 a minute per client network): one read each
 * 5 s is 12 of them, leaving the rest of the console its room on launch day.
 */
export const CAMPAIGN_POLL_MS = 5_000;

export type CampaignStatus = "draft" | "scheduled" | "sending" | "paused" | "cancelled" | "sent";

export type RecipientStatus = "queued" | "sending" | "sent" | "failed" | "skipped";

/** Why a recipient was not sent to. */
export type SkipReason = "unsubscribed" | "bounced" | "complained" | "erased" | "cancelled";

/**
 * Who a campaign goes to: every confirmed entry, or an invite wave (the first `size` confirmed
 * entries by place in line not yet invited); either only of one utm_source when given.
 */
export type CampaignAudience = { kind: "all"; utm_source?: string | null } | { kind: "wave"; size: number; utm_source?: string | null };

/** How a campaign's row stores its audience (hwh_campaigns: audience_kind, wave_size, utm_source). */
export type StoredAudience = { audienceKind: "all" | "wave"; waveSize: number | null; utmSource: string | null };

/** A stored campaign's audience, as the API spells it. */
export function audienceOf(stored: StoredAudience): CampaignAudience {
  return stored.audienceKind === "wave"
    ? { kind: "wave", size: stored.waveSize ?? 0, utm_source: stored.utmSource }
    : { kind: "all", utm_source: stored.utmSource };
}

/** The columns that store an audience (audienceOf's inverse). */
export function audienceColumns(audience: CampaignAudience): StoredAudience {
  return {
    audienceKind: audience.kind,
    waveSize: audience.kind === "wave" ? audience.size : null,
    utmSource: audience.utm_source ?? null,
  };
}

/** POST /api/admin/campaigns (a draft) and PATCH /api/admin/campaigns/:id (a draft only). */
export type CampaignDraftInput = { subject: string; body: string; audience: CampaignAudience };

/** What the recipients' rows say, counted: sending is claimed but not yet settled. */
export type CampaignCounts = Record<RecipientStatus, number>;

/** What the console shows of a campaign's progress while it runs and after. */
export type CampaignProgress = {
  counts: CampaignCounts;
  /** Recipient rows expanded so far (the audience once expansion finished). */
  expanded: number;
  /** Whether every recipient row exists. */
  expansion_done: boolean;
  /** Sent per second over the last minute (0 when none). */
  rate_per_second: number;
  /** Seconds until the rest are sent at that rate; null when not sending or no rate yet. */
  seconds_left: number | null;
  /** Recipients whose queue message reached the dead-letter queue (failed for good until retried). */
  dead_lettered: number;
  /**
   * The audience confirmed when sending started ("Send to N people?"), known before any row
   * exists; null before sending (and for campaigns started before it was stored).
   */
  target: number | null;
  /**
   * Not yet sent to and still to be: the rows queued or sending, plus, while the list is still
   * being prepared, the target's people who have no row yet. 0 once cancelled or sent.
   */
  unsent: number;
  /**
   * Not sent because the campaign was cancelled: rows skipped "cancelled" plus the target's
   * people whose rows were never prepared (a cancel before expansion finished).
   */
  cancelled: number;
};

export type CampaignJson = {
  id: number;
  subject: string;
  body: string;
  audience: CampaignAudience;
  status: CampaignStatus;
  /** Before sending: the audience's size now; once expanded: the recipients it was expanded to. */
  audience_size: number;
  send_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  progress: CampaignProgress;
  /**
   * What the e-mail transport cannot do for this campaign, in words for the operator (e.g. the
   * provider cannot set the List-Unsubscribe headers: the body's link still works); [] when nothing.
   */
  transport_warnings: string[];
  /** Sender settings sending needs and lacks (SENDER_NAME, SENDER_POSTAL_ADDRESS); [] when set. */
  missing_settings: string[];
};

/** GET /api/admin/campaigns: newest first. */
export type CampaignList = { campaigns: CampaignJson[] };

/** How many of an invite wave's first entries the composer lists (issue 22): at most the wave's size. */
export const WAVE_PREVIEW = 20;

/** One of an invite wave's first entries, as the wave would draw it (issue 22). */
export type WaveEntry = {
  id: number;
  email: string;
  /** Its place in line, which the wave records. */
  place: number;
  referral_code: string | null;
  referred_by: string | null;
  referrals_confirmed: number;
  /** Its most confirmed referrals from one network when that flags it (REFERRAL_NETWORK_FLAG), else null. */
  flagged_from_one_network: number | null;
  /** Whether the referrer it joined through is flagged. */
  referred_by_flagged: boolean;
};

/**
 * Who an invite wave would draw (issue 22): its first WAVE_PREVIEW entries by place, how many
 * flagged referrers the whole wave holds (`flagged`) and how many of its entries joined through
 * one (`flagged_friends`), and how many entries it skips because an operator held them out of waves.
 */
export type WavePreview = { first: WaveEntry[]; flagged: number; flagged_friends: number; held: number };

/**
 * POST /api/admin/campaigns/audience: the size of an audience before anything is saved, and for a
 * wave who it draws first (null for "all"). `age_unknown`: how many of the audience joined before
 * the age question (age band "unknown", issue 23), whom the team's rule sends no campaign until
 * they answered it (README "Entries from before the question"): the console says so before sending.
 */
export type AudienceSize = { audience_size: number; wave: WavePreview | null; age_unknown: number };

/** POST /api/admin/campaigns/:id/preview: the e-mail as a recipient would get it (a sample recipient). */
export type CampaignPreview = { title: string; html: string; text: string; headers: Record<string, string> };

/** POST /api/admin/campaigns/:id/test: sent to the operator's own address (the admin key names one in `to`). */
export type CampaignTestResult = { sent_to: string };

/** POST /api/admin/campaigns/:id/send: now, or at `send_at` (ISO 8601, in the future). */
export type CampaignSendInput = { send_at?: string | null };

/** One recipient whose message reached the dead-letter queue, as the console lists it. */
export type DeadLetter = {
  recipient_id: number;
  email: string | null;
  attempts: number;
  last_error: string | null;
  dead_lettered_at: string;
};

/** GET /api/admin/campaigns/:id/dead-letters; POST …/dead-letters/retry re-queues them (all, or `recipient_ids`). */
export type DeadLetterList = { dead_letters: DeadLetter[] };

/** Campaign error codes beyond the operator API's own (ADMIN_ERRORS). */
export const CAMPAIGN_ERRORS = {
  /** 404: no campaign with that id. */
  notFound: "campaign_not_found",
  /** 409: the action does not apply in the campaign's status (e.g. editing a campaign that was sent). */
  wrongStatus: "campaign_wrong_status",
  /** 409: SENDER_NAME or SENDER_POSTAL_ADDRESS is not set; the message names them. */
  senderMissing: "sender_not_configured",
  /** 400: the audience is empty (nothing to send). */
  emptyAudience: "campaign_empty_audience",
} as const;
