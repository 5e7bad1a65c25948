import type { Deps } from "../../deps";
import { type CampaignAudience, WAVE_PREVIEW, type WavePreview } from "../../shared/campaigns";

/**
 * Who an invite wave would draw first (issue 22), for the composer: its first WAVE_PREVIEW
 * entries by place, exactly as the wave draws them, with the referrers the referral network flag
 * (REFERRAL_NETWORK_FLAG) marks and their friends, so a wave never rewards a flagged ring
 * without the operator seeing it (queries/wave-preview.ts).
 */
export async function wavePreviewOf(deps: Deps, audience: Extract<CampaignAudience, { kind: "wave" }>): Promise<WavePreview> {
  const preview = await deps.repo.campaigns.wavePreview(audience, { limit: WAVE_PREVIEW, flagAt: deps.config.waitlist.networkFlag });
  return {
    first: preview.first.map((row) => ({
      id: row.id,
      email: row.email,
      place: row.place,
      referral_code: row.referralCode,
      referred_by: row.referredBy,
      referrals_confirmed: row.referralsConfirmed,
      flagged_from_one_network: row.fromOneNetwork,
      referred_by_flagged: row.referredByFlagged,
    })),
    flagged: preview.flagged,
    flagged_friends: preview.flaggedFriends,
    held: preview.held,
  };
}
