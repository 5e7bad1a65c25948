/**
 * The neutral age question's answers for the tests that join (issue 23): every join answers it
 * (POST /api/waitlist, POST /api/me/waitlist), and the tests of something else answer as an adult
 * (18 or over everywhere, so nothing asks for a parent). The age tests (test/worker/age-*.test.ts)
 * give their own answers.
 */

/** A birth month and year of an adult, as the JSON joins send it. */
export const ADULT_ANSWER = { birth_month: 1, birth_year: 1990 } as const;

/** The same answer as a form post's fields (the selects of the no-JS form). */
export const ADULT_FORM: Readonly<Record<string, string>> = { birth_month: "1", birth_year: "1990" };

/** The JSON body of a one-click join (POST /api/me/waitlist) as an adult, with its Content-Type. */
export const ADULT_JOIN_INIT = { headers: { "Content-Type": "application/json" }, body: JSON.stringify(ADULT_ANSWER) } as const;
