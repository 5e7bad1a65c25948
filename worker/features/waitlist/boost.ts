import type { Deps } from "../../deps";
import type { WaitlistEntry } from "../../platform/db/schema";
import { isMinorBand } from "../../shared/age";

/**
 * The places one confirmed referral moves this entry up (issue 23), as GET /api/me, the share box
 * and the welcome say it: none for an entry a parent made on behalf of a child (it has no link),
 * none for a minor's (under 18) unless MINOR_REFERRAL_REWARDS, REFERRAL_BOOST otherwise. The
 * rank key follows the same rule (worker/features/referrals/queries.ts referrerBoost).
 */
export function referralBoostOf(deps: Deps, entry: Pick<WaitlistEntry, "ageBand" | "onBehalfOfChild"> | null): number {
  if (entry?.onBehalfOfChild) return 0;
  if (entry && isMinorBand(entry.ageBand) && !deps.config.waitlist.minorReferralRewards) return 0;
  return deps.config.waitlist.referralBoost;
}
