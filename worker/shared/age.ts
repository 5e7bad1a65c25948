/**
 * Students and their parents (issue 23): the neutral age question's bands and rules, shared by the
 * worker (which decides) and the web app (which asks). The birth month and year are read only to
 * place the visitor in a band here; they are never stored, logged or sent anywhere else.
 * The consent ages per country are worker/shared/consent-ages.ts.
 */

/** The bands the waitlist keeps (never the birth month or year). */
export const AGE_BANDS = ["under_13", "13_15", "16_17", "18_plus"] as const;
export type AgeBand = (typeof AGE_BANDS)[number];
/** What an entry holds: a band, or "unknown" for entries made before the age question existed. */
export type AgeBandStored = AgeBand | "unknown";

/** The oldest answer the question offers and accepts: every year of a full range, no cut-off near 13. */
export const AGE_QUESTION_YEARS = 120;

/** The years the question lists, newest first: this year back AGE_QUESTION_YEARS years. */
export function birthYearsOffered(now: Date): number[] {
  const year = now.getUTCFullYear();
  return Array.from({ length: AGE_QUESTION_YEARS + 1 }, (_, i) => year - i);
}

/**
 * The age in whole years of someone born in (month, year), on `now` (UTC). Without the day, a
 * visitor in their birth month is counted as not having had their birthday yet: the younger
 * reading, so that nobody is taken for old enough a month early.
 */
export function ageInYears(birthMonth: number, birthYear: number, now: Date): number {
  const month = now.getUTCMonth() + 1;
  return now.getUTCFullYear() - birthYear - (month <= birthMonth ? 1 : 0);
}

/** The band of an age in whole years. */
export function bandOfAge(age: number): AgeBand {
  if (age < 13) return "under_13";
  if (age < 16) return "13_15";
  if (age < 18) return "16_17";
  return "18_plus";
}

/** Whether a band is a minor's (under 18): no referral rewards unless MINOR_REFERRAL_REWARDS. */
export const isMinorBand = (band: AgeBandStored): boolean => band === "under_13" || band === "13_15" || band === "16_17";

/**
 * The neutral question's answer read from a body (numbers or numeric strings): a birth month 1-12
 * and a four-digit year, neither in the future nor older than AGE_QUESTION_YEARS. A problem names
 * its field: "missing" (no answer), "impossible" (not a month, not a year, or a date that cannot be
 * a birth date).
 */
export type BirthAnswer = { month: number; year: number };
export type BirthProblem = { field: "birth_month" | "birth_year"; problem: "missing" | "impossible" };

const wholeNumber = (value: unknown): number | null | undefined => {
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) return undefined;
  if (typeof value === "number") return Number.isInteger(value) ? value : null;
  if (typeof value === "string" && /^\s*\d{1,4}\s*$/.test(value)) return Number(value.trim());
  return null;
};

export function readBirthAnswer(monthValue: unknown, yearValue: unknown, now: Date): BirthAnswer | BirthProblem {
  const month = wholeNumber(monthValue);
  const year = wholeNumber(yearValue);
  if (month === undefined) return { field: "birth_month", problem: "missing" };
  if (month === null || month < 1 || month > 12) return { field: "birth_month", problem: "impossible" };
  if (year === undefined) return { field: "birth_year", problem: "missing" };
  if (year === null || year < 1000 || year > 9999) return { field: "birth_year", problem: "impossible" };
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  if (year > thisYear || (year === thisYear && month > thisMonth) || year < thisYear - AGE_QUESTION_YEARS) {
    return { field: "birth_year", problem: "impossible" };
  }
  return { month, year };
}

export const isBirthProblem = (read: BirthAnswer | BirthProblem): read is BirthProblem => "problem" in read;

/**
 * The words of the age question and the parent path, shown by the web app and by the pages the
 * worker answers a form posted without JavaScript. Neutral until answered: nothing here is shown
 * before the answer except `question`, `month`, `year` and the placeholders.
 */
export const AGE_MESSAGES = {
  question: "Your birth month and year",
  month: "Month",
  year: "Year",
  monthPlaceholder: "Month",
  yearPlaceholder: "Year",
  /** Why the question is asked: neutral, said to everyone. */
  why: "We ask everyone this so we treat your details the right way.",
  birthMissing: "Please choose the month and year you were born",
  birthImpossible: "Please check the month and year you were born",
  /** Below the consent age: said to the child, at the parent's field. */
  parentNeeded: "We need a parent or guardian to say yes first",
  parentExplain:
    "Type the email address of your parent or guardian. We'll send them one email explaining the waitlist. We won't keep your own email address.",
  parentEmailLabel: "Parent's or guardian's email",
  parentEmailRequired: "Please enter your parent's or guardian's email address",
  parentEmailInvalid: "Please enter a valid email address",
  parentSubmit: "Ask my parent or guardian",
  parentSentTitle: "Thanks! We've emailed your parent or guardian.",
  parentSentDetail:
    "When they say yes, they'll get a place on the waitlist for you. If they don't answer within 7 days, we delete the request.",
} as const;

/** The field message of a problem with the answer. */
export function birthProblemMessage(problem: BirthProblem): string {
  return problem.problem === "missing" ? AGE_MESSAGES.birthMissing : AGE_MESSAGES.birthImpossible;
}
