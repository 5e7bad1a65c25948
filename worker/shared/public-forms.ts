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
 * Turnstile is configured (worker/features/pages/routes.ts), the forms read it (web/src/turnstile). The
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
  /** 429 when the wait is not known (a limit in front of the worker may say none); else tooManyAttempts. */
  rateLimited: "Too many attempts. Please wait a minute and try again.",
  /** 403: the Turnstile check failed. */
  notVerified: "We could not verify that you are a person. Please try again.",
  /** 503: Turnstile could not be asked. */
  verificationUnavailable: "We could not check your submission just now. Please try again in a minute.",
} as const;

/**
 * What a 429 of a public form says, with the real wait from its Retry-After (seconds): under a
 * minute in seconds, else in whole minutes, rounded to the nearest as a person reads a clock
 * (Retry-After: 559 is "Please try again in 9 minutes."; the exact seconds stay in the header
 * and in `retry_after`), and from an hour and a half on in whole hours (a day's cap: "in 22 hours"). One sentence for the worker's
 * answer (JSON and the page without JavaScript) and the web app, which reads the wait from the
 * answer. No usable wait: PUBLIC_FORM_ERRORS.rateLimited.
 */
export function tooManyAttempts(retryAfterSeconds: number | null | undefined): string {
  if (retryAfterSeconds === null || retryAfterSeconds === undefined || !(retryAfterSeconds > 0) || !Number.isFinite(retryAfterSeconds)) {
    return PUBLIC_FORM_ERRORS.rateLimited;
  }
  const seconds = Math.ceil(retryAfterSeconds);
  const wait =
    seconds < 60
      ? count(seconds, "second")
      : seconds < 90 * 60
        ? count(Math.round(seconds / 60), "minute")
        : count(Math.round(seconds / 3600), "hour");
  return `Too many attempts. Please try again in ${wait}.`;
}

const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/**
 * The wait a Retry-After header gives, in seconds from `now`: delay-seconds, or an HTTP date
 * (RFC 9110 allows both; a proxy or a limit in front of the worker may send the date). Null when
 * it is missing or says nothing usable.
 */
export function retryAfterSeconds(header: string | null, now: Date): number | null {
  const value = header?.trim() ?? "";
  if (/^\d+$/.test(value)) return Number(value);
  // An HTTP date ends in "GMT" (and JavaScript's parser would take "1.5" for a date).
  const date = /GMT$/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}

/**
 * The words of the page that answers a form posted without JavaScript (worker/platform/http/form-page.ts),
 * besides each form's own messages above and in waitlist.ts and forms.ts.
 */
export const FORM_PAGE_TEXT = {
  /** The waitlist page's heading (a form's page is headed by the form's name). */
  waitlistHeading: "Join the Waitlist",
  backLink: "Back to the site",
  /**
   * The forms' own words, which that page shows too when it gives a refused form back (the web
   * app's content.ts takes them from here, so the two never differ).
   */
  waitlistEmailLabel: "Email address",
  waitlistEmailPlaceholder: "Enter your email",
  contactSubmit: "Send Message",
  selectPlaceholder: "Please select",
  honeypotLabel: "Leave this field empty",
  /** 403: a form post made by a page of another site (cross-site request forgery). */
  otherOrigin: "This form can only be sent from our own site. Nothing was sent.",
} as const;
