import { isEmailShaped, normalizeEmail } from "./text";

/** Spec §5 and §8: the waitlist's messages, shown by the web app and returned by the API. */
export const WAITLIST_MESSAGES = {
  emailRequired: "Please enter your email address",
  emailInvalid: "Please enter a valid email address",
  duplicate: "You're already on our waitlist! We'll be in touch soon.",
  failure: "Something went wrong. Please try again.",
} as const;

/** Where the form sits on the page, e.g. "hero" or "cta": letters, digits, "-" and "_". */
const SOURCE_SHAPE = /^[A-Za-z0-9_-]{1,40}$/;

export type WaitlistInput = { email: string; source: string | null };
export type WaitlistValidation =
  | { ok: true; value: WaitlistInput }
  | { ok: false; field: "email" | "source"; message: string };

/** Validates the e-mail exactly as spec §5 says, and the optional placement name. */
export function validateWaitlistInput(email: unknown, source?: unknown): WaitlistValidation {
  if (email !== undefined && email !== null && typeof email !== "string") {
    return { ok: false, field: "email", message: WAITLIST_MESSAGES.emailInvalid };
  }
  const normalized = normalizeEmail(email ?? "");
  if (normalized === "") return { ok: false, field: "email", message: WAITLIST_MESSAGES.emailRequired };
  if (!isEmailShaped(normalized)) {
    return { ok: false, field: "email", message: WAITLIST_MESSAGES.emailInvalid };
  }
  if (source !== undefined && source !== null && (typeof source !== "string" || !SOURCE_SHAPE.test(source))) {
    return {
      ok: false,
      field: "source",
      message: "Source must be 1 to 40 letters, digits, hyphens or underscores.",
    };
  }
  return { ok: true, value: { email: normalized, source: source ?? null } };
}
