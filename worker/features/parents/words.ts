import type { AgeBand } from "../../shared/age";
import { BRAND_NAME } from "../../shared/brand";
import { PUBLISHED_RETENTION_DAYS } from "../../shared/retention";

/**
 * The words the parent reads, once for the e-mail (emails.ts) and the page (page.ts): the direct
 * notice (who we are, what we would keep and why, that nothing is passed on, how to review or
 * delete, the children's part of the privacy policy) and the page's buttons and answers.
 */

/** How a band is said to a parent. */
const BAND_WORDS: Record<AgeBand, string> = {
  under_13: "under 13",
  "13_15": "13 to 15",
  "16_17": "16 or 17",
  "18_plus": "18 or older",
};

/** A country's name in English (its ISO code when the runtime has no name for it). */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** What the request is about, for the notice: the child's age group and country as the child answered. */
export type NoticeFacts = { band: AgeBand; country: string | null; days: number };

export const PARENT_TEXT = {
  emailTitle: `A child asked to join the ${BRAND_NAME} waitlist`,
  heading: "Your child asked to join our waitlist",
  reviewButton: "Review the request",
  agreeButton: "Yes, add us to the waitlist",
  declineButton: "No, delete this request",
  pageTitle: "A request to join the waitlist",
  privacyLink: "What we do with children's data",
  ignore: "If you don't know what this is about, you can ignore this e-mail.",
  agreedTitle: "Done: you're on the waitlist",
  agreedPlace: (place: number) => `Your family is #${place} in line.`,
  agreedSignIn: 'To see your place, download what we keep or delete it, sign in with your e-mail address on "My place".',
  myPlaceLink: "Go to My place",
  declinedTitle: "Request deleted",
  declinedText: "We've deleted the request and your e-mail address. We won't e-mail you about it again.",
  backLink: "Back to the home page",
  problems: {
    invalid: {
      title: "This link doesn't work",
      text: "This link isn't complete or was changed. Open the link from the e-mail again, or copy the whole address. Nothing has changed.",
    },
    expired: {
      title: "This link has expired",
      text: `The request was not answered within ${PUBLISHED_RETENTION_DAYS.RETENTION_PARENTAL_REQUEST_DAYS} days, so we deleted it. Nothing has been kept. Your child can ask again.`,
    },
    unknown: {
      title: "This request is no longer open",
      text: "It was answered already, or it has been deleted. Nothing has changed.",
    },
    otherSite: {
      title: "This answer came from another site",
      text: "Please open the link from the e-mail and press the button on our page. Nothing has changed.",
    },
    failed: {
      title: "Something went wrong",
      text: "We couldn't record your answer. Please try again in a moment. Nothing has changed.",
    },
  },
} as const;

export type ParentProblem = keyof typeof PARENT_TEXT.problems;

/** The notice, paragraph by paragraph, in plain text (the e-mail and the page escape it). */
export function noticeLines(facts: NoticeFacts): string[] {
  const where = facts.country ? ` in ${countryName(facts.country)}` : "";
  const kept = facts.country
    ? "your e-mail address, your child's age group, the country and your place in line"
    : "your e-mail address, your child's age group and your place in line";
  return [
    `We are ${BRAND_NAME}, an AI homework helper that hasn't launched yet. Someone${where} who told us they are ${BAND_WORDS[facts.band]} gave us this e-mail address as their parent's or guardian's, and asked to join our waitlist.`,
    `We need your yes first. If you agree, we keep only ${kept}. We never keep your child's e-mail address.`,
    `We use this only to tell your family when ${BRAND_NAME} launches. We never pass it on to anyone.`,
    `You can see, download or delete it at any time: sign in with this e-mail address on "My place".`,
    `If you don't answer within ${facts.days} days, we delete this request and your e-mail address.`,
  ];
}
