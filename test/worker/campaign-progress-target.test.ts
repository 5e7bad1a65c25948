import { describe, expect, it } from "vitest";
import { cancelCampaign, pauseCampaign } from "../../worker/features/campaigns/actions";
import { campaignProgress } from "../../worker/features/campaigns/progress";
import type { CampaignJson } from "../../worker/shared/campaigns";
import {
  ADMIN_KEY,
  campaignCall,
  createDraft,
  fakeQueue,
  json,
  seedConfirmed as seedApi,
  uniqueTag as apiTag,
} from "../support/campaign-api";
import { campaignNow, deliver, expandedCampaign, rowsOf, startedCampaign } from "../support/campaign-engine";

/**
 * The audience confirmed at "Send to N people?" is known from the start (target_size): before
 * any recipient row exists the progress says how many are not yet sent, and a campaign cancelled
 * while its list was being prepared counts the people it did not send to (review 17R-ui 1-3).
 */
describe("campaign progress before and after expansion", () => {
  it("a started campaign with no rows yet: target and unsent are the confirmed audience, also paused", async () => {
    const { deps, campaign } = await startedCampaign("target", 4);
    const started = await campaignNow(campaign.id);
    expect(started.targetSize).toBe(4);
    expect(await campaignProgress(deps, started, new Date())).toMatchObject({
      counts: { queued: 0, sending: 0, sent: 0, failed: 0, skipped: 0 },
      expanded: 0,
      expansion_done: false,
      target: 4,
      unsent: 4,
      cancelled: 0,
    });
    await pauseCampaign(deps, campaign.id);
    expect(await campaignProgress(deps, await campaignNow(campaign.id), new Date())).toMatchObject({ target: 4, unsent: 4, cancelled: 0 });
  });

  it("cancelled before expansion: the never-prepared people count as cancelled, the rows stay as they are", async () => {
    const { deps, campaign: wave } = await startedCampaign("target-cancel", 3, { wave: 3 });
    await cancelCampaign(deps, wave.id);
    expect(await rowsOf(wave.id)).toEqual([]);
    expect(await campaignProgress(deps, await campaignNow(wave.id), new Date())).toMatchObject({
      counts: { queued: 0, sending: 0, sent: 0, failed: 0, skipped: 0 },
      target: 3,
      unsent: 0,
      cancelled: 3,
    });
  });

  it("cancelled after expansion: cancelled counts the rows skipped 'cancelled', apart from the other skips", async () => {
    const { testEnv, deps, campaign, sends } = await expandedCampaign("target-rows", 3);
    await deliver(testEnv, sends.slice(0, 1));
    await cancelCampaign(deps, campaign.id);
    expect(await campaignProgress(deps, await campaignNow(campaign.id), new Date())).toMatchObject({
      counts: { queued: 0, sending: 0, sent: 1, failed: 0, skipped: 2 },
      expansion_done: true,
      target: 3,
      unsent: 0,
      cancelled: 2,
    });
  });

  it("the API's JSON carries target, unsent and cancelled; a draft has no target yet", async () => {
    const tag = apiTag();
    await seedApi(tag, 2);
    const created = await createDraft({ kind: "all", utm_source: tag });
    expect(created.progress).toMatchObject({ target: null, unsent: 0, cancelled: 0 });
    const { queue } = fakeQueue();
    const sent = await json<CampaignJson>(await campaignCall(`/${created.id}/send`, ADMIN_KEY, { body: {} }, { CAMPAIGN_QUEUE: queue }));
    expect(sent.status).toBe("sending");
    expect(sent.progress).toMatchObject({ expanded: 0, target: 2, unsent: 2, cancelled: 0 });
    const cancelled = await json<CampaignJson>(await campaignCall(`/${created.id}/cancel`, ADMIN_KEY, { method: "POST" }));
    expect(cancelled.progress).toMatchObject({ target: 2, unsent: 0, cancelled: 2 });
  });
});
