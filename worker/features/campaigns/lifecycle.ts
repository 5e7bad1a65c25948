import type { Campaign } from "../../platform/db/schema";
import { createDeps, type Deps } from "../../deps";
import { ApiError } from "../../platform/http/errors";
import { describeError, log } from "../../platform/log";
import { audienceOf } from "./queries/campaigns";
import { CAMPAIGN_ERRORS, type CampaignProgress, type CampaignStatus } from "../../shared/campaigns";
import { handleExpand, handleRequeue, handleStart, startDue } from "./expand";
import {
  ACK,
  DEAD_LETTER_QUEUE,
  MAX_DELAY_SECONDS,
  consumeCampaignBatch,
  enqueue,
  sendsFor,
  withOrigin,
  type CampaignMessage,
  type Outcome,
} from "./queue";
import { handleDeadLetter, handleSend } from "./send";
import { missingSenderSettings } from "../../platform/config/campaigns";

/**
 * A campaign's life (docs/launch-day.md): draft -> sending (now) or scheduled -> sending;
 * sending <-> paused; draft, scheduled, sending, paused -> cancelled; sending -> sent once
 * every row is settled. The operator API (worker/features/campaigns/routes.ts) calls these; the queue
 * and the cron (worker/index.ts) call handleCampaignQueue and runCampaignCron.
 */

/** A campaign whose rows have not moved for this long is stalled: the cron re-enqueues what is left. */
export const STALL_MS = 10 * 60_000;

async function existing(deps: Deps, id: number): Promise<Campaign> {
  const campaign = await deps.repo.campaignDelivery.campaign(id);
  if (!campaign) throw new ApiError(404, CAMPAIGN_ERRORS.notFound, "There is no campaign with that id.");
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
  const campaign = await existing(deps, id);
  const moved = from.includes(campaign.status) ? await deps.repo.campaignDelivery.transition(id, from, to, deps.now(), set) : null;
  if (!moved) throw wrongStatus((await deps.repo.campaignDelivery.campaign(id)) ?? campaign, action);
  return moved;
}

/**
 * Hands messages over; a failure is logged, not thrown: the status change it follows is made,
 * and the cron's backstop (a sending campaign that does not move) enqueues what is missing.
 */
async function handOver(env: Env, messages: CampaignMessage[], delaySeconds?: number): Promise<void> {
  try {
    await enqueue(env, messages, delaySeconds);
  } catch (error) {
    log("error", "campaign.enqueue_failed", { count: messages.length, error: describeError(error) });
  }
}

/**
 * Sends a draft (or a scheduled campaign) now, or at `sendAt` when that is in the future. The
 * sender settings must be set (409 naming them) and the audience must not be empty (400).
 * `origin` (the operator's request's) is where the e-mails' links point when SITE_URL is unset.
 */
export async function startCampaign(deps: Deps, env: Env, id: number, sendAt: Date | null, origin?: string): Promise<Campaign> {
  const campaign = await existing(deps, id);
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
    await handOver(env, [{ type: "start", campaign_id: id, ...withOrigin(origin) }], delay);
    return scheduled;
  }
  const started = await move(deps, id, ["draft", "scheduled"], "sending", "sent", {
    startedAt: now.toISOString(),
    // The audience the operator confirmed: the progress's total until every row exists (campaignProgress).
    targetSize: target,
    sendAt: null,
  });
  await handOver(env, [{ type: "expand", campaign_id: id, ...withOrigin(origin) }]);
  log("info", "campaign.started", { campaign_id: id, scheduled: false });
  return started;
}

/** Pauses a sending campaign: messages still arriving are acked and send nothing; their rows stay queued. */
export function pauseCampaign(deps: Deps, id: number): Promise<Campaign> {
  return move(deps, id, ["sending"], "paused", "paused");
}

/** Resumes a paused campaign: every row not yet sent is enqueued again, and an unfinished expansion goes on. */
export async function resumeCampaign(deps: Deps, env: Env, id: number, origin?: string): Promise<Campaign> {
  const resumed = await move(deps, id, ["paused"], "sending", "resumed");
  await handOver(env, continuation(resumed, origin));
  return resumed;
}

/** What a campaign going on needs enqueued: the walk over its unsettled rows, and its expansion when unfinished. */
function continuation(campaign: Campaign, origin?: string): CampaignMessage[] {
  const messages: CampaignMessage[] = [{ type: "requeue", campaign_id: campaign.id, after: 0, ...withOrigin(origin) }];
  if (campaign.expandedAt === null) messages.push({ type: "expand", campaign_id: campaign.id, ...withOrigin(origin) });
  return messages;
}

/** Cancels: the rows still queued are skipped ("cancelled"); a wave's unsent entries are no longer invited. */
export async function cancelCampaign(deps: Deps, id: number): Promise<Campaign> {
  const campaign = await existing(deps, id);
  const cancelled = await deps.repo.campaignDelivery.cancel(id, deps.now());
  if (!cancelled) throw wrongStatus((await deps.repo.campaignDelivery.campaign(id)) ?? campaign, "cancelled");
  log("info", "campaign.cancelled", { campaign_id: id });
  return cancelled;
}

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

/**
 * Puts the campaign's dead letters (all, or those named) back to queued and enqueues them. A
 * campaign that ended "sent" with them sends again until they settle; a paused one sends them
 * on resume.
 */
export async function retryDeadLetters(deps: Deps, env: Env, id: number, recipientIds?: number[], origin?: string): Promise<Campaign> {
  const campaign = await existing(deps, id);
  if (!["sending", "paused", "sent"].includes(campaign.status)) throw wrongStatus(campaign, "retried");
  const repo = deps.repo.campaignDelivery;
  const ids = await repo.requeueDeadLetters(id, recipientIds, deps.now());
  // A campaign that ended with them sends again (only then: with nothing to retry it stays ended).
  if (ids.length > 0 && campaign.status === "sent") await repo.transition(id, ["sent"], "sending", deps.now(), { finishedAt: null });
  const now = (await repo.campaign(id)) ?? campaign;
  if (now.status === "sending") await handOver(env, sendsFor(id, ids, origin));
  log("info", "campaign.dead_letters_retried", { campaign_id: id, count: ids.length });
  return now;
}

/** Ends every campaign among `ids` that has nothing left to send. */
async function finishDone(deps: Deps, ids: number[]): Promise<void> {
  for (const id of ids) {
    const finished = await deps.repo.campaignDelivery.finishIfDone(id, deps.now());
    if (finished) log("info", "campaign.sent", { campaign_id: id, recipients: finished.audienceSize });
  }
}

/**
 * The cron's share (every 5 minutes), the backstop of the queue: scheduled campaigns that are
 * due start (their delayed message may be lost); a sending campaign that stalled (a crash, a
 * lost message) gets its unsettled rows and any unfinished expansion enqueued again; one with
 * nothing left is ended.
 */
export async function runCampaignCron(deps: Deps, env: Env): Promise<void> {
  const now = deps.now();
  const repo = deps.repo.campaignDelivery;
  for (const campaign of await repo.dueScheduled(now, 20)) await startDue(deps, env, campaign.id);
  for (const campaign of await repo.stalled(new Date(now.getTime() - STALL_MS), now)) {
    log("warn", "campaign.stalled", { campaign_id: campaign.id });
    await repo.touch(campaign.id, now);
    await enqueue(env, continuation(campaign));
  }
  await finishDone(deps, await repo.sendingIds());
}

/** One message of either queue, by type (the dead-letter queue's are dead letters). */
function handlerFor(queue: string) {
  return async (deps: Deps, env: Env, message: CampaignMessage): Promise<Outcome> => {
    if (queue === DEAD_LETTER_QUEUE) return handleDeadLetter(deps, message);
    if (message.type === "send") return handleSend(deps, env, message);
    if (message.type === "expand") return handleExpand(deps, env, message);
    if (message.type === "start") return handleStart(deps, env, message);
    if (message.type === "requeue") return handleRequeue(deps, env, message);
    return ACK;
  };
}

/** The worker's queue handler: the campaign queue and its dead-letter queue. */
export async function handleCampaignQueue(
  batch: MessageBatch,
  env: Env,
  _ctx: ExecutionContext,
  deps: Deps = createDeps(env),
): Promise<void> {
  await consumeCampaignBatch(batch, env, handlerFor(batch.queue), finishDone, deps);
}
