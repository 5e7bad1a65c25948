import type { Deps } from "../../deps";
import type { ErasureCounts, PersonRecord } from "../../shared/admin";
import { jwtSecret } from "../sign-in";
import { mailboxKeys } from "../waitlist";
import { kickWebhooks } from "../webhooks";
import { auditOf } from "./audit";
import { personJson } from "./json";

/**
 * What names a person (docs/api.md "Operator API": look-up and erasure), for the operator API and
 * for a person acting on their own data (/api/me, the operator "self"): each recorded in the
 * audit trail in the same batch as what it reads or deletes (worker/features/operator/queries).
 */

/** Everything stored about one (normalised) address, recorded as `person.looked_up` by `operator`. */
export async function lookUpPerson(deps: Deps, email: string, operator: string): Promise<PersonRecord> {
  const found = await deps.repo.operator.person(email, await auditOf(deps, operator, email));
  return personJson(email, found, deps.now());
}

/**
 * Erases everything stored about one (normalised) address, recorded as `person.erased` by
 * `operator`. The mailbox key finds its suppression and consent trail even after the entry left the
 * list; its referral pair key keeps the referral pairs it was credited in (operator/queries/erasure.ts).
 */
export async function erasePerson(deps: Deps, email: string, operator: string): Promise<ErasureCounts> {
  const audit = await auditOf(deps, operator, email);
  const counts = await deps.repo.operator.erasePerson(email, audit, ...(await mailboxKeys(jwtSecret(deps.config), email)));
  // Its batch stored person.erased when an endpoint was ever sent the person's data (a queue message, never a throw).
  await kickWebhooks(deps);
  return counts;
}
