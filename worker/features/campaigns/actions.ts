import type { Campaign } from "../../platform/db/schema";
import type { Deps } from "../../deps";
import { ApiError } from "../../platform/http/errors";
import { describeError, log } from "../../platform/log";
import { missingSenderSettings } from "../../platform/config/campaigns";
import { audienceOf, CAMPAIGN_ERRORS, type CampaignDraftInput, type CampaignStatus } from "../../shared/campaigns";
import { continuation, MAX_DELAY_SECONDS, sendsFor, withOrigin, type CampaignMessage } from "./messages";

/**
 * The operator's actions on a campaign (docs/launch-day.md), called by the operator API
 * (worker/features/campaigns/routes.ts): editing a draft, sending it (now or scheduled), pausing,
 * resuming, cancelling and retrying dead letters. A campaign's life: draft -> sending (now) or
 * scheduled -> sending; sending <-> paused; draft, scheduled, sending, paused -> cancelled;
 * sending -> sent once every row is settled (the consumer decides that, consumer.ts). Each
 * action changes the status first and then hands the queue what it needs; the consumer takes
 * it from there.
 */

/** The one answer for an id no campaign has. */
const noSuchCampaign = () => new ApiError(404, CAMPAIGN_ERRORS.notFound, "There is no campaign with that id.");

/** The campaign with this id, or 404. */
export async function campaignById(deps: Deps, id: number): Promise<Campaign> {
  const campaign = await deps.repo.campaignDelivery.campaign(id);
  if (!campaign) throw noSuchCampaign();
  return campaign;
}

function wrongStatus(campaign: Campaign, action: string): ApiError {
  return new ApiError(409, CAMPAIGN_ERRORS.wrongStatus, `A ${campaign.status} campaign cannot be ${action}.`, { status: campaign.status });
}

/** Moves a campaign from `from` to `to`, or explains why not (404, or 409 with its status). */
async function move(
  deps: Deps,
  id: number,
  from: CampaignStatus[],
  to: CampaignStatus,
  action: string,
  set: Partial<Campaign> = {},
): Promise<Campaign> {
  const campaign = await campaignById(deps, id);
  const moved = from.includes(campaign.status) ? await deps.repo.campaignDelivery.transition(id, from, to, deps.now(), set) : null;
  if (!moved) throw wrongStatus((await deps.repo.campaignDelivery.campaign(id)) ?? campaign, action);
  return moved;
}

/**
 * Hands messages over; a failure is logged, not thrown: the status change it follows is made,
 * and the cron's backstop (a sending campaign that does not move) enqueues what is missing.
 */
async function handOver(deps: Deps, messages: CampaignMessage[], delaySeconds?: number): Promise<void> {
  try {
    await deps.queues.campaigns.enqueue(messages, delaySeconds);
  } catch (error) {
    log("error", "campaign.enqueue_failed", { count: messages.length, error: describeError(error) });
  }
}

/**
 * Replaces a draft's (or a scheduled campaign's) subject, body and audience: 404 for no such
 * campaign, 409 once it started sending (nothing sent may change under its recipients).
 */
export async function editCampaign(deps: Deps, id: number, draft: CampaignDraftInput): Promise<Campaign> {
  const updated = await deps.repo.campaigns.update(id, draft, deps.now());
  if (updated) return updated;
  throw wrongStatus(await campaignById(deps, id), "edited: only a draft or a scheduled one");
}

/**
 * Sends a draft (or a scheduled campaign) now, or at `sendAt` when that is in the future. The
 * sender settings must be set (409 naming them) and the audience must not be empty (400).
 * `origin` (the operator's request's) is where the e-mails' links point when SITE_URL is unset.
 */
export async function startCampaign(deps: Deps, id: number, sendAt: Date | null, origin?: string): Promise<Campaign> {
  const campaign = await campaignById(deps, id);
  if (campaign.status !== "draft" && campaign.status !== "scheduled") throw wrongStatus(campaign, "sent");
  const missing = missingSenderSettings(deps.config.campaigns);
  if (missing.length > 0) {
    throw new ApiError(409, CAMPAIGN_ERRORS.senderMissing, `Set ${missing.join(" and ")} before sending a campaign.`, { missing });
  }
  const target = await deps.repo.campaigns.audienceSize(audienceOf(campaign));
  if (target === 0) {
    throw new ApiError(400, CAMPAIGN_ERRORS.emptyAudience, "Nobody is in this campaign's audience.");
  }
  const now = deps.now();
  if (sendAt && sendAt.getTime() > now.getTime()) {
    const scheduled = await move(deps, id, ["draft", "scheduled"], "scheduled", "scheduled", { sendAt: sendAt.toISOString() });
    const delay = Math.min(MAX_DELAY_SECONDS, Math.ceil((sendAt.getTime() - now.getTime()) / 1000));
    await handOver(deps, [{ type: "start", campaign_id: id, ...withOrigin(origin) }], delay);
    return scheduled;
  }
  const started = await move(deps, id, ["draft", "scheduled"], "sending", "sent", {
    startedAt: now.toISOString(),
    // The audience the operator confirmed: the progress's total until every row exists (progress.ts).
    targetSize: target,
    sendAt: null,
  });
  await handOver(deps, [{ type: "expand", campaign_id: id, ...withOrigin(origin) }]);
  log("info", "campaign.started", { campaign_id: id, scheduled: false });
  return started;
}

/** Pauses a sending campaign: messages still arriving are acked and send nothing; their rows stay queued. */
export function pauseCampaign(deps: Deps, id: number): Promise<Campaign> {
  return move(deps, id, ["sending"], "paused", "paused");
}

/** Resumes a paused campaign: every row not yet sent is enqueued again, and an unfinished expansion goes on. */
export async function resumeCampaign(deps: Deps, id: number, origin?: string): Promise<Campaign> {
  const resumed = await move(deps, id, ["paused"], "sending", "resumed");
  await handOver(deps, continuation(resumed, origin));
  return resumed;
}

/** Cancels: the rows still queued are skipped ("cancelled"); a wave's unsent entries are no longer invited. */
export async function cancelCampaign(deps: Deps, id: number): Promise<Campaign> {
  const campaign = await campaignById(deps, id);
  const cancelled = await deps.repo.campaignDelivery.cancel(id, deps.now());
  if (!cancelled) throw wrongStatus((await deps.repo.campaignDelivery.campaign(id)) ?? campaign, "cancelled");
  log("info", "campaign.cancelled", { campaign_id: id });
  return cancelled;
}

/**
 * Puts the campaign's dead letters (all, or those named) back to queued and enqueues them. A
 * campaign that ended "sent" with them sends again until they settle; a paused one sends them
 * on resume.
 */
export async function retryDeadLetters(deps: Deps, id: number, recipientIds?: number[], origin?: string): Promise<Campaign> {
  const campaign = await campaignById(deps, id);
  if (!["sending", "paused", "sent"].includes(campaign.status)) throw wrongStatus(campaign, "retried");
  const repo = deps.repo.campaignDelivery;
  const ids = await repo.requeueDeadLetters(id, recipientIds, deps.now());
  // A campaign that ended with them sends again (only then: with nothing to retry it stays ended).
  if (ids.length > 0 && campaign.status === "sent") await repo.transition(id, ["sent"], "sending", deps.now(), { finishedAt: null });
  const now = (await repo.campaign(id)) ?? campaign;
  if (now.status === "sending") await handOver(deps, sendsFor(id, ids, origin));
  log("info", "campaign.dead_letters_retried", { campaign_id: id, count: ids.length });
  return now;
}
