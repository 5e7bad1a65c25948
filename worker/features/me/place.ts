import type { Deps } from "../../deps";
import { tooManyRequests, ApiError } from "../../platform/http/errors";
import { JOURNEY_TEXT } from "../../shared/journey-text";
import { ME_ERRORS, type MeAnswer } from "../../shared/me";
import { tooManyAttempts } from "../../shared/public-forms";
import { type Defer, journeyOf, resendConfirmation } from "../waitlist";
import { subscriptionOf } from "./subscription";

/**
 * The signed-in joiner's place (GET /api/me, docs/api.md "My place API"): where the address stands
 * on the waitlist (the waitlist's rules: worker/features/waitlist/), its share box's words and
 * boost, and its consent to campaign e-mail.
 */

/** Where a request came from (the referral link's site when SITE_URL is unset), its client network, and how to finish work after the response. */
export type MeRequest = { origin: string; network: string; defer: Defer };

/** GET /api/me's answer for the signed-in address, as it is now. */
export async function meAnswer(deps: Deps, email: string, origin: string): Promise<MeAnswer> {
  const [journey, subscription] = await Promise.all([journeyOf(deps, email, origin), subscriptionOf(deps, email)]);
  const share = { text: JOURNEY_TEXT.shareText };
  return { email, ...journey, share, subscription };
}

/** Sends the confirmation e-mail again: only while pending (409 otherwise), within the address's daily cap (429 over it). */
export async function resendMine(deps: Deps, email: string, request: MeRequest): Promise<void> {
  const { status } = await journeyOf(deps, email, request.origin);
  if (status !== "pending") {
    const message = status === "none" ? "You are not on the waitlist." : "Your place is already confirmed.";
    throw new ApiError(409, ME_ERRORS.notPending, message);
  }
  const sent = await resendConfirmation(deps, email, request);
  if (!sent.sent) {
    const wait = sent.retryAfterSeconds ?? 86_400;
    throw tooManyRequests(wait, tooManyAttempts(wait));
  }
}
