/**
 * The words of the site's two public forms, the waitlist's and the contact form's (on the home
 * page, in the site's own script like content.ts). Most are the worker's own (worker/shared): the
 * API's answers (spec §5, §8) and the labels of the page the worker answers a form posted without
 * JavaScript with, so the page, the API and that page never disagree.
 *
 * Words only, their types taken from the values (`as const`). Only components and api.ts (which
 * only components import) import this module, so an edit of it hot-updates just them in
 * `npm run dev` (README "Development").
 */
import { FORM_NOTES } from "@shared/claims";
import { FORM_MESSAGES } from "@shared/forms";
import { FORM_PAGE_TEXT, PUBLIC_FORM_ERRORS } from "@shared/public-forms";
import { WAITLIST_MESSAGES } from "@shared/waitlist";

export const waitlistForm = {
  /** Spec §2: the default call-to-action label; spec §1: the closing call-to-action's. */
  defaultLabel: "Join the Inner Circle",
  ctaLabel: "Get Early Access",
  // The worker's words, which its page shows too when it gives a form posted without JavaScript back.
  emailLabel: FORM_PAGE_TEXT.waitlistEmailLabel,
  emailPlaceholder: FORM_PAGE_TEXT.waitlistEmailPlaceholder,
  loading: "Joining...",
  // The worker's words, so the page the server answers a form post with says the same.
  successTitle: WAITLIST_MESSAGES.successTitle,
  successDetail: WAITLIST_MESSAGES.successDetail,
  /** Under the spec's two success lines: what happens next, the e-mail's confirmation (issue 22). */
  checkInbox: WAITLIST_MESSAGES.checkInbox,
  addAnother: "Add another email",
  /** Spec §2, as prerendered; below CLAIM_STUDENTS_THRESHOLD the page says FORM_NOTES.withoutCount (@shared/claims). */
  note: FORM_NOTES.withCount,
  /** The API's answers (spec §5, §8), and what the site says to a refusal any public form can get. */
  messages: { ...WAITLIST_MESSAGES, ...PUBLIC_FORM_ERRORS },
} as const;

export const contactForm = {
  submit: FORM_PAGE_TEXT.contactSubmit,
  sending: "Sending...",
  /** Spec §2: the disabled first option of a select. */
  selectPlaceholder: FORM_PAGE_TEXT.selectPlaceholder,
  /** The API's answers (spec §8), and what the site says to a refusal any public form can get. */
  messages: { ...FORM_MESSAGES, ...PUBLIC_FORM_ERRORS },
} as const;

export const honeypot = {
  /**
   * The label of the field people never see (components/Honeypot.tsx). It is read only where
   * styles are off, a text browser say: there it must tell a person to leave the field alone.
   */
  label: FORM_PAGE_TEXT.honeypotLabel,
} as const;
