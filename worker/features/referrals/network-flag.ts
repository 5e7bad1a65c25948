import type { Deps } from "../../deps";
import { log } from "../../platform/log";

/**
 * After a referred confirmation: when the referrer's confirmed referrals from the confirming
 * network reach REFERRAL_NETWORK_FLAG, a log line for the operator (never a block: a school
 * shares one network). The rule is the stats' own (queries.ts flaggedNetworks), so the log and
 * the console's flagged list always agree.
 */
export async function flagNetwork(deps: Deps, referralCode: string, network: string): Promise<void> {
  const threshold = deps.config.waitlist.networkFlag;
  const referrals = await deps.repo.referrals.networkFlagged(referralCode, network, threshold);
  if (referrals !== null) log("warn", "referral.network_flagged", { referrals, threshold });
}
