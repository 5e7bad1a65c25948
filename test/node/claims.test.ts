/**
 * Issue 24: the confirmed count as the page states it (worker/shared/claims.ts): rounded down,
 * two significant figures below 10,000 and whole thousands from there, shown from the threshold on.
 */
import { describe, expect, it } from "vitest";
import { FORM_NOTES, SPEC_CLAIMS, claimWords, readClaims, roundedCount, studentsClaim } from "../../worker/shared/claims";

describe("the students' claim", () => {
  it("rounds down: two significant figures below 10,000, whole thousands from 10,000", () => {
    const cases: [number, string][] = [
      [0, "0+"],
      [7, "7+"],
      [85, "85+"],
      [999, "990+"],
      [1000, "1,000+"],
      [1099, "1,000+"],
      [1234, "1,200+"],
      [9876, "9,800+"],
      [10_000, "10,000+"],
      [12_345, "12,000+"],
      [99_999, "99,000+"],
      [1_234_567, "1,234,000+"],
    ];
    for (const [count, shown] of cases) expect(roundedCount(count), String(count)).toBe(shown);
  });

  it("is shown from the threshold on, never below it or when the count is unknown", () => {
    expect(studentsClaim(999, 1000)).toBeNull();
    expect(studentsClaim(1000, 1000)).toBe("1,000+");
    expect(studentsClaim(1234, 1000)).toBe("1,200+");
    expect(studentsClaim(null, 0)).toBeNull();
    expect(studentsClaim(0, 0)).toBe("0+");
  });

  it("words the page with and without the count", () => {
    expect(claimWords(SPEC_CLAIMS)).toMatchObject({
      launchBadge: "Launching Q3 2025",
      studentsStat: "1,000+",
      responseStat: "<30s",
      ctaIntro: "Join 1,000+ students waiting for launch in Q3 2025. Free for students, no subscriptions.",
      formNote: "Join thousands of students already on our waitlist. No spam, ever.",
    });
    const without = claimWords({ ...SPEC_CLAIMS, studentsWaiting: null });
    expect(without.studentsLine).toBeNull();
    expect(without.formNote).toBe(FORM_NOTES.withoutCount);
    expect(without.formNote).toBe("Join students already on our waitlist. No spam, ever.");
  });

  it("reads back only a complete set of claims", () => {
    expect(readClaims(JSON.stringify(SPEC_CLAIMS))).toEqual(SPEC_CLAIMS);
    expect(readClaims(JSON.stringify({ ...SPEC_CLAIMS, studentsWaiting: null }))?.studentsWaiting).toBeNull();
    expect(readClaims("{")).toBeNull();
    expect(readClaims(JSON.stringify({ ...SPEC_CLAIMS, launch: 3 }))).toBeNull();
    expect(readClaims(null)).toBeNull();
  });
});
