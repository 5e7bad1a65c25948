import type { Campaign } from "../../platform/db/schema";
import type { Deps } from "../../deps";
import type { CampaignProgress } from "../../shared/campaigns";

/** A campaign's progress as the console shows it (worker/shared/campaigns.ts CampaignProgress; docs/launch-day.md). */

/** Before sending there are no recipient rows: nothing counted yet. */
const NOT_STARTED: CampaignProgress = {
  counts: { queued: 0, sending: 0, sent: 0, failed: 0, skipped: 0 },
  expanded: 0,
  expansion_done: false,
  rate_per_second: 0,
  seconds_left: null,
  dead_lettered: 0,
  target: null,
  unsent: 0,
  cancelled: 0,
};

/**
 * Counts by status, the rate over the last minute (over the time since sending started when
 * that is shorter: a send 10 s old that sent 100 runs at 10 a second, not 1.7) and the time left
 * at that rate.
 */
export async function campaignProgress(deps: Deps, campaign: Campaign, now: Date): Promise<CampaignProgress> {
  const progress = await deps.repo.campaignDelivery.progressCounts(campaign.id, now);
  const { counts, sentLastMinute, deadLettered } = progress;
  const expanded = Object.values(counts).reduce((sum, n) => sum + n, 0);
  // While rows are still being prepared, the target's people without a row are not sent yet
  // (or, once cancelled, not sent at all); after expansion the rows are the whole audience.
  const unexpanded = campaign.expandedAt === null && campaign.targetSize !== null ? Math.max(0, campaign.targetSize - expanded) : 0;
  const cancelled = campaign.status === "cancelled";
  const started = campaign.startedAt ? Date.parse(campaign.startedAt) : Number.NaN;
  const window = Number.isNaN(started) ? 60 : Math.min(60, Math.max(1, (now.getTime() - started) / 1000));
  const rate = sentLastMinute / window;
  const left = counts.queued + counts.sending;
  return {
    counts,
    expanded,
    expansion_done: campaign.expandedAt !== null,
    rate_per_second: Math.round(rate * 100) / 100,
    seconds_left: campaign.status === "sending" && rate > 0 ? Math.ceil(left / rate) : null,
    dead_lettered: deadLettered,
    target: campaign.targetSize,
    unsent: left + (cancelled ? 0 : unexpanded),
    cancelled: progress.cancelled + (cancelled ? unexpanded : 0),
  };
}

/** Whether the campaign has not started sending: a draft or a scheduled one has no rows yet. */
export const notStarted = (campaign: Campaign) => campaign.status === "draft" || campaign.status === "scheduled";

/** The progress the console shows now: nothing counted before sending (no database call), else campaignProgress. */
export function progressOf(deps: Deps, campaign: Campaign): Promise<CampaignProgress> {
  return notStarted(campaign) ? Promise.resolve(NOT_STARTED) : campaignProgress(deps, campaign, deps.now());
}
