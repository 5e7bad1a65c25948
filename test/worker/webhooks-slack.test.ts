import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { slackText } from "../../worker/features/webhooks/slack";
import {
  addEndpoint,
  addEvent,
  deliveriesOf,
  endpointRow,
  execute,
  fakeReceivers,
  resetWebhooks,
  runConsumer,
  webhookDeps,
} from "../support/webhooks";

const SLACK = "https://hooks.slack.com/services/T0001/B0002/secretToken123";
const joined = (source: string | null, email: string) => ({
  email,
  status: "pending",
  place: null,
  source: null,
  utm_source: source,
  utm_medium: null,
  utm_campaign: null,
  referrer_host: null,
  joined_at: "2026-12-05T10:00:00.000Z",
  confirmed_at: null,
});
const onTheList = async () => (await env.DB.prepare("select count(*) as n from hwh_waitlist").first<{ n: number }>())!.n;
const textOf = (body: string) => (JSON.parse(body) as { text: string }).text;

beforeEach(async () => {
  await resetWebhooks();
  await execute("delete from hwh_referral_credits");
  // 1,234 entries on the list (the figure a sign-up's line quotes).
  const rows = Array.from(
    { length: 1234 },
    (_, i) => `('listed-${i}@example.com', '2026-12-05T00:00:00.000Z', '2026-12-05T00:00:00.000Z')`,
  );
  await execute("delete from hwh_waitlist");
  for (let i = 0; i < rows.length; i += 200)
    await execute(`insert into hwh_waitlist (email, created_at, updated_at) values ${rows.slice(i, i + 200).join(", ")}`);
});

async function referralsToday(n: number, at: Date) {
  for (let i = 0; i < n; i++)
    await execute(
      "insert into hwh_referral_credits (referral_code, mailbox_key, created_at) values (?, ?, ?)",
      "CODE0001",
      `key-${i}-${Math.random()}`,
      at.toISOString(),
    );
  await execute(
    "insert into hwh_referral_credits (referral_code, mailbox_key, created_at) values ('CODE0001', 'yesterday', ?)",
    new Date(at.getTime() - 86_400_000).toISOString(),
  );
}

describe("webhooks: Slack", () => {
  it("posts one short text to the whole Slack URL, unsigned, with the list's figures and no personal data", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    await referralsToday(3, now());
    const endpoint = await addEndpoint(deps, { url: SLACK, kind: "slack" });
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data: joined("tiktok", "ada@example.com") }, [endpoint]);
    await runConsumer(deps);
    const [call] = receivers.to(SLACK);
    expect(call).toBeDefined();
    expect(call!.headers.get("webhook-signature")).toBeNull();
    expect(call!.headers.get("content-type")).toBe("application/json");
    expect(await onTheList()).toBe(1234);
    expect(textOf(call!.body)).toBe("New sign-up from tiktok: 1,234 on the list, 3 confirmed referrals today");
    expect(call!.body).not.toContain("ada@");
    expect((await deliveriesOf(endpoint))[0]).toMatchObject({ status: "delivered", last_answer: "ok" });
  });

  it("combines the deliveries of one Slack endpoint claimed in a run into ONE message", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const endpoint = await addEndpoint(deps, { url: SLACK, kind: "slack" });
    for (let i = 0; i < 25; i++) {
      const email = `p${i}@example.com`;
      await addEvent(deps, { type: "waitlist.joined", person: email, data: joined(i < 20 ? "tiktok" : null, email) }, [endpoint]);
    }
    await addEvent(deps, { type: "waitlist.confirmed", person: "p0@example.com", data: joined("tiktok", "p0@example.com") }, [endpoint]);
    await addEvent(
      deps,
      {
        type: "contact.received",
        person: "q@example.com",
        data: { form: "contact", email: "q@example.com", name: "Quentin Private", message: "my secret message", received_at: "x" },
      },
      [endpoint],
    );
    await addEvent(
      deps,
      { type: "campaign.finished", data: { campaign_id: 4, name: "Launch day", sent: 980, skipped: 12, failed: 3, finished_at: "x" } },
      [endpoint],
    );
    await addEvent(deps, { type: "person.erased", person: "gone@example.com", data: { email: "gone@example.com", erased_at: "x" } }, [
      endpoint,
    ]);
    await runConsumer(deps);
    expect(receivers.to(SLACK)).toHaveLength(1);
    const text = textOf(receivers.to(SLACK)[0]!.body);
    expect(text.split("\n")).toEqual([
      "25 new sign-ups (tiktok 20, direct 5): 1,234 on the list, 0 confirmed referrals today",
      "A sign-up confirmed their address",
      "New message through the contact form",
      'Campaign "Launch day" finished: 980 sent, 12 skipped, 3 failed',
      "A person's data was erased; delete them from your tools too.",
    ]);
    expect(text).not.toMatch(/@|Quentin|secret message/);
    expect((await deliveriesOf(endpoint)).every((d) => d.status === "delivered")).toBe(true);
  });

  it("sends at most one message a second to a Slack endpoint", async () => {
    const { deps, now, advance, kicks } = webhookDeps();
    const receivers = fakeReceivers(now);
    const endpoint = await addEndpoint(deps, { url: SLACK, kind: "slack" });
    await addEvent(deps, { type: "contact.received", person: "a@example.com", data: { form: "contact" } }, [endpoint]);
    await runConsumer(deps);
    expect((await endpointRow(endpoint)).paused_until).toBe(new Date(now().getTime() + 1000).toISOString());
    await addEvent(deps, { type: "contact.received", person: "b@example.com", data: { form: "contact" } }, [endpoint]);
    await runConsumer(deps);
    expect(receivers.to(SLACK)).toHaveLength(1);
    expect(kicks.at(-1)!.delaySeconds).toBe(1);
    advance(1000);
    await runConsumer(deps);
    expect(receivers.to(SLACK)).toHaveLength(2);
  });

  it("holds a Slack endpoint while a run sends to it, so a concurrent run never sends it a second message", async () => {
    const { deps, now } = webhookDeps();
    const endpoint = await addEndpoint(deps, { url: SLACK, kind: "slack" });
    await addEvent(deps, { type: "contact.received", person: "a@example.com", data: { form: "contact" } }, [endpoint]);
    const leaseUntil = new Date(now().getTime() + 300_000);
    const run = { now: now(), leaseUntil, limit: 100, dayStart: now() };
    const first = await deps.repo.webhooks.claimDue({ ...run, claim: "run-1" });
    expect(first.deliveries).toHaveLength(1);
    expect((await endpointRow(endpoint)).paused_until).toBe(leaseUntil.toISOString());
    await addEvent(deps, { type: "contact.received", person: "b@example.com", data: { form: "contact" } }, [endpoint]);
    const second = await deps.repo.webhooks.claimDue({ ...run, claim: "run-2" });
    expect(second.deliveries).toHaveLength(0);
  });

  it("a source a visitor typed (a mention, a link, an address, a name) never reaches the channel: only short words are named", () => {
    const figures = { onTheList: 10, referralsToday: 0 };
    const text = (source: string) =>
      slackText([{ type: "waitlist.joined", payload: JSON.stringify(joined(source, "x@example.com")) }], figures);
    for (const typed of ["<!channel> https://evil.example/x", "evil.example", "ada@example.com", "Ada Lovelace", "x".repeat(31)]) {
      expect(text(typed)).toBe("New sign-up from another source: 10 on the list, 0 confirmed referrals today");
    }
    expect(text("TikTok")).toBe("New sign-up from tiktok: 10 on the list, 0 confirmed referrals today");
    expect(text("school-newsletter_2")).toBe("New sign-up from school-newsletter_2: 10 on the list, 0 confirmed referrals today");
  });

  it("texts: one campaign line each, plural counts, nothing about a person", () => {
    const figures = { onTheList: 1234, referralsToday: 3 };
    expect(slackText([{ type: "waitlist.joined", payload: JSON.stringify(joined("tiktok", "x@example.com")) }], figures)).toBe(
      "New sign-up from tiktok: 1,234 on the list, 3 confirmed referrals today",
    );
    expect(
      slackText(
        [
          { type: "referral.confirmed", payload: "{}" },
          { type: "referral.confirmed", payload: "{}" },
        ],
        figures,
      ),
    ).toBe("2 referrals were confirmed (3 today)");
    expect(
      slackText(
        [
          { type: "person.erased", payload: '{"email":"x@example.com"}' },
          { type: "person.erased", payload: "{}" },
        ],
        null,
      ),
    ).toBe("2 people's data was erased; delete them from your tools too.");
  });
});
