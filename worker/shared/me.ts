/**
 * The signed-in joiner's own API under /api/me (issue 16) as its one caller, the site's "My
 * place" page (web/src/pages/me), reads it: paths and the JSON shapes. Field names are the API's
 * (snake_case, like the operator API). Every route needs the access token of a sign-in (Bearer);
 * without a valid one it answers 401 in the API's error shape.
 */
import type { ErasureCounts } from "./admin";
import type { AgeBandStored } from "./age";
import type { MyData } from "./my-data";

/** Where the joiner's API lives. */
export const ME_API = "/api/me";

/** The routes under ME_API, by what they do. */
export const ME_ROUTES = {
  /** GET: the journey (MeAnswer); DELETE with {"confirm": address}: erase everything (MeErasure). */
  me: ME_API,
  /** POST: join with one click, confirmed at once; DELETE: leave the list. Both answer MeAnswer. */
  waitlist: `${ME_API}/waitlist`,
  /** POST: send the confirmation e-mail again (pending only; the daily cap answers 429). */
  confirmation: `${ME_API}/confirmation`,
  /** GET: everything stored about the address (MeData: worker/shared/my-data.ts), as a readable JSON download. */
  data: `${ME_API}/data`,
  /** POST {"subscribed": boolean}: unsubscribe from campaign e-mail, or subscribe again (MeAnswer). */
  subscription: `${ME_API}/subscription`,
} as const;

/**
 * Whether the address's mailbox gets campaign e-mail (launch news, invitations): not when it is
 * on the suppression list (unsubscribed from an e-mail or here; or the mail transport reported
 * it bounced or complained). Sign-in codes and confirmations come either way.
 */
export type MeSubscription = {
  subscribed: boolean;
  /** When it was put on the list (ISO); null while subscribed. */
  unsubscribed_at: string | null;
  /** Why; null while subscribed. */
  reason: "unsubscribed" | "bounced" | "complained" | null;
};

/** POST /api/me/subscription's body. */
export type MeSubscriptionRequest = { subscribed: boolean };

/** Where the address stands: not on the list, joined but not confirmed, confirmed (with a place). */
export type MeStatus = "none" | "pending" | "confirmed";

/** GET /api/me, and the answer of the waitlist actions. */
export type MeAnswer = {
  email: string;
  status: MeStatus;
  /** The place in line (1 is first); null unless confirmed. */
  position: number | null;
  /** The entry's referral code and link; null until confirmed. */
  referral_code: string | null;
  referral_link: string | null;
  /** Friends who joined with the link: not yet confirmed, and confirmed (those move the place up). */
  referrals_pending: number;
  referrals_confirmed: number;
  /** ISO times; null when not on the list / not confirmed. */
  joined_at: string | null;
  confirmed_at: string | null;
  /** What a share says besides the link. */
  share: { text: string };
  /**
   * How many places each confirmed referral moves this entry up, for the rule's sentence
   * (journey-text.ts referralRule): REFERRAL_BOOST, or 0 for a minor's entry (under 18) unless
   * MINOR_REFERRAL_REWARDS, and for an entry on behalf of a child (issue 23).
   */
  referral_boost: number;
  /** The entry's age band from the neutral age question ("unknown": joined before it was asked); null when not on the list. */
  age_band: AgeBandStored | null;
  /** Whether a parent or guardian holds this place on behalf of a child (no referral code or link then). */
  on_behalf_of_child: boolean;
  /** When an invite wave drew the entry (ISO); null: not invited (yet). An invited entry's place no longer matters. */
  invited_at: string | null;
  /** The wave's e-mail, once it was sent to this address: its subject and when; null otherwise (not yet, or skipped). */
  invited_by: MeInvitation | null;
  /** Campaign e-mail to this address's mailbox: on, or off since when and why. */
  subscription: MeSubscription;
};

/** The invitation e-mail that reached the address: what to look for in the inbox. */
export type MeInvitation = { subject: string; sent_at: string };

/** POST /api/me/confirmation: a confirmation e-mail is on its way. */
export type MeConfirmationSent = { sent: true };

/** The name GET /api/me/data's download is saved under (its Content-Disposition). */
export const ME_DATA_FILENAME = "homework-helper-my-data.json";

/** What the audit trail names as the operator when a person reads or erases their own data. */
export const SELF_OPERATOR = "self";

/** One step of the consent trail: an unsubscribe, a bounce or complaint, or consent renewed. */
export type MeConsentEvent = {
  event: "unsubscribed" | "resubscribed" | "rejoined" | "bounced" | "complained";
  /** How it arrived: one-click, page, me, transport (unsubscribes); me, join, confirm (renewals). */
  source: string;
  /** The campaign whose e-mail it came from; null when it did not come from one. */
  campaign_id: number | null;
  created_at: string;
};

/**
 * The consent trail of the address's mailbox: the suppression list and its events are kept by
 * the mailbox's key, so the operator's look-up by address does not list them.
 */
export type MeConsentTrail = { subscription: MeSubscription; events: MeConsentEvent[] };

/**
 * GET /api/me/data: the operator's data-access answer for the signed-in address with its
 * consent trail and the e-mails sent to it, as a readable file (indented, plain names, each
 * part explained at its top, what an erasure keeps at its end).
 */
export type MeData = MyData;

/** DELETE /api/me: what was erased (the session ends with the user). */
export type MeErasure = ErasureCounts;

/** DELETE /api/me's body: the address typed again, as the confirmation. */
export type MeErasureRequest = { confirm: string };

/** Error codes of the joiner's API besides the API's usual ones. */
export const ME_ERRORS = {
  /** 401: no credentials, or a token that is not valid (expired, signed out, erased). */
  notSignedIn: "not_signed_in",
  /** 409: a confirmation is sent again only while the entry waits for one (none to send otherwise). */
  notPending: "not_pending",
  /** 400: DELETE /api/me's `confirm` is not the signed-in address. */
  confirmMismatch: "confirmation_mismatch",
} as const;
