import type { Deps } from "../../deps";
import type { AgeBand } from "../../shared/age";
import { type Defer, joinOnBehalfOfChild, journeyOf } from "../waitlist";
import { ParentTokenError, requestOfToken } from "./token";
import type { NoticeFacts } from "./words";

/**
 * The parent's answer (POST /parent; docs/api.md "Parents"):
 * - agree: the parent's own address joins on behalf of the child, confirmed, with the child's
 *   band, the country and the time of the answer, no referral code (worker/features/waitlist
 *   joinOnBehalfOfChild); then the request is deleted and "agreed" counted, in one batch, counted
 *   only by the press that deleted it. The join is idempotent (an address on the list stays as it
 *   is), so a press that failed half-way is simply pressed again.
 * - decline: the request deleted and "declined" counted, in one batch, at once.
 * A token that cannot be used throws ParentTokenError and changes nothing.
 */

export type Answered = { outcome: "agreed"; place: number | null } | { outcome: "declined" };

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** What the page shows of a request a token names (GET /parent): the notice's facts. Changes nothing. */
export async function noticeOfToken(deps: Deps, token: string): Promise<NoticeFacts> {
  const request = await requestOfToken(deps, token);
  return { band: request.ageBand as AgeBand, country: request.country, days: deps.config.retention.parentalRequestDays };
}

export async function answerRequest(deps: Deps, token: string, answer: "agree" | "decline", defer?: Defer): Promise<Answered> {
  const request = await requestOfToken(deps, token);
  const now = deps.now();
  if (answer === "decline") {
    if (!(await deps.repo.parents.answer(request, "declined", utcDay(now)))) throw new ParentTokenError("unknown");
    return { outcome: "declined" };
  }
  const origin = deps.config.siteUrl || request.origin;
  await joinOnBehalfOfChild(deps, request.parentEmail, {
    band: request.ageBand,
    country: request.country,
    consentAt: now,
    origin,
    ...(defer ? { defer } : {}),
  });
  await deps.repo.parents.answer(request, "agreed", utcDay(now));
  const { position } = await journeyOf(deps, request.parentEmail, origin);
  return { outcome: "agreed", place: position };
}
