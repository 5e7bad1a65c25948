import { type PublicSubmission, submissionRoute } from "../http/public-submission";
import { ApiError } from "../http/errors";
import { FORM_PAGE_TEXT } from "../shared/public-forms";
import { WAITLIST_MESSAGES, waitlistSchema } from "../shared/waitlist";

/**
 * POST /api/waitlist {email, source?, utm_source?, utm_medium?, utm_campaign?, referrer_host?}:
 * spec §5 and §7, as JSON or as a browser's form post (answered with a page), through the public
 * submission pipeline (worker/http/public-submission.ts). Per client at most WAITLIST_RATE_LIMIT
 * joins per window. The entry is stored (and its notification claimed) in one statement.
 */
export const WAITLIST_SUBMISSION: PublicSubmission<typeof waitlistSchema> = {
  counter: "waitlist",
  limit: (config) => config.publicLimits.waitlist,
  schema: waitlistSchema,
  // Both placements sit on the home page.
  page: { heading: FORM_PAGE_TEXT.waitlistHeading, back: "/", success: [WAITLIST_MESSAGES.successTitle, WAITLIST_MESSAGES.successDetail] },
  failure: WAITLIST_MESSAGES.failure,
  // joined_at is this request's time, for a re-join too: an answer must never tell a stranger
  // when an address first joined.
  answer: (input, at) => ({ email: input.email, joined_at: at }),
  async store(deps, input, claim) {
    // The repository reads the address, the placement and the ATTRIBUTION_FIELDS from the input.
    const result = await deps.repo.joinWaitlist(input, claim);
    if (result.outcome === "duplicate") throw new ApiError(409, "already_joined", WAITLIST_MESSAGES.duplicate);
    // Not claimed: another request is sending this entry's notification right now.
    return result.claimed ? { item: { kind: "waitlist", record: result.entry }, budgetUsed: result.budgetUsed } : null;
  },
};

export const waitlistRoutes = submissionRoute(WAITLIST_SUBMISSION);
