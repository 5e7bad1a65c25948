import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { startCampaign } from "../../worker/features/campaigns/actions";
import type { AudienceSize, CampaignAudience } from "../../worker/shared/campaigns";
import {
  depsOf,
  draft,
  drain,
  engineEnv,
  PROVIDER_ENV,
  recordingQueue,
  rowsOf,
  seedConfirmed,
  stubProvider,
  uniqueTag,
} from "../support/campaign-engine";
import { call, testRepository } from "../support/worker";

/**
 * Campaign audiences and children (issue 23 §2, §6): a child's request waiting for a parent's
 * answer lives in hwh_parental_requests, never in hwh_waitlist, so no campaign ever mails the
 * parent's address for it; once the parent agreed, the entry on behalf of the child is the
 * parent's address and is in audiences like any confirmed entry (campaign e-mail goes to the
 * parent). Rows are stored directly with migration 0014's columns.
 */

/** A child's request waiting for a parent's answer (only what the rules let it keep). */
async function pendingRequest(parentEmail: string): Promise<void> {
  await env.DB.prepare(
    "insert into hwh_parental_requests (parent_email, mailbox_key, age_band, country, nonce, created_at) values (?, ?, 'under_13', 'US', ?, ?)",
  )
    .bind(parentEmail, crypto.randomUUID(), crypto.randomUUID(), new Date().toISOString())
    .run();
}

/** A confirmed entry of `band` that joined after the age question, in line after every entry there is. */
async function confirmedOfBand(email: string, tag: string, band: string): Promise<void> {
  const at = new Date().toISOString();
  await env.DB.prepare(
    `insert into hwh_waitlist (email, utm_source, mailbox_key, confirmed_at, confirm_seq, rank_key, email_sent, created_at, updated_at, age_band, country)
     select ?1, ?2, lower(hex(randomblob(32))), ?3, b + 1, 2 * (b + 1), 1, ?3, ?3, ?4, 'GB'
     from (select coalesce(max(confirm_seq), 0) as b from hwh_waitlist)`,
  )
    .bind(email, tag, at, band)
    .run();
}

/** POST /api/admin/campaigns/audience with the admin key. */
async function audienceOf(audience: CampaignAudience): Promise<AudienceSize> {
  const response = await call(
    "/api/admin/campaigns/audience",
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer test-admin-key-0123456789abcdef-0123456789" },
      body: JSON.stringify({ audience }),
    },
    { OPERATOR_EMAILS: "operator@example.com" },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as AudienceSize;
}

/** An entry a parent agreed to on behalf of a child: confirmed at the agreement, in line after every entry there is, no referral code. */
async function onBehalfEntry(parentEmail: string, tag: string): Promise<void> {
  const at = new Date().toISOString();
  await env.DB.prepare(
    `insert into hwh_waitlist (email, utm_source, mailbox_key, confirmed_at, confirm_seq, rank_key, email_sent, created_at, updated_at,
       age_band, country, on_behalf_of_child, parental_consent_at)
     select ?1, ?2, lower(hex(randomblob(32))), ?3, b + 1, 2 * (b + 1), 1, ?3, ?3, 'under_13', 'US', 1, ?3
     from (select coalesce(max(confirm_seq), 0) as b from hwh_waitlist)`,
  )
    .bind(parentEmail, tag, at)
    .run();
}

/** Starts a campaign to `audience`, plays its queue to the end against a stub provider: the addresses it mailed. */
async function sendTo(audience: CampaignAudience): Promise<{ receivers: string[]; rows: number; campaignId: number }> {
  const requests = stubProvider();
  const queue = recordingQueue();
  const testEnv = engineEnv(queue, PROVIDER_ENV);
  const campaign = await draft(audience);
  await startCampaign(depsOf(testEnv), campaign.id, null);
  await drain(testEnv, queue);
  return { receivers: requests.flatMap((request) => request.receivers), rows: (await rowsOf(campaign.id)).length, campaignId: campaign.id };
}

describe("campaign audiences and children (issue 23)", () => {
  it("a campaign expanded while parental requests are pending never mails a parent's address from a pending request", async () => {
    const tag = uniqueTag("pending-parents");
    await seedConfirmed(tag, 3);
    const asked = [`asked-parent-1-${tag}@example.com`, `asked-parent-2-${tag}@example.com`];
    for (const parent of asked) await pendingRequest(parent);
    const audience: CampaignAudience = { kind: "all", utm_source: null };
    const size = await testRepository().campaigns.audienceSize(audience);

    const sent = await sendTo(audience);
    // Everyone confirmed on the waitlist, and nobody else: the size the operator was shown is what went out.
    expect(sent.rows).toBe(size);
    expect(sent.receivers).toHaveLength(size);
    expect(sent.receivers).toEqual(expect.arrayContaining([1, 2, 3].map((i) => `${tag}-${i}@example.com`)));
    for (const parent of asked) expect(sent.receivers).not.toContain(parent);
    // A wave too draws from the waitlist only.
    const wave = await sendTo({ kind: "wave", size: 1000, utm_source: null });
    for (const parent of asked) expect(wave.receivers).not.toContain(parent);
    // The requests are still waiting for their parents' answers, untouched by the campaigns.
    const { n } = (await env.DB.prepare("select count(*) as n from hwh_parental_requests").first<{ n: number }>())!;
    expect(n).toBe(2);
  });

  it("an entry on behalf of a child is in audiences: campaign e-mail goes to the parent, once, and a wave invites it at its place", async () => {
    const tag = uniqueTag("on-behalf");
    await seedConfirmed(tag, 2);
    const parent = `agreed-parent-${tag}@example.com`;
    await onBehalfEntry(parent, tag);
    const all = await sendTo({ kind: "all", utm_source: tag });
    expect(all.receivers.sort()).toEqual([`${tag}-1@example.com`, `${tag}-2@example.com`, parent].sort());

    const wave = await sendTo({ kind: "wave", size: 10, utm_source: tag });
    expect(wave.receivers.filter((to) => to === parent)).toHaveLength(1);
    const entry = (await testRepository().waitlist.entryByEmail(parent))!;
    expect(entry).toMatchObject({ onBehalfOfChild: true, invitedCampaignId: wave.campaignId });
  });

  it("the audience's count says how many of it joined before the age question (age band unknown), for everyone and for a wave's first N", async () => {
    const tag = uniqueTag("age-unknown");
    await seedConfirmed(tag, 3); // before the question: the column's default, "unknown"
    await confirmedOfBand(`${tag}-adult@example.com`, tag, "18_plus");
    await onBehalfEntry(`${tag}-parent@example.com`, tag);
    expect(await audienceOf({ kind: "all", utm_source: tag })).toMatchObject({ audience_size: 5, age_unknown: 3 });
    expect(await audienceOf({ kind: "wave", size: 2, utm_source: tag })).toMatchObject({ audience_size: 2, age_unknown: 2 });
    const later = uniqueTag("age-known");
    await confirmedOfBand(`${later}-teen@example.com`, later, "16_17");
    expect(await audienceOf({ kind: "wave", size: 10, utm_source: later })).toMatchObject({ audience_size: 1, age_unknown: 0 });
  });
});
