import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { CampaignMessage } from "../../worker/features/campaigns/messages";
import { testRepository } from "../support/worker";
import {
  campaignNow,
  deliver,
  engineEnv,
  expandedCampaign,
  PROVIDER_ENV,
  recordingQueue,
  type RecordingQueue,
  rowsOf,
  sql,
  stubProvider,
} from "../support/campaign-engine";

const emailOf = (tag: string, i: number) => `${tag}-${i}@example.com`;

describe("campaign sends", () => {
  it("a redelivered send message does not send again (the row is sent: acked, no provider call)", async () => {
    const requests = stubProvider();
    // Two recipients: the second is still queued, so the campaign is still sending when the first's message comes again.
    const { testEnv, campaign, sends } = await expandedCampaign("send", 2, { overrides: PROVIDER_ENV });
    const first = await deliver(testEnv, sends.slice(0, 1));
    const again = await deliver(testEnv, sends.slice(0, 1), { attempts: 2 });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.idempotencyKey).toBe(`campaign-${campaign.id}-recipient-${sends[0]!.recipient_id}`);
    expect(first.explicitAcks).toEqual(first.ids);
    expect(again.explicitAcks).toEqual(again.ids);
    expect((await campaignNow(campaign.id)).status).toBe("sending");
    expect(await rowsOf(campaign.id)).toMatchObject([
      { status: "sent", attempts: 1 },
      { status: "queued", attempts: 0 },
    ]);
  });

  it("two consumers racing on one row send once (the claim is one conditional update)", async () => {
    const requests = stubProvider();
    const { testEnv, campaign, sends } = await expandedCampaign("send", 1, { overrides: PROVIDER_ENV });
    await Promise.all([deliver(testEnv, sends), deliver(testEnv, sends), deliver(testEnv, sends)]);
    expect(requests).toHaveLength(1);
    expect(await rowsOf(campaign.id)).toMatchObject([{ status: "sent", attempts: 1 }]);
  });

  it("a lapsed claim (its sender died) is claimed again and sent; a live one is left to its holder", async () => {
    const requests = stubProvider();
    const { testEnv, campaign, sends } = await expandedCampaign("send", 2, { overrides: PROVIDER_ENV });
    const [dead, live] = sends;
    const past = new Date(Date.now() - 1_000).toISOString();
    const future = new Date(Date.now() + 60_000).toISOString();
    await sql(
      "update hwh_campaign_recipients set status = 'sending', claim = 'gone', attempts = 1, locked_until = ?1 where id = ?2",
      past,
      dead!.recipient_id,
    );
    await sql(
      "update hwh_campaign_recipients set status = 'sending', claim = 'busy', attempts = 1, locked_until = ?1 where id = ?2",
      future,
      live!.recipient_id,
    );
    await deliver(testEnv, sends);
    expect(requests.map((r) => r.idempotencyKey)).toEqual([`campaign-${campaign.id}-recipient-${dead!.recipient_id}`]);
    expect((await rowsOf(campaign.id)).map((row) => [row.status, row.attempts])).toEqual([
      ["sent", 2],
      ["sending", 1],
    ]);
  });

  it("skips the unsubscribed, the bounced and the erased before any provider call", async () => {
    const requests = stubProvider();
    const { tag, testEnv, campaign, sends } = await expandedCampaign("send", 4, { overrides: PROVIDER_ENV });
    const repo = testRepository();
    const key = async (i: number) => (await repo.waitlist.entryByEmail(emailOf(tag, i)))!.mailboxKey;
    await repo.consent.suppress({
      mailboxKey: await key(1),
      reason: "unsubscribed",
      source: "one-click",
      campaignId: null,
      now: new Date(),
    });
    await repo.consent.suppress({ mailboxKey: await key(2), reason: "bounced", source: "transport", campaignId: null, now: new Date() });
    await repo.waitlist.leave(emailOf(tag, 3));
    await deliver(testEnv, sends);
    expect(requests.map((r) => r.receivers)).toEqual([[emailOf(tag, 4)]]);
    expect((await rowsOf(campaign.id)).map((row) => [row.status, row.skipReason])).toEqual([
      ["skipped", "unsubscribed"],
      ["skipped", "bounced"],
      ["skipped", "erased"],
      ["sent", null],
    ]);
  });

  it("a bounce the transport reports fails the row and suppresses the mailbox (source transport)", async () => {
    stubProvider(() => Response.json({ error: { code: "recipient_bounced" } }, { status: 200 }));
    const { tag, testEnv, campaign, sends } = await expandedCampaign("send", 1, { overrides: PROVIDER_ENV });
    const result = await deliver(testEnv, sends);
    expect(result.retryMessages).toEqual([]);
    expect(await rowsOf(campaign.id)).toMatchObject([{ status: "failed" }]);
    const entry = await testRepository().waitlist.entryByEmail(emailOf(tag, 1));
    expect(await testRepository().consent.statusOf(entry!.mailboxKey)).toMatchObject({
      reason: "bounced",
      source: "transport",
      campaignId: campaign.id,
    });
  });

  it("keeps the campaign e-mail in the dev mailbox with its List-Unsubscribe headers, footer and link (on the operator's origin without SITE_URL)", async () => {
    const { tag, testEnv, sends } = await expandedCampaign("send", 1, { origin: "http://127.0.0.1:8899" });
    expect(sends[0]!.origin).toBe("http://127.0.0.1:8899");
    await deliver(testEnv, sends);
    const mail = await env.DB.prepare("select title, body_text, headers from hwh_dev_mailbox where receivers = ?1")
      .bind(JSON.stringify([emailOf(tag, 1)]))
      .first<{ title: string; body_text: string; headers: string }>();
    expect(mail!.title).toBe("We are open");
    const headers = JSON.parse(mail!.headers) as Record<string, string>;
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const link = /^<(.+)>$/.exec(headers["List-Unsubscribe"]!)![1]!;
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:8899\/unsubscribe\?token=/);
    expect(mail!.body_text).toContain(link);
    expect(mail!.body_text).toContain("Homework Helper Test Ltd");
  });

  it("over the send rate a message waits (a delayed fresh copy, acked) without claiming its row", async () => {
    stubProvider();
    const { testEnv, campaign, sends, queue } = await expandedCampaign("send", 5, {
      overrides: { ...PROVIDER_ENV, CAMPAIGN_SEND_RATE: "2" },
    });
    // One second of the clock, far from any other test's: the counter's window is this test's alone.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2031-01-01T00:00:00.200Z"));
    try {
      const result = await deliver(testEnv, sends);
      expect(result.retryMessages).toEqual([]);
      expect(result.explicitAcks).toHaveLength(5);
      const rows = await rowsOf(campaign.id);
      expect(rows.filter((row) => row.status === "sent")).toHaveLength(2);
      const held = rows.filter((row) => row.status === "queued");
      expect(held.map((row) => row.attempts)).toEqual([0, 0, 0]);
      const copies = (queue as RecordingQueue).take();
      expect(copies.map((m) => (m.body as { recipient_id: number }).recipient_id).sort()).toEqual(held.map((row) => row.id).sort());
      expect(copies.map((m) => m.delaySeconds).sort()).toEqual([1, 1, 2]);
    } finally {
      await sql("delete from hwh_rate_limits where key = 'campaign-send'");
    }
  });

  it("a message that is not a campaign message is acked and logged (a retry cannot mend it)", async () => {
    const queue = recordingQueue();
    const result = await deliver(engineEnv(queue), [{ type: "send", campaign_id: "1" } as unknown as CampaignMessage]);
    expect(result.explicitAcks).toEqual(result.ids);
    expect(result.retryMessages).toEqual([]);
  });
});
