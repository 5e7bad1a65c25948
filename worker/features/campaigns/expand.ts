import type { Deps } from "../../deps";
import { log } from "../../platform/log";
import { audienceOf } from "../../shared/campaigns";
import { ACK, EXPAND_CHUNK, MAX_DELAY_SECONDS, REQUEUE_CHUNK, sendsFor, withOrigin, type CampaignMessage, type Outcome } from "./messages";

/**
 * The queue's steps that fan a campaign out (docs/launch-day.md): expansion into recipient
 * rows, a scheduled campaign's start, and the requeue walk. Each does at most one chunk and
 * enqueues its own continuation, so no invocation outgrows Workers' time and subrequest limits.
 */

/**
 * Expands the next chunk (only while the campaign is sending: a paused campaign's expansion
 * waits for resume, a cancelled one's stops), enqueues a send per new row, then the next step.
 * A step that lost a race with another (a redelivered message) wrote nothing and stops there.
 */
export async function handleExpand(deps: Deps, message: Extract<CampaignMessage, { type: "expand" }>): Promise<Outcome> {
  const repo = deps.repo.campaignDelivery;
  const campaign = await repo.campaign(message.campaign_id);
  if (campaign?.status !== "sending" || campaign.expandedAt !== null) return ACK;
  const step = await repo.expandChunk(campaign, EXPAND_CHUNK, deps.now());
  // The rows exist before their messages: if enqueueing fails, the retry expands the next
  // chunk and the cron's requeue reaches these (they stay queued, never lost).
  await deps.queues.campaigns.enqueue(sendsFor(campaign.id, step.recipientIds, message.origin));
  if (!step.done && step.recipientIds.length > 0)
    await deps.queues.campaigns.enqueue([{ type: "expand", campaign_id: campaign.id, ...withOrigin(message.origin) }]);
  if (step.done) log("info", "campaign.expanded", { campaign_id: campaign.id });
  return ACK;
}

/** Starts a scheduled campaign whose time has come: sending, then its expansion. Null when it was not due (or not scheduled). */
export async function startDue(deps: Deps, campaignId: number, origin?: string): Promise<boolean> {
  const now = deps.now();
  const campaign = await deps.repo.campaignDelivery.campaign(campaignId);
  if (campaign?.status !== "scheduled" || !campaign.sendAt || campaign.sendAt > now.toISOString()) return false;
  const target = await deps.repo.campaigns.audienceSize(audienceOf(campaign));
  const started = await deps.repo.campaignDelivery.transition(campaignId, ["scheduled"], "sending", now, {
    startedAt: now.toISOString(),
    // The audience as it starts: the progress's total until every row exists (progress.ts).
    targetSize: target,
  });
  if (!started) return false;
  await deps.queues.campaigns.enqueue([{ type: "expand", campaign_id: campaignId, ...withOrigin(origin) }]);
  log("info", "campaign.started", { campaign_id: campaignId, scheduled: true });
  return true;
}

/**
 * A scheduled campaign's delayed start message: early (Queues delay at most 12 hours, or the
 * time was moved later) it goes back with the time left; a campaign no longer scheduled is done.
 */
export async function handleStart(deps: Deps, message: Extract<CampaignMessage, { type: "start" }>): Promise<Outcome> {
  const campaign = await deps.repo.campaignDelivery.campaign(message.campaign_id);
  if (campaign?.status !== "scheduled" || !campaign.sendAt) return ACK;
  const left = Math.ceil((Date.parse(campaign.sendAt) - deps.now().getTime()) / 1000);
  if (left > 0) {
    await deps.queues.campaigns.enqueue([message], Math.min(left, MAX_DELAY_SECONDS));
    return ACK;
  }
  await startDue(deps, campaign.id, message.origin);
  return ACK;
}

/** Walks one chunk of unsettled rows after `after`, enqueues a send for each, and the next chunk's walk. */
export async function handleRequeue(deps: Deps, message: Extract<CampaignMessage, { type: "requeue" }>): Promise<Outcome> {
  const repo = deps.repo.campaignDelivery;
  const campaign = await repo.campaign(message.campaign_id);
  if (campaign?.status !== "sending") return ACK;
  const ids = await repo.unsettledAfter(campaign.id, message.after, REQUEUE_CHUNK, deps.now());
  await deps.queues.campaigns.enqueue(sendsFor(campaign.id, ids, message.origin));
  const last = ids.at(-1);
  if (ids.length === REQUEUE_CHUNK && last !== undefined) {
    await deps.queues.campaigns.enqueue([{ type: "requeue", campaign_id: campaign.id, after: last, ...withOrigin(message.origin) }]);
  }
  return ACK;
}
