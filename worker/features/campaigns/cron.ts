import type { Deps } from "../../deps";
import { log } from "../../platform/log";
import { finishDone } from "./consumer";
import { startDue } from "./expand";
import { continuation } from "./messages";

/** A campaign whose rows have not moved for this long is stalled: the cron re-enqueues what is left. */
export const STALL_MS = 10 * 60_000;

/**
 * The cron's share (every 5 minutes, worker/index.ts), the backstop of the queue: scheduled
 * campaigns that are due start (their delayed message may be lost); a sending campaign that
 * stalled (a crash, a lost message) gets its unsettled rows and any unfinished expansion
 * enqueued again; one that is finished is ended (the consumer's decision, consumer.ts finishDone).
 */
export async function runCampaignCron(deps: Deps): Promise<void> {
  const now = deps.now();
  const repo = deps.repo.campaignDelivery;
  for (const campaign of await repo.dueScheduled(now, 20)) await startDue(deps, campaign.id);
  for (const campaign of await repo.stalled(new Date(now.getTime() - STALL_MS), now)) {
    log("warn", "campaign.stalled", { campaign_id: campaign.id });
    await repo.touch(campaign.id, now);
    await deps.queues.campaigns.enqueue(continuation(campaign));
  }
  await finishDone(deps, await repo.sendingIds());
}
