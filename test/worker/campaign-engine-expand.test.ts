import { describe, expect, it } from "vitest";
import { startCampaign } from "../../worker/features/campaigns/actions";
import { runCampaignCron } from "../../worker/features/campaigns/cron";
import { EXPAND_CHUNK } from "../../worker/features/campaigns/messages";
import { testRepository } from "../support/worker";
import {
  campaignNow,
  deliver,
  depsOf,
  draft,
  drain,
  rowsOf,
  seedConfirmed,
  sql,
  startedCampaign,
  uniqueTag,
} from "../support/campaign-engine";

/** Launch day's expansion through the worker's queue handler (docs/launch-day.md). */
describe("campaign expansion", () => {
  it("sending 'all' expands every confirmed entry of the audience (utm_source) into one row each and enqueues one send per row", async () => {
    await seedConfirmed(uniqueTag("other"), 3);
    const { queue, testEnv, campaign } = await startedCampaign("all", 7);
    expect(queue.pending.map((m) => m.body)).toEqual([{ type: "expand", campaign_id: campaign.id }]);

    await deliver(
      testEnv,
      queue.take().map((m) => m.body),
    );
    const rows = await rowsOf(campaign.id);
    expect(rows).toHaveLength(7);
    expect(new Set(rows.map((row) => row.entryId)).size).toBe(7);
    expect(queue.pending.map((m) => m.body)).toEqual(rows.map((row) => ({ type: "send", campaign_id: campaign.id, recipient_id: row.id })));
    expect(await campaignNow(campaign.id)).toMatchObject({ audienceSize: 7, status: "sending" });
    expect((await campaignNow(campaign.id)).expandedAt).not.toBeNull();
  });

  it("a wave takes the first N by place not yet invited, stores their places and marks them invited; the next wave continues down the line", async () => {
    const { tag, queue, testEnv, campaign: first } = await startedCampaign("wave", 10, { wave: 4 });
    await drain(testEnv, queue);
    const second = await draft({ kind: "wave", size: 4, utm_source: tag });
    await startCampaign(depsOf(testEnv), second.id, null);
    await drain(testEnv, queue);

    const emails = async (id: number) => {
      const repo = testRepository();
      const rows = await rowsOf(id);
      return Promise.all(rows.map(async (row) => (await repo.waitlist.entryById(row.entryId))!.email));
    };
    expect(await emails(first.id)).toEqual([1, 2, 3, 4].map((i) => `${tag}-${i}@example.com`));
    expect(await emails(second.id)).toEqual([5, 6, 7, 8].map((i) => `${tag}-${i}@example.com`));
    const places = (await rowsOf(second.id)).map((row) => row.place!);
    expect(places[1]! - places[0]!).toBe(1);
    const invited = await testRepository().waitlist.entryByEmail(`${tag}-5@example.com`);
    expect(invited).toMatchObject({ invitedCampaignId: second.id });
    expect((await testRepository().waitlist.entryByEmail(`${tag}-9@example.com`))!.invitedAt).toBeNull();
  });

  it("a redelivered expand message (the first delivery's outcome lost) writes no row twice", async () => {
    const { queue, testEnv, campaign } = await startedCampaign("redeliver", 5);
    const [expand] = queue.take();
    await deliver(testEnv, [expand!.body]);
    await deliver(testEnv, [expand!.body], { attempts: 2 });
    expect(await rowsOf(campaign.id)).toHaveLength(5);
    expect(queue.pending.filter((m) => m.body.type === "send")).toHaveLength(5);
  });

  it("a campaign is not finished while its expansion still runs: finish checks between two chunks, every row so far settled, leave it sending", async () => {
    const { queue, testEnv, campaign } = await startedCampaign("unfinished", EXPAND_CHUNK + 3);
    // Before the first chunk no row exists, so none is queued or sending: still not finished.
    await runCampaignCron(depsOf(testEnv));
    expect((await campaignNow(campaign.id)).status).toBe("sending");

    const [expand] = queue.take();
    await deliver(testEnv, [expand!.body]);
    expect(await rowsOf(campaign.id)).toHaveLength(EXPAND_CHUNK);
    const next = queue.take().filter((m) => m.body.type === "expand");
    expect(next).toHaveLength(1);
    // Every row of the first chunk settled (as its sends would leave them) before the next chunk runs.
    await sql(
      "update hwh_campaign_recipients set status = 'sent', sent_at = ?1 where campaign_id = ?2",
      new Date().toISOString(),
      campaign.id,
    );
    // The consumer's check after a batch that touched the campaign, and the cron's: neither ends it.
    await deliver(testEnv, [{ type: "requeue", campaign_id: campaign.id, after: 0 }]);
    expect((await campaignNow(campaign.id)).status).toBe("sending");
    await runCampaignCron(depsOf(testEnv));
    expect(await campaignNow(campaign.id)).toMatchObject({ status: "sending", finishedAt: null });

    // The second chunk writes the rest and ends expansion; once its sends settle, the campaign is sent.
    await deliver(testEnv, [next[0]!.body]);
    expect((await campaignNow(campaign.id)).expandedAt).not.toBeNull();
    await drain(testEnv, queue);
    expect(await campaignNow(campaign.id)).toMatchObject({ status: "sent", audienceSize: EXPAND_CHUNK + 3 });
  }, 120_000);

  it("a crash mid-expansion (chunk written, its sends never enqueued) resumes from the cursor, and the cron's requeue reaches the stranded chunk: everyone once", async () => {
    const total = EXPAND_CHUNK + 20;
    const { queue, testEnv, campaign } = await startedCampaign("crash", total);
    const [expand] = queue.take();
    // The next sendBatch fails: the worker "dies" after writing the chunk, before its messages.
    queue.failNext(1);
    const crashed = await deliver(testEnv, [expand!.body]);
    expect(crashed.retryMessages).toHaveLength(1);
    expect(await rowsOf(campaign.id)).toHaveLength(EXPAND_CHUNK);
    expect(queue.pending).toHaveLength(0);

    // The redelivery expands the rest (from the cursor, not from the start).
    await deliver(testEnv, [expand!.body], { attempts: 2 });
    const rows = await rowsOf(campaign.id);
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((row) => row.entryId)).size).toBe(total);
    expect(queue.pending.filter((m) => m.body.type === "send")).toHaveLength(20);
    expect((await campaignNow(campaign.id)).expandedAt).not.toBeNull();
    await drain(testEnv, queue);
    expect((await campaignNow(campaign.id)).status).toBe("sending");

    // Ten quiet minutes later the cron finds it stalled and walks the rows left queued.
    const past = new Date(Date.now() - 11 * 60_000).toISOString();
    await sql("update hwh_campaigns set updated_at = ?1 where id = ?2", past, campaign.id);
    await sql("update hwh_campaign_recipients set updated_at = ?1 where campaign_id = ?2", past, campaign.id);
    await runCampaignCron(depsOf(testEnv));
    // The requeue walk (a chunk per message) enqueues a send for each stranded row, and only those.
    const sends: number[] = [];
    for (let step = 0; step < 20 && queue.pending.length > 0; step += 1) {
      for (const { body } of queue.take()) {
        if (body.type === "send") sends.push(body.recipient_id);
        else await deliver(testEnv, [body]);
      }
    }
    const stranded = rows.slice(0, EXPAND_CHUNK).map((row) => row.id);
    expect(sends.sort((a, b) => a - b)).toEqual(stranded);
    // Delivering a few of them sends them; the 20 already sent stay sent once.
    await deliver(
      testEnv,
      sends.slice(0, 3).map((id) => ({ type: "send" as const, campaign_id: campaign.id, recipient_id: id })),
    );
    const after = await rowsOf(campaign.id);
    expect(after.filter((row) => row.status === "sent")).toHaveLength(23);
    expect(after.every((row) => row.attempts <= 1)).toBe(true);
  }, 120_000);
});
