import * as v from "valibot";
import { AGE_MESSAGES } from "./age";
import { PUBLIC_FORM_EXTRAS } from "./public-forms";
import { cleanText, emailField, hasForbiddenCharacters, strictFields } from "./text";

/** Spec §5 and §8: the waitlist's messages, shown by the web app and returned by the API. */
export const WAITLIST_MESSAGES = {
  emailRequired: "Please enter your email address",
  emailInvalid: "Please enter a valid email address",
  duplicate: "You're already on our waitlist! We'll be in touch soon.",
  failure: "Something went wrong. Please try again.",
  /** Spec §5: what a successful join shows, a title and a line under it. */
  successTitle: "Success! You're on the list.",
  successDetail: "We'll notify you when the product launches!",
  /**
   * Said under the spec's two lines (never instead of them): what happens next (issue 22). The
   * join's e-mail asks to confirm first (double opt-in, the default) and the place comes only then,
   * so the note names that e-mail's one button (worker/features/waitlist/emails.ts) and promises
   * nothing of the e-mail itself. The app and the page a form posted without JavaScript gets
   * (worker/features/waitlist/routes.ts) both say it.
   */
  checkInbox:
    'Next, open the e-mail we just sent you and press "Confirm my place" to get your place in line and your link to invite friends.',
  /** Issue 16: an address at a disposable-mail domain (the worker checks the maintained list, mailchecker). */
  emailDisposable: "Please use a permanent email address, not a disposable one.",
} as const;

/**
 * Referral codes: 8 characters from 31 that cannot be mistaken for one another when read off a
 * phone or typed from a poster (no 0/O, 1/I/L), upper-case; 31^8 is about 8.5 x 10^11 codes.
 * Drawn by the worker (worker/features/referrals/code.ts), read from links by both.
 */
export const REFERRAL_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const REFERRAL_CODE_LENGTH = 8;

/** A referral code's shape: REFERRAL_CODE_LENGTH characters of REFERRAL_ALPHABET. */
export const REFERRAL_CODE_SHAPE = new RegExp(`^[${REFERRAL_ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`);

/**
 * The referral code a join came with (`ref`, from a shared link ?ref=CODE), upper-cased; a
 * value not of a code's shape is ignored (null), never an error: a visitor's join must not
 * fail on a mangled link. Whether the code exists is the worker's business (unknown: dropped).
 */
export function referralCodeValue(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const code = value.trim().toUpperCase();
  return REFERRAL_CODE_SHAPE.test(code) ? code : null;
}

/** Where the form sits on the page, e.g. "hero" or "cta": letters, digits, "-" and "_". */
const SOURCE_SHAPE = /^[A-Za-z0-9_-]{1,40}$/;
const SOURCE_MESSAGE = "Source must be 1 to 40 letters, digits, hyphens or underscores.";

/** The waitlist e-mail rule of spec §5 (cleaned, NFC, lower-cased), with its messages. */
export const waitlistEmail = emailField({ required: WAITLIST_MESSAGES.emailRequired, invalid: WAITLIST_MESSAGES.emailInvalid });

/**
 * Where a sign-up came from, sent with the join: the landing address's campaign parameters
 * (utm_source, utm_medium, utm_campaign) and the host of the page that linked to the site. The
 * worker writes the landing page's values into hidden fields of the waitlist forms
 * (worker/features/pages/routes.ts); the forms send them as they send the e-mail.
 */
export const ATTRIBUTION_FIELDS = ["utm_source", "utm_medium", "utm_campaign", "referrer_host"] as const;
export type AttributionField = (typeof ATTRIBUTION_FIELDS)[number];
export type Attribution = Record<AttributionField, string | null>;

/** The longest campaign value kept: a longer one is cut, never refused (a visitor's join must not fail on a link's tail). */
export const ATTRIBUTION_MAX_LENGTH = 100;
/** A host name as browsers write it: lower-case letters, digits, hyphens and dots (IDN hosts in punycode). */
const HOST_SHAPE = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/**
 * A campaign parameter as stored: cleaned like every text (NFC, trimmed), characters no field
 * may hold dropped, cut to ATTRIBUTION_MAX_LENGTH; nothing left is null.
 */
export function campaignValue(value: string): string | null {
  const kept = [...cleanText(value)].filter((char) => !hasForbiddenCharacters(char)).join("");
  const cut = [...kept].slice(0, ATTRIBUTION_MAX_LENGTH).join("").trim();
  return cut === "" ? null : cut;
}

/** A referrer host as stored: lower-cased, a host name's shape, or null. */
export function hostValue(value: string): string | null {
  const host = value.trim().toLowerCase().replace(/\.$/, "");
  return HOST_SHAPE.test(host) ? host : null;
}

/**
 * A campaign parameter as the waitlist stores it: lower-cased (full Unicode, before the cut, as
 * lower-casing may lengthen a text), then campaignValue. Links are written by hand ("TikTok" in
 * one post, "tiktok" in the next): one campaign must count as one in the breakdowns and match one
 * search. The hidden fields keep the address's own spelling; the schema lower-cases on the way in,
 * for the API and the web app alike. Rows stored before were lower-cased by migration 0004
 * (SQLite's lower(), ASCII letters only).
 */
export function storedCampaignValue(value: string): string | null {
  return campaignValue(value.toLowerCase());
}

const campaignField = (name: string) =>
  v.optional(
    v.pipe(
      v.nullable(v.string(`${name} must be text.`)),
      v.transform((value) => (value === null ? null : storedCampaignValue(value))),
    ),
    null,
  );

const REFERRER_HOST_MESSAGE = "referrer_host must be a host name, such as www.example.com.";
const referrerHostField = v.optional(
  v.pipe(
    v.nullable(v.string(REFERRER_HOST_MESSAGE)),
    v.check((value) => value === null || value.trim() === "" || hostValue(value) !== null, REFERRER_HOST_MESSAGE),
    v.transform((value) => (value === null ? null : hostValue(value))),
  ),
  null,
);

/**
 * The attribution of a visit to the site's page, for the waitlist forms' hidden fields: the
 * page address's campaign parameters, and the host of the page that linked to it (the request's
 * Referer), unless that is the site itself (a reload, or a page of the site).
 */
export function landingAttribution(pageUrl: URL, referer: string | null): Attribution {
  const param = (name: string) => {
    const value = pageUrl.searchParams.get(name);
    return value === null ? null : campaignValue(value);
  };
  let referrerHost: string | null = null;
  try {
    if (referer) {
      const from = new URL(referer);
      if ((from.protocol === "https:" || from.protocol === "http:") && from.host !== pageUrl.host) referrerHost = hostValue(from.hostname);
    }
  } catch {
    referrerHost = null;
  }
  return {
    utm_source: param("utm_source"),
    utm_medium: param("utm_medium"),
    utm_campaign: param("utm_campaign"),
    referrer_host: referrerHost,
  };
}

/**
 * The waitlist forms' hidden fields the worker fills from the visit (worker/features/pages/routes.ts):
 * the attribution and the referral code of a shared link (?ref=CODE, issue 16). The forms send
 * those that hold something with the join.
 */
export const LANDING_FIELDS = [...ATTRIBUTION_FIELDS, "ref"] as const;
export type LandingField = (typeof LANDING_FIELDS)[number];

/** The values of LANDING_FIELDS for a visit: its attribution, and its `ref` when of a code's shape (upper-cased). */
export function landingValues(pageUrl: URL, referer: string | null): Record<LandingField, string | null> {
  return { ...landingAttribution(pageUrl, referer), ref: referralCodeValue(pageUrl.searchParams.get("ref")) };
}

/**
 * The neutral age question's fields (issue 23; worker/shared/age.ts), as sent: numbers or numeric
 * strings, read and judged by the worker (worker/features/age readBirthAnswer), which names the
 * field of a missing or impossible answer. Optional here: a valid `hwh_age` cookie answers for them.
 */
export const birthFields = {
  birth_month: v.optional(v.unknown()),
  birth_year: v.optional(v.unknown()),
};

/** A parent's or guardian's address (the parent step of a child's join): text; empty is none (null). The worker checks it is an address. */
const parentEmailField = v.optional(
  v.pipe(
    v.nullable(v.string(AGE_MESSAGES.parentEmailInvalid)),
    v.transform((value) => (value === null || value.trim() === "" ? null : value.trim())),
  ),
  null,
);

/**
 * POST /api/waitlist's body, as the web app checks it before sending: the e-mail, the optional
 * placement, attribution and referral code, the age question's answer, a parent's address, and
 * the public-form extras.
 */
export const waitlistSchema = strictFields({
  email: waitlistEmail,
  ...birthFields,
  parent_email: parentEmailField,
  source: v.optional(v.nullable(v.pipe(v.string(SOURCE_MESSAGE), v.regex(SOURCE_SHAPE, SOURCE_MESSAGE))), null),
  utm_source: campaignField("utm_source"),
  utm_medium: campaignField("utm_medium"),
  utm_campaign: campaignField("utm_campaign"),
  referrer_host: referrerHostField,
  ref: v.optional(v.pipe(v.unknown(), v.transform(referralCodeValue)), null),
  ...PUBLIC_FORM_EXTRAS,
});

/**
 * POST /api/waitlist's body as the worker reads it: waitlistSchema, but the e-mail may be left out
 * on the parent step (a page without JavaScript does not send the child's address again: a
 * child's join never stores it); the worker answers its absence otherwise (emailRequired).
 */
export const waitlistPostSchema = strictFields({ ...waitlistSchema.entries, email: v.optional(waitlistEmail) });

export type WaitlistInput = v.InferOutput<typeof waitlistPostSchema>;
