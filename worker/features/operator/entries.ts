import type { Deps } from "../../deps";
import { ApiError } from "../../platform/http/errors";
import { ADMIN_ERRORS, type AdminListedEntry, type EntryVoided, type HoldRequest } from "../../shared/admin";
import { recordEntryAction } from "./audit";
import { listedJson } from "./json";
import type { Operator } from "./operator";

/**
 * The operator's actions on one waitlist entry (issue 22; docs/api.md "Operator API"): holding it
 * out of invite waves and letting it back, and voiding the referral credit it gave. Each is
 * recorded in the audit trail when it changed something: the operator, the person by a keyed
 * hash, the entry by id and the operator's reason; each answers the entry as the list shows it.
 */

const notFound = () => new ApiError(404, ADMIN_ERRORS.entryNotFound, "There is no waitlist entry with that id.");

/** The entry as listed now (it was just read or changed: gone only if erased meanwhile). */
async function listedNow(deps: Deps, id: number): Promise<AdminListedEntry> {
  const entry = await deps.repo.operator.listedEntry(id);
  if (!entry) throw notFound();
  return listedJson(entry);
}

/** Holds the entry out of invite waves (`held`), or lets it back; its place in line never changes. */
export async function holdEntry(deps: Deps, operator: Operator, id: number, { held, reason }: HoldRequest): Promise<AdminListedEntry> {
  const result = await deps.repo.operator.setHeld(id, held, deps.now());
  if (!result) throw notFound();
  if (result.changed)
    await recordEntryAction(deps, operator, held ? "entry.held" : "entry.released", result.entry.email, { entry_id: id, reason });
  return listedNow(deps, id);
}

/**
 * Voids the referral credit the entry gave: its referrer loses that referral and exactly the
 * places it gave (the boost stored with the credit; REFERRAL_BOOST for a credit from before
 * credits kept theirs). The credit stays, void, so the same friend never credits again. 409
 * when the entry gave no credit that still counts.
 */
export async function voidReferral(deps: Deps, operator: Operator, id: number, reason: string): Promise<EntryVoided> {
  const result = await deps.repo.operator.voidReferral(id, { fallbackBoost: deps.config.waitlist.referralBoost, now: deps.now() });
  if (!result) throw notFound();
  if (!result.voided || result.boost === null)
    throw new ApiError(
      409,
      ADMIN_ERRORS.noReferralCredit,
      "This entry gave no referral credit that still counts (none, or it was voided).",
    );
  const friend = await listedNow(deps, id);
  const referrer = result.referrerId === null ? null : await deps.repo.operator.listedEntry(result.referrerId);
  // The audit names the person whose place changed: the referrer (or the friend, when the referrer is gone).
  await recordEntryAction(deps, operator, "referral.voided", referrer?.email ?? friend.email, {
    friend_entry_id: id,
    referrer_entry_id: result.referrerId,
    boost: result.boost,
    reason,
  });
  return { friend, referrer: referrer ? listedJson(referrer) : null, boost: result.boost };
}
