import { type PublicSubmission, submissionRoute } from "../../platform/http/submission";
import { API_BODY_ERRORS, ApiError } from "../../platform/http/errors";
import { FORM_PAGE_TEXT } from "../../shared/public-forms";
import { ATTRIBUTION_FIELDS, WAITLIST_MESSAGES, waitlistSchema } from "../../shared/waitlist";
import { isDisposableAddress } from "./disposable";
import { afterJoin, joinWithJourney } from "./journey";

const ALREADY_JOINED = "already_joined";

/**
 * POST /api/waitlist {email, source?, utm_source?, utm_medium?, utm_campaign?, referrer_host?, ref?}:
 * spec §5 and §7, as JSON or as a browser's form post (answered with a page), through the public
 * submission pipeline (worker/platform/http/submission.ts). Per client at most WAITLIST_RATE_LIMIT
 * joins per window. The entry is stored (and its notification claimed) in one batch, with the
 * joiner's e-mail (worker/features/waitlist/journey.ts): the confirmation (or, double opt-in off, the
 * confirmation at once and a welcome), sent after the response. An address at a disposable-mail
 * domain is refused at its field.
 */
export const WAITLIST_SUBMISSION: PublicSubmission<typeof waitlistSchema> = {
  counter: "waitlist",
  limit: (config) => config.publicLimits.waitlist,
  schema: waitlistSchema,
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
    informational: [ALREADY_JOINED],
  },
  failure: WAITLIST_MESSAGES.failure,
  // joined_at is this request's time, for a re-join too: an answer must never tell a stranger
  // when an address first joined.
  answer: (input, at) => ({ email: input.email, joined_at: at }),
  async store(deps, input, claim, request) {
    if (isDisposableAddress(input.email)) throw API_BODY_ERRORS.invalid({ email: WAITLIST_MESSAGES.emailDisposable });
    // The repository reads the address, the placement and the ATTRIBUTION_FIELDS from the input.
    const result = await joinWithJourney(deps, input, claim, { origin: request.origin, network: request.network });
    // The joiner's mail goes whatever the spec's answer: a re-join of an unconfirmed address
    // re-sends the confirmation (within the daily cap) even when it is the 409 duplicate.
    await afterJoin(deps, result, request.defer);
    if (result.outcome === "duplicate") throw new ApiError(409, ALREADY_JOINED, WAITLIST_MESSAGES.duplicate);
    // Not claimed: another request is sending this entry's notification right now.
    return result.claimed ? { item: { kind: "waitlist", record: result.entry }, budgetUsed: result.budgetUsed } : null;
  },
};

export const waitlistRoutes = submissionRoute(WAITLIST_SUBMISSION);
