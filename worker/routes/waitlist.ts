import { Hono } from "hono";
import { submissionBody, validJson } from "../http/body";
import { API_BODY_ERRORS, ApiError, publicFormLimitErrors } from "../http/errors";
import { created, type FormPage, type FormPostEnv } from "../http/form-page";
import { publicForm } from "../http/form-post";
import { limitPerClient } from "../http/rate-limit";
import { screenSubmission } from "../http/turnstile";
import { deliverNew, firstClaim } from "../mail/outbox";
import { FORM_PAGE_TEXT } from "../shared/public-forms";
import { WAITLIST_MESSAGES, waitlistSchema } from "../shared/waitlist";

/** The page a waitlist form posted without JavaScript is answered with; both placements sit on the home page. */
const WAITLIST_PAGE: FormPage = {
  heading: FORM_PAGE_TEXT.waitlistHeading,
  back: "/",
  success: [WAITLIST_MESSAGES.successTitle, WAITLIST_MESSAGES.successDetail],
};

/**
 * POST /api/waitlist {email, source?, utm_source?, utm_medium?, utm_campaign?, referrer_host?}: spec §5 and §7, as JSON or as a browser's form post
 * (answered with a page). Per client at most WAITLIST_RATE_LIMIT joins per window; a filled
 * honeypot is answered as a success and dropped; Turnstile, when configured, is checked before
 * anything is stored. The entry is stored (and its notification claimed) in one statement; the
 * notification is sent after the response, so the visitor never waits for e-mail.
 */
export const waitlistRoutes = new Hono<FormPostEnv>().post(
  "/",
  publicForm(WAITLIST_PAGE),
  limitPerClient(
    (c) => ({ name: "waitlist", ...c.get("deps").config.publicLimits.waitlist }),
    publicFormLimitErrors(WAITLIST_MESSAGES.failure),
  ),
  submissionBody(API_BODY_ERRORS),
  validJson(waitlistSchema, API_BODY_ERRORS),
  async (c) => {
    const input = c.req.valid("json");
    const deps = c.get("deps");
    const { repo, now } = deps;
    if ((await screenSubmission(c, input)) === "bot") return created(c, { email: input.email, joined_at: now().toISOString() });

    let result: Awaited<ReturnType<typeof repo.joinWaitlist>>;
    try {
      const { email, source, utm_source, utm_medium, utm_campaign, referrer_host } = input;
      result = await repo.joinWaitlist({ email, source, utm_source, utm_medium, utm_campaign, referrer_host }, firstClaim(deps));
    } catch (error) {
      throw new ApiError(500, "internal_error", WAITLIST_MESSAGES.failure, {}, {}, { cause: error });
    }
    if (result.outcome === "duplicate") throw new ApiError(409, "already_joined", WAITLIST_MESSAGES.duplicate);

    // Not claimed: another request is sending this entry's notification right now.
    if (result.claimed) c.executionCtx.waitUntil(deliverNew(deps, { kind: "waitlist", record: result.entry }, result.budgetUsed));
    return created(c, { email: result.entry.email, joined_at: result.entry.createdAt });
  },
);
