import { describe, expect, it } from "vitest";
import { cancelCampaign, pauseCampaign, resumeCampaign, retryDeadLetters, startCampaign } from "../../worker/features/campaigns/actions";
import { campaignProgress } from "../../worker/features/campaigns/progress";
import { runCampaignCron } from "../../worker/features/campaigns/cron";
import { testRepository } from "../support/worker";
import {
  campaignNow,
  deliver,
  depsOf,
  draft,
  drain,
  engineEnv,
  expandedCampaign,
  PROVIDER_ENV,
  recordingQueue,
  rowsOf,
  sql,
  startedCampaign,
  stubProvider,
  uniqueTag,
} from "../support/campaign-engine";

/** A campaign's life: start, pause/resume, cancel, dead letters, the cron, the end and the progress (docs/launch-day.md). */
describe("campaign lifecycle", () => {
  it("paused sends nothing (its messages are acked, rows stay queued); resume enqueues the rest and they are sent", async () => {
    const requests = stubProvider();
    const { queue, testEnv, deps, campaign, sends } = await expandedCampaign("pause", 4, { overrides: PROVIDER_ENV });
    await deliver(testEnv, sends.slice(0, 1));
    expect(await pauseCampaign(deps, campaign.id)).toMatchObject({ status: "paused" });
    const paused = await deliver(testEnv, sends.slice(1));
    expect(paused.explicitAcks).toHaveLength(3);
    expect(requests).toHaveLength(1);
    expect((await rowsOf(campaign.id)).map((row) => row.status)).toEqual(["sent", "queued", "queued", "queued"]);
    await expect(pauseCampaign(deps, campaign.id)).rejects.toMatchObject({ status: 409, code: "campaign_wrong_status" });

    expect(await resumeCampaign(deps, campaign.id)).toMatchObject({ status: "sending" });
    await drain(testEnv, queue);
    expect(requests).toHaveLength(4);
    expect(await campaignNow(campaign.id)).toMatchObject({ status: "sent" });
  });

  it("cancel skips the rest and un-invites a wave's unsent entries, so the next wave includes them", async () => {
    const { tag, queue, testEnv, deps, campaign: wave, sends } = await expandedCampaign("cancel", 5, { wave: 3 });
    await deliver(testEnv, sends.slice(0, 1));
    expect(await cancelCampaign(deps, wave.id)).toMatchObject({ status: "cancelled" });
    // Messages still in the queue find a cancelled campaign: nothing is sent.
    await deliver(testEnv, sends.slice(1));
    expect((await rowsOf(wave.id)).map((row) => [row.status, row.skipReason])).toEqual([
      ["sent", null],
      ["skipped", "cancelled"],
      ["skipped", "cancelled"],
    ]);
    await expect(cancelCampaign(deps, wave.id)).rejects.toMatchObject({ status: 409 });

    const next = await draft({ kind: "wave", size: 3, utm_source: tag });
    await startCampaign(deps, next.id, null);
    await deliver(
      testEnv,
      queue.take().map((m) => m.body),
    );
    const repo = testRepository();
    const emails = await Promise.all((await rowsOf(next.id)).map(async (row) => (await repo.waitlist.entryById(row.entryId))!.email));
    expect(emails).toEqual([2, 3, 4].map((i) => `${tag}-${i}@example.com`));
  });

  it("a provider failure retries with backoff (30 s doubling, at most 15 min), then the DLQ fails the row (dead_lettered_at); retry sends it", async () => {
    let accept = false;
    const requests = stubProvider(() => (accept ? Response.json({ send_email_status: "success" }) : new Response("down", { status: 500 })));
    const { queue, testEnv, deps, campaign } = await startedCampaign("dlq", 1, { overrides: PROVIDER_ENV });
    const report = await drain(testEnv, queue);
    expect(report.retried.map((r) => r.delaySeconds)).toEqual([30, 60, 120, 240, 480, 900]);
    expect(report.deadLettered).toBe(1);
    const [row] = await rowsOf(campaign.id);
    expect(row).toMatchObject({ status: "failed", attempts: 6, lastError: "MailDeliveryError: provider answered HTTP 500" });
    expect(row!.deadLetteredAt).not.toBeNull();
    const ended = await campaignNow(campaign.id);
    expect(ended.status).toBe("sent");
    expect((await campaignProgress(deps, ended, new Date())).dead_lettered).toBe(1);

    accept = true;
    expect(await retryDeadLetters(deps, campaign.id)).toMatchObject({ status: "sending" });
    await drain(testEnv, queue);
    expect(await rowsOf(campaign.id)).toMatchObject([{ status: "sent", deadLetteredAt: null }]);
    expect(await campaignNow(campaign.id)).toMatchObject({ status: "sent" });
    expect(requests).toHaveLength(7);
    // Nothing left to retry: the campaign stays ended, as it was.
    const finished = await campaignNow(campaign.id);
    expect(await retryDeadLetters(deps, campaign.id)).toMatchObject({ status: "sent", finishedAt: finished.finishedAt });
    expect(queue.pending).toEqual([]);
  });

  it("the cron re-enqueues a stalled campaign's stuck rows (queued, or sending with a lapsed lease), and leaves a moving one alone", async () => {
    const { queue, testEnv, deps, campaign } = await startedCampaign("cron", 3);
    await deliver(
      testEnv,
      queue.take().map((m) => m.body),
    );
    queue.take(); // the send messages are lost
    await runCampaignCron(deps);
    expect(queue.pending.filter((m) => m.body.campaign_id === campaign.id)).toEqual([]);

    const past = new Date(Date.now() - 11 * 60_000).toISOString();
    const rows = await rowsOf(campaign.id);
    await sql("update hwh_campaigns set updated_at = ?1 where id = ?2", past, campaign.id);
    await sql("update hwh_campaign_recipients set updated_at = ?1 where campaign_id = ?2", past, campaign.id);
    await sql("update hwh_campaign_recipients set status = 'sending', claim = 'gone', locked_until = ?1 where id = ?2", past, rows[0]!.id);
    await runCampaignCron(deps);
    expect(queue.pending.map((m) => m.body)).toEqual([{ type: "requeue", campaign_id: campaign.id, after: 0 }]);
    await drain(testEnv, queue);
    expect((await rowsOf(campaign.id)).map((row) => row.status)).toEqual(["sent", "sent", "sent"]);
    expect(await campaignNow(campaign.id)).toMatchObject({ status: "sent" });
  });

  it("a scheduled campaign starts by its delayed message when due, or by the cron; early it waits with the time left", async () => {
    const sendAt = new Date(Date.now() + 3_600_000);
    const { queue, testEnv, deps, campaign, started } = await startedCampaign("scheduled", 1, { sendAt });
    expect(started).toMatchObject({ status: "scheduled", sendAt: sendAt.toISOString() });
    const [start] = queue.take();
    expect(start!.body).toEqual({ type: "start", campaign_id: campaign.id });
    expect(start!.delaySeconds).toBeGreaterThan(3_590);
    await deliver(testEnv, [start!.body]);
    const [again] = queue.take();
    expect(again!.delaySeconds).toBeGreaterThan(3_590);
    expect((await campaignNow(campaign.id)).status).toBe("scheduled");

    await sql("update hwh_campaigns set send_at = ?1 where id = ?2", new Date(Date.now() - 1_000).toISOString(), campaign.id);
    await runCampaignCron(deps);
    expect(await campaignNow(campaign.id)).toMatchObject({ status: "sending" });
    await drain(testEnv, queue);
    expect(await campaignNow(campaign.id)).toMatchObject({ status: "sent", audienceSize: 1 });
  });

  it("progress counts rows by status, the rate over the last minute and the time left; the campaign is sent when all are settled", async () => {
    const { queue, testEnv, deps, campaign } = await startedCampaign("progress", 6);
    await deliver(
      testEnv,
      queue.take().map((m) => m.body),
    );
    await deliver(
      testEnv,
      queue
        .take()
        .map((m) => m.body)
        .slice(0, 3),
    );
    const sending = await campaignNow(campaign.id);
    const started = Date.parse(sending.startedAt ?? "");
    // 30 s after the start: 3 sent over those 30 s (not over a minute that had not begun).
    expect(await campaignProgress(deps, sending, new Date(started + 30_000))).toEqual({
      counts: { queued: 3, sending: 0, sent: 3, failed: 0, skipped: 0 },
      expanded: 6,
      expansion_done: true,
      rate_per_second: 0.1,
      seconds_left: 30,
      dead_lettered: 0,
      target: 6,
      unsent: 3,
      cancelled: 0,
    });
    // Later the window is the last minute: the 3 sent at the start still count while within it.
    expect(await campaignProgress(deps, sending, new Date(started + 50_000))).toMatchObject({ rate_per_second: 0.06, seconds_left: 50 });
    expect((await campaignNow(campaign.id)).status).toBe("sending");
  });

  it("start refuses a campaign without sender settings (409 naming them), with an empty audience (400) or not a draft (409)", async () => {
    const queue = recordingQueue();
    const testEnv = engineEnv(queue);
    const empty = await draft({ kind: "all", utm_source: uniqueTag("nobody") });
    await expect(startCampaign(depsOf(testEnv), empty.id, null)).rejects.toMatchObject({
      status: 400,
      code: "campaign_empty_audience",
    });
    const unnamed = engineEnv(queue, { SENDER_NAME: "", SENDER_POSTAL_ADDRESS: "" });
    await expect(startCampaign(depsOf(unnamed), empty.id, null)).rejects.toMatchObject({
      status: 409,
      code: "sender_not_configured",
      details: { missing: ["SENDER_NAME", "SENDER_POSTAL_ADDRESS"] },
    });
    await expect(startCampaign(depsOf(testEnv), 999_999_999, null)).rejects.toMatchObject({
      status: 404,
      code: "campaign_not_found",
    });
    expect(queue.pending).toEqual([]);
  });
});
