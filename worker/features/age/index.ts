/**
 * The neutral age question (issue 23), as the joins use it (worker/features/waitlist, me): the
 * decision from the birth month and year or the `hwh_age` cookie, the visitor's country, and the
 * 400 of a visitor who needs a parent; whether a kept answer says a parent decides (sign-in's
 * /otp and /verify). The consent ages are worker/shared/consent-ages.ts.
 */
export { type AgeDecision, ageHeaders, decideAge, PARENT_NEEDED, parentMustDecide, parentNeeded } from "./decide";
export { AGE_COOKIE, AGE_COOKIE_SECONDS, readAgeAnswer, signAgeAnswer } from "./cookie";
export { visitorCountry } from "./country";
