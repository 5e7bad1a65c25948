import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTableCreator, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { AgeBandStored } from "../../shared/age";

/** The project prefix of every table name. Change it here and regenerate the migrations. */
export const TABLE_PREFIX = "hwh";

const table = sqliteTableCreator((name) => `${TABLE_PREFIX}_${name}`);

/**
 * Columns every notified record carries. A sender "claims" a notification by writing a random
 * notify_claim and a notify_locked_until lease in one conditional update, so the inline delivery
 * and the cron retry never send the same e-mail at once, and only the current claim's holder can
 * record the outcome; notify_next_attempt_at holds the backoff after a failure.
 * Timestamps are ISO 8601 strings (UTC, millisecond precision), which sort as text.
 */
const deliveryColumns = () => ({
  emailSent: integer("email_sent", { mode: "boolean" }).notNull().default(false),
  emailSentAt: text("email_sent_at"),
  notifyAttempts: integer("notify_attempts").notNull().default(0),
  notifyLastError: text("notify_last_error"),
  notifyNextAttemptAt: text("notify_next_attempt_at"),
  notifyLockedUntil: text("notify_locked_until"),
  notifyClaim: text("notify_claim"),
});

export const waitlist = table(
  "waitlist",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Trimmed and lower-cased; the unique index makes concurrent joins produce one row. */
    email: text("email").notNull().unique(),
    /** Which placement of the form the visitor used (e.g. "hero", "cta"), if the page said. */
    source: text("source"),
    /** Attribution sent with the join (worker/shared/waitlist.ts): the landing address's campaign, the linking host. */
    utmSource: text("utm_source"),
    utmMedium: text("utm_medium"),
    utmCampaign: text("utm_campaign"),
    referrerHost: text("referrer_host"),
    ...deliveryColumns(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    // The joiner's journey (worker/features/waitlist/*, worker/features/waitlist/queries/journey.ts). A confirmed entry
    // has confirmed_at, confirm_seq, referral_code and rank_key, all written by one statement.
    /** When the joiner confirmed the address (or the join was confirmed at once); null: pending. */
    confirmedAt: text("confirmed_at"),
    /** 1, 2, 3... in order of confirmation (the unique index makes two confirmations never share one). */
    confirmSeq: integer("confirm_seq"),
    /** The entry's own referral code (8 characters, worker/features/referrals/code.ts), given at confirmation. */
    referralCode: text("referral_code"),
    /** The referral code the join came with, kept only if it was a known code then. */
    referredBy: text("referred_by"),
    /**
     * While pending, the random value of the join that carried referred_by: its confirmation
     * e-mail's link carries it, and only a confirmation through such a link counts the referral
     * (worker/features/waitlist/confirm.ts). A later join without that ref clears both; cleared
     * when the entry is confirmed.
     */
    referralJoin: text("referral_join"),
    /** Confirmed referrals this entry brought (never its own mailbox's). */
    referralsConfirmed: integer("referrals_confirmed").notNull().default(0),
    /** confirm_seq - REFERRAL_BOOST x referrals_confirmed (the boost in force when each was counted); place orders by it. */
    rankKey: integer("rank_key"),
    /** Keyed hash of the folded mailbox (worker/features/sign-in/mailbox.ts), for the self-referral rule; never the address. */
    mailboxKey: text("mailbox_key").notNull().default(""),
    /** Keyed hash of the client network (IPv4 address or IPv6 /64) that confirmed a referred entry. */
    referralNetwork: text("referral_network"),
    /** The random token of the one confirmation that won, so its referral is counted once. */
    confirmClaim: text("confirm_claim"),
    // Launch day (worker/features/campaigns/*): the invite wave that drew this entry, so the next wave
    // continues down the line.
    /** When an invite wave drew the entry (its expansion); null: not invited yet. */
    invitedAt: text("invited_at"),
    /** The campaign (hwh_campaigns.id) of that wave. */
    invitedCampaignId: integer("invited_campaign_id"),
    /**
     * When an operator held the entry out of invite waves (a flagged referral ring, say); null:
     * waves may draw it. Reversible; the audit trail says who and when.
     */
    heldAt: text("held_at"),
    // Students and their parents (worker/features/age, worker/features/parents; issue 23).
    /**
     * The joiner's age band from the neutral age question (worker/shared/age.ts AGE_BANDS), never
     * the birth month or year; "unknown" for entries made before the question was asked.
     */
    ageBand: text("age_band").$type<AgeBandStored>().notNull().default("unknown"),
    /** The visitor's country when they joined (ISO 3166-1 alpha-2, Cloudflare's reading), if known. */
    country: text("country"),
    /** An entry a parent or guardian agreed to on behalf of a child under the consent age: the address is the parent's. */
    onBehalfOfChild: integer("on_behalf_of_child", { mode: "boolean" }).notNull().default(false),
    /** The consent record of such an entry: when the parent (the entry's own address) agreed. */
    parentalConsentAt: text("parental_consent_at"),
  },
  (t) => [
    index(`${TABLE_PREFIX}_waitlist_pending_idx`).on(t.emailSent, t.notifyNextAttemptAt),
    // The operator console's lists and the stats: newest first, and by day.
    index(`${TABLE_PREFIX}_waitlist_created_idx`).on(t.createdAt, t.id),
    uniqueIndex(`${TABLE_PREFIX}_waitlist_confirm_seq_idx`).on(t.confirmSeq),
    uniqueIndex(`${TABLE_PREFIX}_waitlist_referral_code_idx`).on(t.referralCode),
    // A place is two counts over this index, never a read of the rows: it holds the confirmed
    // entries only (rank_key is set exactly when confirmed), and the counts name nothing else, so
    // SQLite answers them from the index alone (a covering index).
    index(`${TABLE_PREFIX}_waitlist_rank_idx`).on(t.rankKey, t.confirmSeq).where(sql`${t.rankKey} is not null`),
    // The next invite wave: confirmed entries not invited yet, in order of place (rank_key, confirm_seq).
    index(`${TABLE_PREFIX}_waitlist_uninvited_rank_idx`)
      .on(t.rankKey, t.confirmSeq)
      .where(sql`${t.rankKey} is not null and ${t.invitedAt} is null`),
    // One e-mail per inbox (worker/features/campaigns/queries/campaigns.ts audienceWhere): is a confirmed entry
    // of the same mailbox ahead of this one? One search of this index per entry drawn.
    index(`${TABLE_PREFIX}_waitlist_mailbox_rank_idx`).on(t.mailboxKey, t.rankKey, t.confirmSeq).where(sql`${t.rankKey} is not null`),
    // A referrer's friends (pending and confirmed).
    index(`${TABLE_PREFIX}_waitlist_referred_by_idx`).on(t.referredBy, t.confirmedAt).where(sql`${t.referredBy} is not null`),
    // The retention cron's network hashes past RETENTION_REFERRAL_NETWORK_DAYS, oldest first, without a scan of the list.
    index(`${TABLE_PREFIX}_waitlist_network_kept_idx`).on(t.confirmedAt, t.id).where(sql`${t.referralNetwork} is not null`),
  ],
);

/**
 * The e-mails to joiners (the confirmation, or the welcome when double opt-in is off): an
 * outbox with the notification's claim and lease mechanics (a random claim and locked_until;
 * next_attempt_at holds the backoff). Stored in the join's own batch; the content (token, place,
 * link) is rendered when sent, from the entry as it is then. Deleted with its entry.
 */
export const joinerMail = table(
  "joiner_mail",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    entryId: integer("entry_id").notNull(),
    kind: text("kind").$type<"confirm" | "welcome">().notNull(),
    /** The site's address for the e-mail's links: SITE_URL, or (when unset, locally) the join's origin. */
    origin: text("origin").notNull().default(""),
    createdAt: text("created_at").notNull(),
    sentAt: text("sent_at"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: text("next_attempt_at"),
    lockedUntil: text("locked_until"),
    claim: text("claim"),
    lastError: text("last_error"),
    /** A confirmation's copy of its entry's referral_join when it was queued: the value its link's token carries. */
    referralJoin: text("referral_join"),
  },
  (t) => [
    // The cron's due list walks the unsent mails only, oldest first.
    index(`${TABLE_PREFIX}_joiner_mail_due_idx`).on(t.id, t.nextAttemptAt, t.lockedUntil).where(sql`${t.sentAt} is null`),
    index(`${TABLE_PREFIX}_joiner_mail_entry_idx`).on(t.entryId),
  ],
);

/**
 * Which mailboxes have already earned a referrer a place: one row per (referral code, mailbox
 * key of the friend), written in the batch that counts the referral. A referral counts only when
 * its pair is new, so one person counts once for a referrer however often they leave and join
 * again, and whatever variant of their address (+tags, Gmail dots) they use. Holds keyed hashes
 * and codes, never an address; it outlives the friend's entry on purpose. When the friend erases
 * everything, their pairs stay as tombstones: `mailbox_key` then holds the mailbox's referral pair
 * key (a keyed hash of the mailbox key under its own purpose, which no entry ever has), so joining
 * again cannot credit that referrer twice nor undo a void (worker/features/operator/queries/erasure.ts).
 */
export const referralCredits = table(
  "referral_credits",
  {
    referralCode: text("referral_code").notNull(),
    mailboxKey: text("mailbox_key").notNull(),
    createdAt: text("created_at").notNull(),
    /** The places the credit gave (REFERRAL_BOOST when it counted), so voiding it takes back exactly those; null before issue 22. */
    boost: integer("boost"),
    /**
     * When an operator voided the credit (the referrer lost its places); null: it counts. A voided
     * credit stays, so the same friend's mailbox never credits that referrer again.
     */
    voidedAt: text("voided_at"),
  },
  (t) => [uniqueIndex(`${TABLE_PREFIX}_referral_credits_pair_idx`).on(t.referralCode, t.mailboxKey)],
);

/** What a campaign is doing (worker/features/campaigns/*; docs/launch-day.md). */
export type CampaignStatus = "draft" | "scheduled" | "sending" | "paused" | "cancelled" | "sent";

/**
 * A campaign to the list: an announcement to every confirmed entry, or an invite wave (the
 * first `wave_size` confirmed entries by place not yet invited), optionally only one
 * utm_source. Composed as a draft; sending expands it into one hwh_campaign_recipients row per
 * entry and fans those out through the campaign queue.
 */
export const campaigns = table(
  "campaigns",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    subject: text("subject").notNull(),
    /** Paragraphs (separated by a blank line) and links, as the operator typed them (worker/features/campaigns/content.ts renders it). */
    body: text("body").notNull(),
    audienceKind: text("audience_kind").$type<"all" | "wave">().notNull(),
    /** An invite wave's N; null for "all". */
    waveSize: integer("wave_size"),
    /** Only entries that joined with this utm_source (lower-cased like the stored values); null: any. */
    utmSource: text("utm_source"),
    status: text("status").$type<CampaignStatus>().notNull().default("draft"),
    /** When a scheduled campaign starts (ISO 8601); null: not scheduled. */
    sendAt: text("send_at"),
    /** Recipients expanded so far: the audience's size once expanded_at is set. */
    audienceSize: integer("audience_size").notNull().default(0),
    /**
     * The audience the operator confirmed ("Send to N people?"), counted when sending started:
     * the progress's total and "not yet sent" while the rows are still being expanded, and what a
     * campaign cancelled before its expansion finished did not send. Null before sending.
     */
    targetSize: integer("target_size"),
    /** Where the expansion stopped (the last entry's position it wrote), so it resumes after a crash. */
    expandCursor: text("expand_cursor"),
    /** When the expansion finished: every recipient row exists. */
    expandedAt: text("expanded_at"),
    /** The operator who created it (an address or "admin-key"), as the audit trail names them. */
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    startedAt: text("started_at"),
    /** When the last recipient was settled (sent), or the campaign was cancelled. */
    finishedAt: text("finished_at"),
  },
  (t) => [index(`${TABLE_PREFIX}_campaigns_status_idx`).on(t.status, t.sendAt)],
);

/** What became of one recipient of a campaign. */
export type RecipientStatus = "queued" | "sending" | "sent" | "failed" | "skipped";

/**
 * One row per (campaign, entry), unique: the campaign's delivery record for that person. A
 * sender claims a row (status sending, a random claim and a locked_until lease) in one
 * conditional update before the provider call and marks it sent after, so a redelivered queue
 * message, a retry or a restarted consumer never sends to a row already sent; a lapsed lease is
 * claimed again (the send carries the row's idempotency key). The address is never copied here:
 * it is read from the entry when sent, so an erased entry is skipped and its row names nobody.
 */
export const campaignRecipients = table(
  "campaign_recipients",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    campaignId: integer("campaign_id").notNull(),
    entryId: integer("entry_id").notNull(),
    /** The entry's place in line when the wave drew it (waves only). */
    place: integer("place"),
    status: text("status").$type<RecipientStatus>().notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    claim: text("claim"),
    lockedUntil: text("locked_until"),
    lastError: text("last_error"),
    /** Why it was not sent: unsubscribed, bounced, complained, erased, cancelled. */
    skipReason: text("skip_reason"),
    sentAt: text("sent_at"),
    /** When its queue message reached the dead-letter queue (failed for good until retried). */
    deadLetteredAt: text("dead_lettered_at"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex(`${TABLE_PREFIX}_campaign_recipients_pair_idx`).on(t.campaignId, t.entryId),
    // Progress counts per status, and the walk over what is not yet sent after a crash.
    index(`${TABLE_PREFIX}_campaign_recipients_status_idx`).on(t.campaignId, t.status, t.id),
  ],
);

/**
 * Who receives no campaign e-mail: one row per mailbox key (the waitlist's keyed hash of the
 * folded address, never the address), with why (unsubscribed, bounced, complained) and how.
 * Checked before every campaign send; sign-in codes and confirmations are not campaigns and
 * still go. "Subscribe again" on /#/me, or a join of the waitlist the mailbox's owner confirms
 * (the link's button, a signed-in join; docs/api.md "Campaign e-mail and unsubscribing"), removes it.
 */
export const suppressions = table("suppressions", {
  mailboxKey: text("mailbox_key").primaryKey(),
  reason: text("reason").$type<"unsubscribed" | "bounced" | "complained">().notNull(),
  /** How: one-click (RFC 8058 POST), page (the link's button), me (the person's page), transport. */
  source: text("source").notNull(),
  campaignId: integer("campaign_id"),
  createdAt: text("created_at").notNull(),
});

/**
 * The consent trail: every unsubscribe and every renewed consent (a re-join, "Subscribe again"),
 * by mailbox key, with its source and campaign. Deleted with the person on erasure.
 */
export const subscriptionEvents = table(
  "subscription_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    mailboxKey: text("mailbox_key").notNull(),
    event: text("event").$type<"unsubscribed" | "resubscribed" | "rejoined" | "bounced" | "complained">().notNull(),
    source: text("source").notNull(),
    campaignId: integer("campaign_id"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index(`${TABLE_PREFIX}_subscription_events_mailbox_idx`).on(t.mailboxKey, t.id)],
);

export const formSubmissions = table(
  "form_submissions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    formName: text("form_name").notNull(),
    /** The validated field values as a JSON object. */
    formData: text("form_data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    ...deliveryColumns(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index(`${TABLE_PREFIX}_form_submissions_pending_idx`).on(t.emailSent, t.notifyNextAttemptAt),
    index(`${TABLE_PREFIX}_form_submissions_form_created_idx`).on(t.formName, t.createdAt, t.id),
  ],
);

/** E-mails kept instead of sent when no provider token is configured outside production. */
export const devMailbox = table("dev_mailbox", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  receivers: text("receivers", { mode: "json" }).$type<string[]>().notNull(),
  title: text("title").notNull(),
  bodyHtml: text("body_html").notNull(),
  /** The plain-text alternative, when the message has one. */
  bodyText: text("body_text"),
  /** The message's own headers (List-Unsubscribe and the like) as a JSON object, when it has any. */
  headers: text("headers", { mode: "json" }).$type<Record<string, string>>(),
  createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
});

/**
 * Fixed-window counters shared by every isolate because they live in the database: per-client
 * request limits (key: what is limited and the client, e.g. "waitlist:203.0.113.7"), the sign-in
 * code e-mails per mailbox (keyed by a keyed hash of the mailbox, never an address) and the hourly
 * budget of single notification e-mails. window_start is the window's first second (Unix
 * time); expires_at its end, after which the cron deletes the row.
 */
export const rateLimits = table("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  expiresAt: integer("expires_at").notNull(),
  count: integer("count").notNull(),
});

/**
 * What operators did that changed or erased data (the operator API, worker/features/operator/routes.ts).
 * A record names the operator and the action, and identifies the person only by a keyed hash
 * of the address (HMAC with the server's secret): the audit trail of an erasure must not keep
 * what was erased, yet the same address always gives the same hash.
 */
export const auditLog = table("audit_log", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** e.g. "person.erased", "notifications.retried". */
  action: text("action").notNull(),
  /** The operator's e-mail address, or "admin-key" for a script using AUTH_ADMIN_KEY. */
  operator: text("operator").notNull(),
  subjectHash: text("subject_hash"),
  /** Counts and the like, as a JSON object; never an address. */
  details: text("details", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  createdAt: text("created_at").notNull(),
});

/**
 * The backfills the cron runs in bounded steps over rows stored before a rule changed (issue 22:
 * addresses put in their canonical form, worker/features/addresses/), one row per backfill: the
 * last rowid it has looked at, and when it reached the end, after which it costs one read per
 * run and never scans again.
 */
export const backfills = table("backfills", {
  name: text("name").primaryKey(),
  cursor: integer("cursor").notNull().default(0),
  finishedAt: text("finished_at"),
  updatedAt: text("updated_at").notNull(),
});

/**
 * A child's request to join, waiting for a parent's or guardian's answer (worker/features/parents;
 * issue 23 §2). Holds only what the rules allow until the parent agrees: the parent's address, the
 * age band, the country and the request's time, never the child's address. The row is also the
 * outbox of its one e-mail to the parent (the claim and lease mechanics of joiner_mail). Agreeing
 * makes an entry for the parent's address and deletes the row; declining deletes it at once; the
 * retention cron deletes it RETENTION_PARENTAL_REQUEST_DAYS after created_at.
 */
export const parentalRequests = table(
  "parental_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The parent's address, trimmed and lower-cased like the waitlist's. */
    parentEmail: text("parent_email").notNull(),
    /** Keyed hash of the parent's folded mailbox, for the per-address daily cap. */
    mailboxKey: text("mailbox_key").notNull(),
    ageBand: text("age_band").$type<AgeBandStored>().notNull(),
    country: text("country"),
    /** Random: the link's signed token carries it, so a link names exactly this request. */
    nonce: text("nonce").notNull(),
    createdAt: text("created_at").notNull(),
    /** The site's address for the e-mail's links: SITE_URL, or (locally) the request's origin. */
    origin: text("origin").notNull().default(""),
    sentAt: text("sent_at"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: text("next_attempt_at"),
    lockedUntil: text("locked_until"),
    claim: text("claim"),
    lastError: text("last_error"),
  },
  (t) => [
    index(`${TABLE_PREFIX}_parental_requests_created_idx`).on(t.createdAt, t.id),
    index(`${TABLE_PREFIX}_parental_requests_due_idx`).on(t.id, t.nextAttemptAt, t.lockedUntil).where(sql`${t.sentAt} is null`),
    index(`${TABLE_PREFIX}_parental_requests_mailbox_idx`).on(t.mailboxKey, t.createdAt),
  ],
);

/**
 * How parents answered (worker/features/parents): one row per UTC day and outcome ("agreed",
 * "declined"), counted in the batch that records the answer, for the console. Requests that expired
 * are the retention cron's count (retention_deletions, kind "parental_requests"). Counts only.
 */
export const parentalOutcomes = table(
  "parental_outcomes",
  {
    /** The UTC day, YYYY-MM-DD. */
    day: text("day").notNull(),
    outcome: text("outcome").$type<"agreed" | "declined">().notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.outcome] })],
);

/**
 * What the retention cron deleted (worker/features/retention/): one row per UTC day and kind
 * (worker/shared/retention.ts RETENTION_KINDS), counted in the batch that deletes, for the
 * console. Counts only: never what was deleted.
 */
export const retentionDeletions = table(
  "retention_deletions",
  {
    /** The UTC day, YYYY-MM-DD. */
    day: text("day").notNull(),
    kind: text("kind").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind] })],
);

export type WaitlistEntry = typeof waitlist.$inferSelect;
export type ParentalRequest = typeof parentalRequests.$inferSelect;
export type AuditRecord = typeof auditLog.$inferSelect;
export type FormSubmission = typeof formSubmissions.$inferSelect;
export type DevMail = typeof devMailbox.$inferSelect;
export type JoinerMail = typeof joinerMail.$inferSelect;
export type Campaign = typeof campaigns.$inferSelect;
export type CampaignRecipient = typeof campaignRecipients.$inferSelect;
export type Suppression = typeof suppressions.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Sign-in (the GoTrue-compatible auth service under /auth/v1). Secrets are never stored in plain
// text: sign-in codes are kept as keyed hashes, refresh tokens as SHA-256 digests.

/** A person who signed in (or asked for a code) with their e-mail. */
export const authUsers = table("auth_users", {
  /** A UUID, the JWT's `sub`. */
  id: text("id").primaryKey(),
  /** Trimmed and lower-cased, like the waitlist's. */
  email: text("email").notNull().unique(),
  /** Set the first time a code sent to the address is verified. */
  emailConfirmedAt: text("email_confirmed_at"),
  lastSignInAt: text("last_sign_in_at"),
  /** The `data` given when the user was created (GoTrue's user_metadata). */
  userMetadata: text("user_metadata", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/**
 * The one live sign-in code of an e-mail address (keyed by the address, not by a user: a user row
 * exists only once an address has proved it is theirs by verifying a code). Requesting a new code
 * replaces the row's code, so an older code stops working. code_hash is cleared when the code is
 * used or worn out by attempts. sent_at holds the address's cooldown, so one upsert decides
 * whether a code may be stored. The hourly and daily caps are not here: they count per mailbox
 * (every address that reaches one inbox) in the counters table, keyed by a keyed hash. Rows are
 * deleted a day after the last code was sent.
 */
export const authCodes = table("auth_codes", {
  /** Trimmed, NFC-normalised and lower-cased. */
  email: text("email").primaryKey(),
  codeHash: text("code_hash"),
  /**
   * The `data` of the request that sent this code: applied only if verifying it creates the
   * user, never to an existing user. Null when the request may not create a user.
   */
  userMetadata: text("user_metadata", { mode: "json" }).$type<Record<string, unknown>>(),
  sentAt: text("sent_at").notNull(),
  expiresAt: text("expires_at").notNull(),
  /** Guesses counted against this code, right or wrong; counted before the guess is compared. */
  attempts: integer("attempts").notNull().default(0),
});

/** A signed-in device. Signing out deletes it, which ends its refresh tokens and access tokens. */
export const authSessions = table(
  "auth_sessions",
  {
    /** A UUID, the JWT's `session_id`. */
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** When a refresh token of this session was last exchanged. */
    refreshedAt: text("refreshed_at"),
    userAgent: text("user_agent"),
    ip: text("ip"),
  },
  (t) => [index(`${TABLE_PREFIX}_auth_sessions_user_idx`).on(t.userId)],
);

/**
 * Refresh tokens, one chain per session. Each use revokes the token and records the digest of
 * the token that replaced it; the replacement is derived from the old token with the server
 * secret, so a second tab racing with the same old token inside the grace window can be given
 * the same new token without the plain token ever being stored.
 */
export const authRefreshTokens = table(
  "auth_refresh_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull().unique(),
    sessionId: text("session_id").notNull(),
    revokedAt: text("revoked_at"),
    replacedByHash: text("replaced_by_hash"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index(`${TABLE_PREFIX}_auth_refresh_tokens_session_idx`).on(t.sessionId)],
);

/**
 * The mail queue's dead letters (issue 24 §2; worker/features/mail-queue): a job whose batch could
 * not be recorded through all of the queue's retries (the database down for long), one row per
 * outbox row (`kind` and `row_id`: hwh_joiner_mail, hwh_waitlist's or hwh_form_submissions'
 * notification, hwh_parental_requests), with the last error. The row itself stays unsent, so the
 * cron re-queues it anyway once its lease lapses; the console lists these and "retry" re-queues
 * them at once. Deleted when the row is sent or retried. Names no address.
 */
export const mailDeadLetters = table(
  "mail_dead_letters",
  {
    kind: text("kind").$type<"joiner" | "waitlist" | "form" | "parent">().notNull(),
    rowId: integer("row_id").notNull(),
    error: text("error").notNull(),
    deadLetteredAt: text("dead_lettered_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.rowId] })],
);

export type MailDeadLetter = typeof mailDeadLetters.$inferSelect;

export type AuthUser = typeof authUsers.$inferSelect;
export type AuthSession = typeof authSessions.$inferSelect;
export type AuthRefreshToken = typeof authRefreshTokens.$inferSelect;

/** A message kept in the dev mailbox; `headers` are its own (List-Unsubscribe and the like), when it has any. */
export type DevMailInput = {
  receivers: string[];
  title: string;
  bodyHtml: string;
  bodyText?: string | null;
  headers?: Record<string, string> | null;
};

/**
 * Signed webhooks and Slack (issue 25; worker/features/webhooks): where the team's other tools
 * receive events. `url` is what the console shows (a Slack address with its token masked);
 * `secret` is encrypted under WEBHOOK_SECRETS_KEY (features/webhooks/secrets.ts): the signing
 * secret (`whsec_…`) of a Standard Webhooks endpoint, the whole address of a Slack one; a rotated
 * secret keeps signing beside the new one until `previous_secret_until`. `events` is a JSON array
 * of the event types it wants. An endpoint is disabled by the operator, on 410 Gone, or after a
 * run of failures (`disabled_reason` says which); `failure_run` counts the attempts that failed in
 * a row since `failing_since`, and nothing is sent to it before `paused_until` (the backoff after
 * a failure, or Slack's pace of one message a second).
 */
export const webhookEndpoints = table("webhook_endpoints", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  url: text("url").notNull(),
  kind: text("kind").$type<"standard" | "slack">().notNull(),
  events: text("events").notNull(),
  secret: text("secret").notNull(),
  previousSecret: text("previous_secret"),
  previousSecretUntil: text("previous_secret_until"),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  disabledReason: text("disabled_reason"),
  disabledAt: text("disabled_at"),
  failureRun: integer("failure_run").notNull().default(0),
  failingSince: text("failing_since"),
  pausedUntil: text("paused_until"),
  lastSuccessAt: text("last_success_at"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;

/**
 * One event (features/webhooks/record.ts), stored by the statement batch of the change that
 * caused it: `key` makes a repeat of that change store it once (e.g. "waitlist.joined:<entry id>");
 * `uid` (random) names it in every webhook-id; `person` is the canonical address the event carries
 * (null for campaign.finished), for the order per person and person.erased; `payload` is the
 * event's JSON `data`. The id orders events.
 */
export const webhookEvents = table(
  "webhook_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    key: text("key").notNull(),
    uid: text("uid").notNull(),
    type: text("type").notNull(),
    person: text("person"),
    payload: text("payload").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex(`${TABLE_PREFIX}_webhook_events_key_idx`).on(t.key), index(`${TABLE_PREFIX}_webhook_events_person_idx`).on(t.person)],
);

export type WebhookEvent = typeof webhookEvents.$inferSelect;

/** What happened to a delivery: waiting (or retrying), delivered, dead (after the last retry; the console's dead letters), cancelled (erased before it was attempted). */
export type WebhookDeliveryStatus = "pending" | "delivered" | "dead" | "cancelled";

/**
 * One event for one endpoint, stored with the event (record.ts fans out to the endpoints that want
 * its type, or for person.erased to those ever sent the person's data). `webhook_id` is stable
 * across attempts (receivers deduplicate on it). A sender claims it (`claim`, `locked_until`)
 * before calling; `next_at` is when it is due (the retry schedule with jitter); `last_*` the last
 * attempt's outcome (status code or error, the answer's first bytes).
 */
export const webhookDeliveries = table(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    webhookId: text("webhook_id").notNull(),
    eventId: integer("event_id").notNull(),
    endpointId: integer("endpoint_id").notNull(),
    person: text("person"),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAt: text("next_at").notNull(),
    claim: text("claim"),
    lockedUntil: text("locked_until"),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    lastAnswer: text("last_answer"),
    lastAt: text("last_at"),
    deliveredAt: text("delivered_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex(`${TABLE_PREFIX}_webhook_deliveries_webhook_id_idx`).on(t.webhookId),
    uniqueIndex(`${TABLE_PREFIX}_webhook_deliveries_pair_idx`).on(t.eventId, t.endpointId),
    // What is due, in order.
    index(`${TABLE_PREFIX}_webhook_deliveries_due_idx`).on(t.status, t.nextAt),
    // The order per person and endpoint, and person.erased's fan-out.
    index(`${TABLE_PREFIX}_webhook_deliveries_person_idx`).on(t.person, t.endpointId, t.eventId),
    // An endpoint's recent deliveries and dead letters.
    index(`${TABLE_PREFIX}_webhook_deliveries_endpoint_idx`).on(t.endpointId, t.status, t.id),
  ],
);

export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
