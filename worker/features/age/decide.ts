import type { Deps } from "../../deps";
import { API_BODY_ERRORS, ApiError } from "../../platform/http/errors";
import { type AgeBand, AGE_MESSAGES, ageInYears, bandOfAge, birthProblemMessage, isBirthProblem, readBirthAnswer } from "../../shared/age";
import { consentAge } from "../../shared/consent-ages";
import { AGE_COOKIE_SECONDS, ageCookieHeader, ageCookieOf, readAgeAnswer } from "./cookie";
import { visitorCountry } from "./country";

/**
 * The neutral age question's decision (issue 23; docs/api.md "The age question"), its one home:
 * the band of the birth month and year a join sent (worker/shared/age.ts readBirthAnswer: the
 * younger reading of a birth month), and whether a parent or guardian decides (below the consent
 * age of the visitor's country, worker/shared/consent-ages.ts, never below PARENTAL_CONSENT_UNDER).
 * A valid `hwh_age` cookie wins over any answer typed (the 24-hour lock); then the fields may be
 * left out. The birth month and year are read here only, never stored, logged or sent on.
 */

/** What was decided: the band, whether a parent decides, the country it was decided for, and the cookie to set (null: the cookie decided, and stays as it is). */
export type AgeDecision = { band: AgeBand; parentNeeded: boolean; country: string | null; setCookie: string | null };

/** What the decision reads: the body's birth fields (as sent) and the request (its cookie and country). */
export type AgeQuestion = { birthMonth: unknown; birthYear: unknown; request: Request };

/**
 * The decision for a join. Throws the API's 400 validation_failed naming `birth_month` or
 * `birth_year` (with AGE_MESSAGES' words) when there is no valid cookie and the answer is missing
 * or impossible; nothing is decided then, and no cookie set.
 */
export async function decideAge(deps: Pick<Deps, "config" | "now">, question: AgeQuestion): Promise<AgeDecision> {
  const now = deps.now();
  const country = visitorCountry(deps, question.request);
  const kept = await readAgeAnswer(deps.config.auth.jwtSecret, ageCookieOf(question.request.headers.get("cookie")), now);
  if (kept) return { band: kept.band, parentNeeded: kept.parentNeeded, country, setCookie: null };
  const read = readBirthAnswer(question.birthMonth, question.birthYear, now);
  if (isBirthProblem(read)) throw API_BODY_ERRORS.invalid({ [read.field]: birthProblemMessage(read) });
  const age = ageInYears(read.month, read.year, now);
  const band = bandOfAge(age);
  const parentNeeded = age < consentAge(country, deps.config.age.parentalConsentUnder);
  const expires = new Date(now.getTime() + AGE_COOKIE_SECONDS * 1000);
  return { band, parentNeeded, country, setCookie: await ageCookieHeader(deps, { band, parentNeeded, expires }) };
}

/**
 * Whether the request carries a valid `hwh_age` cookie that says a parent or guardian must decide
 * (the 24-hour lock of an answer below the consent age). Sign-in sends no code then (POST
 * /auth/v1/otp, docs/api.md "The age question"): the child's address is neither stored nor mailed.
 */
export async function parentMustDecide(deps: Pick<Deps, "config" | "now">, request: Request): Promise<boolean> {
  const kept = await readAgeAnswer(deps.config.auth.jwtSecret, ageCookieOf(request.headers.get("cookie")), deps.now());
  return kept?.parentNeeded === true;
}

/** The headers that carry a decision's cookie ({} when the cookie decided). */
export const ageHeaders = (decision: AgeDecision): Record<string, string> =>
  decision.setCookie ? { "Set-Cookie": decision.setCookie } : {};

/** The code of the 400 for a visitor below the consent age who gave no parent's address. */
export const PARENT_NEEDED = "parent_needed";

/** The 400 of a join below the consent age without a parent's address: at the parent_email field, with the decision's cookie. */
export function parentNeeded(decision: AgeDecision): ApiError {
  const message = AGE_MESSAGES.parentNeeded;
  return new ApiError(400, PARENT_NEEDED, message, { field: "parent_email", fields: { parent_email: message } }, ageHeaders(decision));
}
