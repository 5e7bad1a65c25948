import type { Deps } from "../../deps";
import { toHex } from "../../shared/hash";
import { hmac } from "../../platform/crypto";
import { describeError, log } from "../../platform/log";
import { jwtSecret } from "../sign-in";
import type { AuditOf } from "./queries";

/**
 * The audit trail (hwh_audit_log): who did what, and when. It names the person an action was
 * about (a look-up, an erasure) by subjectHash only, never by address.
 */

/**
 * How the audit trail names the person an operator's action was about (an erasure): keyed with
 * the server secret, so the trail never holds the address, yet the same address always gives
 * the same hash (a later request about it can be matched to the record).
 */
export async function subjectHash(secret: string, email: string): Promise<string> {
  return toHex(await hmac(secret, "audit-subject", email));
}

/** The audit record's who (an operator's name, "admin-key", or "self") and whom (the address's subjectHash), now. */
export async function auditOf(deps: Deps, operator: string, email: string): Promise<AuditOf> {
  return { operator, subjectHash: await subjectHash(jwtSecret(deps.config), email), now: deps.now() };
}

/** Records an operator's action that named no person (`operator`: their name, as the trail records it). */
export async function recordAction(
  deps: Deps,
  operator: { name: string },
  action: string,
  details: Record<string, unknown>,
): Promise<void> {
  await deps.repo.operator.recordAction(action, operator.name, details, deps.now());
}

/**
 * Records an action that is already done and safe to have done without its record (putting dead
 * joins back on the joins queue: nothing is read or erased, and the queue stores each join once):
 * when the audit trail cannot be written (the database is down), the action stands and the
 * record goes to the log instead (`audit.not_recorded`: the action, the operator's id, the
 * details), and the answer says so. Whether it was recorded.
 */
export async function recordDoneAction(
  deps: Deps,
  operator: { name: string; id: string },
  action: string,
  details: Record<string, unknown>,
): Promise<boolean> {
  try {
    await recordAction(deps, operator, action, details);
    return true;
  } catch (error) {
    log("error", "audit.not_recorded", { action, operator: operator.id, details, error: describeError(error) });
    return false;
  }
}

/**
 * Records an operator's action about one person's waitlist entry (holding it out of waves,
 * voiding a credit): the person by subjectHash only, the entry by id in `details`, never an address.
 */
export async function recordEntryAction(
  deps: Deps,
  operator: { name: string },
  action: string,
  email: string,
  details: Record<string, unknown>,
): Promise<void> {
  const { subjectHash: hash, now } = await auditOf(deps, operator.name, email);
  await deps.repo.operator.recordAction(action, operator.name, details, now, hash);
}
