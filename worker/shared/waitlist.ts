import * as v from "valibot";
import { PUBLIC_FORM_EXTRAS } from "./public-forms";
import { emailField, strictFields } from "./text";

/** Spec §5 and §8: the waitlist's messages, shown by the web app and returned by the API. */
export const WAITLIST_MESSAGES = {
  emailRequired: "Please enter your email address",
  emailInvalid: "Please enter a valid email address",
  duplicate: "You're already on our waitlist! We'll be in touch soon.",
  failure: "Something went wrong. Please try again.",
  /** Spec §5: what a successful join shows, a title and a line under it. */
  successTitle: "Success! You're on the list.",
  successDetail: "We'll notify you when the product launches!",
} as const;

/** Where the form sits on the page, e.g. "hero" or "cta": letters, digits, "-" and "_". */
const SOURCE_SHAPE = /^[A-Za-z0-9_-]{1,40}$/;
const SOURCE_MESSAGE = "Source must be 1 to 40 letters, digits, hyphens or underscores.";

/** The waitlist e-mail rule of spec §5 (cleaned, NFC, lower-cased), with its messages. */
export const waitlistEmail = emailField({ required: WAITLIST_MESSAGES.emailRequired, invalid: WAITLIST_MESSAGES.emailInvalid });

/** POST /api/waitlist's body: the e-mail, the optional placement, and the public-form extras. */
export const waitlistSchema = strictFields({
  email: waitlistEmail,
  source: v.optional(v.nullable(v.pipe(v.string(SOURCE_MESSAGE), v.regex(SOURCE_SHAPE, SOURCE_MESSAGE))), null),
  ...PUBLIC_FORM_EXTRAS,
});

export type WaitlistInput = v.InferOutput<typeof waitlistSchema>;
