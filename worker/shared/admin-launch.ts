/**
 * The operator on launch day (issue 22), re-exported by admin.ts, which the console reads: the
 * funnel of the stats, and the actions on one waitlist entry (worker/features/operator/entries.ts):
 * holding it out of invite waves, voiding the referral credit it gave.
 */
import type { AdminWaitlistEntry } from "./admin";

/**
 * From joining to an invitation (issue 22), each step with what explains its difference to the
 * one before. Every confirmed entry is in exactly one of sharedInbox, unsubscribed,
 * undeliverable, invited, held and waiting.
 */
export type Funnel = {
  joined: number;
  /** Joined and still to confirm their address (joined - confirmed). */
  pending: number;
  confirmed: number;
  /** Distinct inboxes among the confirmed: one e-mail per inbox (m0@, m0+x@ and M0@ are one). */
  inboxes: number;
  /** Confirmed entries whose inbox already has an earlier confirmed entry (confirmed - inboxes). */
  sharedInbox: number;
  /** Inboxes that unsubscribed from campaign e-mail. */
  unsubscribed: number;
  /** Inboxes whose mail bounced or who complained. */
  undeliverable: number;
  /** Inboxes a campaign can write to (inboxes - unsubscribed - undeliverable): an announcement's audience. */
  reachable: number;
  /** Of those, drawn by an invite wave so far. */
  invited: number;
  /** Of those not invited, held out of waves by an operator. */
  held: number;
  /** Of those, neither invited nor held: what the next invite waves draw from, in order of place. */
  waiting: number;
};

/**
 * An entry as the waitlist's list answers it, with its referral credits as the operator reviews
 * them: the credit its mailbox gave the referrer it joined through ("counted", or "voided" by an
 * operator; null when it gave none: pending, its referrer's own mailbox, no referrer), and how
 * many of its own credits were voided.
 */
export type AdminListedEntry = AdminWaitlistEntry & { referral_credit: "counted" | "voided" | null; referrals_voided: number };

/** The actions' paths under /api/admin, by the entry's id (numbers only in the path, never an address). */
export const ADMIN_ENTRY = {
  hold: (id: number) => `/waitlist/${id}/hold`,
  voidReferral: (id: number) => `/waitlist/${id}/void-referral`,
} as const;

/** The most characters of an action's reason, which the audit trail keeps. */
export const REASON_MAX_LENGTH = 300;

/** POST /api/admin/waitlist/:id/hold: out of invite waves (true), or back in (false), and why (for the audit trail). */
export type HoldRequest = { held: boolean; reason: string };

/** POST /api/admin/waitlist/:id/void-referral: why (for the audit trail). */
export type VoidRequest = { reason: string };

/** The answer of void-referral: the friend and its referrer as they are now, and the places the credit gave back. */
export type EntryVoided = { friend: AdminListedEntry; referrer: AdminListedEntry | null; boost: number };

/**
 * How a flagged referrer's confirmed referrals cluster (the referral review, issue 22), so a
 * school (one network, spread over days, varied inboxes) reads differently from a ring (a burst
 * of look-alike inboxes). worker/features/operator/queries/referral-clusters.ts decides every rule.
 */
export type ReferralClusters = {
  /** The confirmed referrals clustered: every friend who joined with the code and confirmed (voided credits too). */
  total: number;
  /** Confirmed referrals per client network, most first; networks are keyed hashes, never named. */
  byNetwork: number[];
  /** The most confirmed within one hour of each other, and within one day (24 hours). */
  withinHour: number;
  withinDay: number;
  /** From the first confirmation to the last, in hours (one decimal). */
  spanHours: number;
  /** Distinct e-mail domains among them. */
  domains: number;
  /** The most whose inboxes look alike: the same domain, local parts equal once digits and a "+tag" are taken out. */
  lookAlike: number;
  /** "ring": more than half in one hour and more than half alike; "group": neither; null: one of the two (look closer). */
  reading: "ring" | "group" | null;
};

/**
 * Per flagged referrer, in the stats' flagged order, its referrals whose credit an operator voided:
 * of them all (clusters' `total`) and of the network that flags it (`fromOneNetwork`); the flag
 * and the clusters count them still.
 */
export type VoidedReferrals = { code: string; total: number; fromOneNetwork: number };
