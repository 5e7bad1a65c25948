/**
 * The site's claims (spec §1 and §9: launch Q3 2025, 1,000+ students waiting, 99% accuracy rate,
 * response time under 30s) and every sentence of the home page that states one, shared by the
 * worker and the page (web/src imports it as `@shared/claims`), so the page the worker rewrites
 * and the page the app hydrates say the same words.
 *
 * The page is prerendered with the spec's values (SPEC_CLAIMS). The worker
 * (worker/features/pages) then writes the current ones into every element marked
 * `data-claim="<key of ClaimWords>"` (its text; an element whose words are null is removed) and
 * puts them in a <meta name="hh-claims"> the app reads (readClaims), so the app renders what the
 * visitor already sees. The launch line, accuracy and response time are settings (CLAIM_LAUNCH,
 * CLAIM_ACCURACY, CLAIM_RESPONSE_TIME); the students' number is the confirmed count rounded down
 * (studentsClaim), shown from CLAIM_STUDENTS_THRESHOLD on.
 */

/** What the page states. `studentsWaiting` null: the count is below the threshold (or unknown), the line is left out. */
export type Claims = {
  launch: string;
  accuracyRate: string;
  responseTime: string;
  studentsWaiting: string | null;
};

/** The spec's claims, as the page is prerendered and as the settings default. */
export const SPEC_CLAIMS: Claims = {
  launch: "Q3 2025",
  accuracyRate: "99%",
  responseTime: "under 30s",
  studentsWaiting: "1,000+",
};

/** The <meta name> under which the worker puts the page's claims (JSON) for the app. */
export const CLAIMS_META = "hh-claims";

/** The forms' note (spec §2) with the number shown, and without it (below the threshold: no "thousands"). */
export const FORM_NOTES = {
  withCount: "Join thousands of students already on our waitlist. No spam, ever.",
  withoutCount: "Join students already on our waitlist. No spam, ever.",
} as const;

/**
 * The confirmed count rounded down, as the page shows it: two significant figures below 10,000
 * (1,234 -> "1,200+", 999 -> "990+", 85 -> "85+"), whole thousands from 10,000 on (12,345 ->
 * "12,000+"). Never more than the count: "+" means "at least".
 */
export function roundedCount(count: number): string {
  const whole = Math.max(0, Math.floor(count));
  const step = whole >= 10_000 ? 1000 : whole >= 100 ? 10 ** (String(whole).length - 2) : 1;
  const rounded = Math.floor(whole / step) * step;
  return `${String(rounded).replace(/\B(?=(\d{3})+(?!\d))/g, ",")}+`;
}

/** The students' claim for a confirmed count: shown from `threshold` on; null below it or when the count is unknown. */
export function studentsClaim(count: number | null, threshold: number): string | null {
  return count === null || count < threshold ? null : roundedCount(count);
}

/** The response time as a stat's big number: "under 30s" -> "<30s"; any other wording as set. */
function statTime(responseTime: string): string {
  return responseTime.replace(/^under\s+/i, "<");
}

/** Every text of the page that states a claim, by the `data-claim` key that marks its element. */
export function claimWords(claims: Claims) {
  const students = claims.studentsWaiting;
  return {
    heroIntro:
      "Snap a photo or type any question and get a clear, step-by-step explanation in " +
      `${claims.responseTime}, so you understand the answer, not just copy it.`,
    launchBadge: `Launching ${claims.launch}`,
    speedFeature: `Get a complete, worked solution with a response time ${claims.responseTime}, even late the night before it's due.`,
    accuracyStat: claims.accuracyRate,
    responseStat: statTime(claims.responseTime),
    /** The stats' "Students waiting" item: left out below the threshold. */
    studentsLine: students,
    studentsStat: students,
    ctaIntro:
      students === null
        ? `Be among the first when we launch in ${claims.launch}. Free for students, no subscriptions.`
        : `Join ${students} students waiting for launch in ${claims.launch}. Free for students, no subscriptions.`,
    formNote: students === null ? FORM_NOTES.withoutCount : FORM_NOTES.withCount,
  } satisfies Record<string, string | null>;
}

export type ClaimWords = ReturnType<typeof claimWords>;
export type ClaimKey = keyof ClaimWords;

/**
 * Keys whose element is removed whole when null (the line), as against one whose text is
 * replaced. `studentsLine` marks the stats item; `studentsStat` its number.
 */
export const CLAIM_LINES: readonly ClaimKey[] = ["studentsLine"];

/** The claims as the meta's content. */
export function claimsMetaContent(claims: Claims): string {
  return JSON.stringify(claims);
}

/** The claims a meta's content names, or null when it names none the page can use. */
export function readClaims(content: string | null | undefined): Claims | null {
  if (!content) return null;
  try {
    const value = JSON.parse(content) as Partial<Record<keyof Claims, unknown>>;
    const text = (x: unknown) => typeof x === "string" && x !== "";
    if (!text(value.launch) || !text(value.accuracyRate) || !text(value.responseTime)) return null;
    if (value.studentsWaiting !== null && !text(value.studentsWaiting)) return null;
    return {
      launch: value.launch as string,
      accuracyRate: value.accuracyRate as string,
      responseTime: value.responseTime as string,
      studentsWaiting: value.studentsWaiting as string | null,
    };
  } catch {
    return null;
  }
}
