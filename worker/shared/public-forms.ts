import * as v from "valibot";

/**
 * What every public form (the waitlist placements and the contact form) carries besides its
 * own fields, shared by the web app, which renders them, and the worker, which reads them.
 */

/**
 * The honeypot: a field people never see or hear (it is off-screen and hidden from assistive
 * technology), named like one a form-filling bot cannot resist. A submission that fills it gets
 * the normal success answer, and nothing is stored or sent.
 */
export const HONEYPOT_FIELD = "website";

/** Where the Turnstile widget puts its token (its own default input name). */
export const TURNSTILE_FIELD = "cf-turnstile-response";

/**
 * The <meta name> under which a page carries the Turnstile site key: the worker adds it only when
 * Turnstile is configured (worker/routes/pages.ts), the forms read it (web/src/turnstile). The
 * site is built once for every deployment, so the key cannot be in the bundle.
 */
export const TURNSTILE_META = "turnstile-site-key";

/** The two extra fields, as schema entries for a form's request body. */
export const PUBLIC_FORM_EXTRAS = {
  [HONEYPOT_FIELD]: v.optional(v.string("Website must be text."), ""),
  [TURNSTILE_FIELD]: v.optional(v.string("The verification token must be text."), ""),
};

/**
 * Whether the honeypot was filled in: a bot. Only whitespace is not filling it in (some autofill
 * and password managers type a space into every field; a bot writes text).
 */
export function isBot(input: { [HONEYPOT_FIELD]?: string }): boolean {
  return (input[HONEYPOT_FIELD] ?? "").trim() !== "";
}

/** The API's answers that the site shows its own words for. */
export const PUBLIC_FORM_ERRORS = {
  /** 429: too many submissions from one client. */
  rateLimited: "Too many attempts. Please wait a minute and try again.",
  /** 403: the Turnstile check failed. */
  notVerified: "We could not verify that you are a person. Please try again.",
  /** 503: Turnstile could not be asked. */
  verificationUnavailable: "We could not check your submission just now. Please try again in a minute.",
} as const;

/**
 * The words of the page that answers a form posted without JavaScript (worker/http/form-page.ts),
 * besides each form's own messages above and in waitlist.ts and forms.ts.
 */
export const FORM_PAGE_TEXT = {
  /** The waitlist page's heading (a form's page is headed by the form's name). */
  waitlistHeading: "Join the Waitlist",
  backLink: "Back to the site",
  /** 403: a form post made by a page of another site (cross-site request forgery). */
  otherOrigin: "This form can only be sent from our own site. Nothing was sent.",
} as const;
