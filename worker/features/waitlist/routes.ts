import type { Deps } from "../../deps";
import { type PublicSubmission, submissionRoute } from "../../platform/http/submission";
import { FORM_PAGE_TEXT } from "../../shared/public-forms";
import { ATTRIBUTION_FIELDS, WAITLIST_MESSAGES, waitlistPostSchema } from "../../shared/waitlist";
import { PARENT_NEEDED } from "../age";
import { ALREADY_JOINED, join } from "./join";

/**
 * POST /api/waitlist {email, source?, utm_source?, utm_medium?, utm_campaign?, referrer_host?, ref?}:
 * spec §5 and §7, as JSON or as a browser's form post (answered with a page), through the public
 * submission pipeline (worker/platform/http/submission.ts). Per client network at most
 * WAITLIST_LIMITER's joins a minute (wrangler.toml: 60, a class of 40 is never refused), counted
 * at the store (join.ts): only a request that would store something (an entry, a child's parental
 * request) counts, so a child's first step (400 parent_needed), a typo's 400 or a bot's drop costs
 * none of it. What a join stores, refuses and sends is join.ts'.
 */
const WAITLIST_SUBMISSION: PublicSubmission<typeof waitlistPostSchema, Deps> = {
  limiter: { binding: "WAITLIST_LIMITER", at: "store" },
  schema: waitlistPostSchema,
  page: {
    heading: FORM_PAGE_TEXT.waitlistHeading,
    // Both placements sit on the home page.
    back: "/",
    success: [WAITLIST_MESSAGES.successTitle, WAITLIST_MESSAGES.successDetail],
    successNote: WAITLIST_MESSAGES.checkInbox,
    // Given back with the placement, the landing page's attribution and referral code it was posted with.
    form: {
      kind: "waitlist",
      label: FORM_PAGE_TEXT.waitlistHeading,
      submit: FORM_PAGE_TEXT.waitlistHeading,
      hidden: ["source", ...ATTRIBUTION_FIELDS, "ref"],
    },
    // Spec §5's duplicate means the address is on the list: news, as the app says it.
    // A visitor below the consent age is asked for a parent's address: the next step, not a failure.
    informational: [ALREADY_JOINED, PARENT_NEEDED],
  },
  failure: WAITLIST_MESSAGES.failure,
  // joined_at is this request's time, for a re-join too: an answer must never tell a stranger
  // when an address first joined.
  answer: (input, at) => ({ email: input.email, joined_at: at }),
  store: join,
};

export const waitlistRoutes = submissionRoute(WAITLIST_SUBMISSION);
