import type { Deps } from "../../deps";
import type { AuthUser } from "../../platform/db/schema";
import { API_BODY_ERRORS, ApiError } from "../../platform/http/errors";
import { log } from "../../platform/log";
import { ME_ERRORS, type MeData, type MeErasure, SELF_OPERATOR } from "../../shared/me";
import { normalizeEmail } from "../../shared/text";
import { personJson, subjectHash } from "../operator";
import { AGE_MESSAGES } from "../../shared/age";
import { PARENT_NEEDED } from "../age";
import { jwtSecret } from "../sign-in";
import { mailboxKeys } from "../waitlist";
import { kickWebhooks } from "../webhooks";
import { readableData } from "./download";
import { consentTrailOf } from "./subscription";

/**
 * A person's own data (GET and DELETE /api/me): the download is the operator's data-access answer
 * plus the consent trail, in words a student reads (download.ts); the erasure is the operator's, both recorded in the audit trail with
 * the operator "self" (worker/features/operator/).
 */

/** The audit record's who and whom for a person acting on their own data (never the address itself). */
async function selfAudit(deps: Deps, email: string) {
  return { operator: SELF_OPERATOR, subjectHash: await subjectHash(jwtSecret(deps.config), email), now: deps.now() };
}

/** Everything stored about the address: the operator's data-access answer, the e-mails sent to it and the consent trail, readable. */
export async function myData(deps: Deps, email: string): Promise<MeData> {
  const [found, consent] = await Promise.all([deps.repo.operator.person(email, await selfAudit(deps, email)), consentTrailOf(deps, email)]);
  return readableData(personJson(email, found, deps.now()), found, consent, deps.now());
}

/** DELETE /api/me's `confirm`: the address typed again, compared as addresses are stored (400 otherwise). */
function confirmedAddress(typed: unknown, email: string): void {
  if (typeof typed !== "string") throw API_BODY_ERRORS.invalid({ confirm: "Type your e-mail address to confirm." });
  if (normalizeEmail(typed) !== email) {
    throw new ApiError(400, ME_ERRORS.confirmMismatch, "That is not your address: type it exactly as shown to delete everything.", {
      field: "confirm",
    });
  }
}

/** Erases everything about the signed-in user's address, once they typed it again: the session ends with the user. */
export async function eraseMe(deps: Deps, user: AuthUser, typed: unknown): Promise<MeErasure> {
  confirmedAddress(typed, user.email);
  return erase(deps, user, "me.erased");
}

/**
 * Erases everything about the signed-in address of a child below the consent age (issue 23: the
 * one-click join's answer is actual knowledge that the address is a child's), as DELETE /api/me
 * does but without the typed confirmation: the child's address is not kept, the session ends with
 * the user. Audited as "self", like any erasure the person's own request caused.
 */
export function eraseChild(deps: Deps, user: AuthUser): Promise<MeErasure> {
  return erase(deps, user, "me.child_erased");
}

/** The erasure itself (the operator's, audited as "self"), logged by the user's id: log lines carry no address. */
async function erase(deps: Deps, user: AuthUser, event: string): Promise<MeErasure> {
  const audit = await selfAudit(deps, user.email);
  const counts = await deps.repo.operator.erasePerson(user.email, audit, ...(await mailboxKeys(deps.config.auth.jwtSecret, user.email)));
  log("info", event, { user: user.id, ...counts });
  // The batch stored person.erased when an endpoint was ever sent the person's data (a queue message, never a throw).
  await kickWebhooks(deps);
  return counts;
}

/**
 * POST /api/me/waitlist's answer once a child was erased (eraseChild): the join's 400
 * `parent_needed`, with `signed_out: true` (the sign-in is gone: the page ends the session).
 */
export function childErased(): ApiError {
  const message = AGE_MESSAGES.parentNeeded;
  return new ApiError(400, PARENT_NEEDED, message, { field: "parent_email", fields: { parent_email: message }, signed_out: true });
}
