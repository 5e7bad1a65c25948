import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { startCampaign } from "../../worker/features/campaigns/actions";
import { createDeps } from "../../worker/deps";
import { campaignNow, draft, rowsOf, seedConfirmed, uniqueTag } from "../support/campaign-engine";

/**
 * End to end through the real local queue (miniflare's, as `npm start` runs it): the producer
 * binding CAMPAIGN_QUEUE and this worker's own consumer, with wrangler.toml's batch settings.
 * Nothing here calls the queue handler: the runtime delivers the messages.
 */
describe("a campaign through the local queue", () => {
  it("expands, sends every recipient once through the consumer and ends 'sent'", async () => {
    const tag = uniqueTag("e2e");
    await seedConfirmed(tag, 60);
    const campaign = await draft({ kind: "wave", size: 55, utm_source: tag });
    await startCampaign(createDeps(env), campaign.id, null);

    const deadline = Date.now() + 60_000;
    while ((await campaignNow(campaign.id)).status !== "sent" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const rows = await rowsOf(campaign.id);
    expect(await campaignNow(campaign.id)).toMatchObject({ status: "sent", audienceSize: 55 });
    expect(rows).toHaveLength(55);
    expect(rows.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
    // One e-mail per recipient in the dev mailbox, each to its own address.
    const kept = await env.DB.prepare("select receivers from hwh_dev_mailbox where receivers like ?1")
      .bind(`%${tag}-%`)
      .all<{ receivers: string }>();
    const addresses = kept.results.map((row) => (JSON.parse(row.receivers) as string[])[0]);
    expect(addresses).toHaveLength(55);
    expect(new Set(addresses).size).toBe(55);
  }, 90_000);
});
