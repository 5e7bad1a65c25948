import { validate } from "@shared/text";
import { LANDING_FIELDS, waitlistSchema } from "@shared/waitlist";
import { AGE_MESSAGES, birthProblemMessage, isBirthProblem, readBirthAnswer } from "@shared/age";
import type { WaitlistField, WaitlistJoin } from "../api";
import { waitlistForm } from "../form-content";
import { fieldText } from "./form-data";

/**
 * What the waitlist form (./WaitlistForm.tsx) sends, read from its fields with the server's own
 * rules before anything is posted: the landing page's attribution, and the join of its step (the
 * visitor's address and age answer, or a parent's address with the answer given before).
 */

/**
 * The landing page's attribution (utm_source, utm_medium, utm_campaign, referrer_host) and a
 * shared link's referral code (ref): the
 * worker writes it into the hidden fields of the page it serves (worker/features/pages/routes.ts). Read
 * once, before the app renders, so a form rendered later (after a visit to another page of the
 * site) carries it too, and hydration finds the values the page holds.
 */
export const landing: Record<string, string> = Object.fromEntries(
  LANDING_FIELDS.map((name) => [
    name,
    typeof document === "undefined" ? "" : (document.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value ?? ""),
  ]),
);

/** The attribution fields (and ref) that hold something: only those are sent. */
export function attributionOf(data: FormData): Record<string, string> {
  return Object.fromEntries(LANDING_FIELDS.map((name) => [name, fieldText(data, name)]).filter(([, value]) => value !== ""));
}

/**
 * What the form shows. `known`: the address was on the list already (spec §5's duplicate), which is good news.
 * `asked`: a parent's or guardian's address took the place of a child's, and they were e-mailed.
 * An error names the field it is about when there is one to correct.
 */
export type Status =
  | { state: "idle" }
  | { state: "loading" }
  | { state: "success" }
  | { state: "known" }
  | { state: "asked" }
  | { state: "error"; message: string; field?: WaitlistField };

/** `email`: the visitor's own address and the age question; `parent`: a parent must decide, and only their address is asked. */
export type Step = "email" | "parent";

/** The join to send and the age answer it carries, or the refusal to show at its field. */
export type ReadJoin = { join: WaitlistJoin; answer: WaitlistJoin } | { refusal: { message: string; field?: WaitlistField } };

/** The step's join from the form's data; `answer` is the age answer given at the first step (sent again with a parent's address). */
export function readJoin(data: FormData, step: Step, source: string, answer: WaitlistJoin): ReadJoin {
  if (step === "email") {
    const birth = readBirthAnswer(fieldText(data, "birth_month"), fieldText(data, "birth_year"), new Date());
    if (isBirthProblem(birth)) return { refusal: { message: birthProblemMessage(birth), field: birth.field } };
    const input = validate(waitlistSchema, { email: fieldText(data, "email"), source });
    // The source is this placement's constant: only the e-mail can be wrong, unless the page is.
    if (!input.ok) return { refusal: { message: input.fieldErrors.email ?? waitlistForm.messages.failure, field: "email" } };
    const given = { birth_month: String(birth.month), birth_year: String(birth.year) };
    return { join: { email: input.value.email, ...given }, answer: given };
  }
  const input = validate(waitlistSchema, { email: fieldText(data, "parent_email"), source });
  if (!input.ok) {
    const message = input.fieldErrors.email;
    return {
      refusal: {
        message:
          message === waitlistForm.messages.emailRequired
            ? AGE_MESSAGES.parentEmailRequired
            : message === waitlistForm.messages.emailInvalid
              ? AGE_MESSAGES.parentEmailInvalid
              : (message ?? waitlistForm.messages.failure),
        field: "parent_email",
      },
    };
  }
  return { join: { parent_email: input.value.email, ...answer }, answer };
}
