import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDeps } from "../../worker/deps";
import { confirmEntry } from "../../worker/features/waitlist/confirm";
import { mailboxKey } from "../../worker/features/waitlist/keys";
import { confirmationToken } from "../../worker/features/waitlist/tokens";
import { ME_ROUTES } from "../../worker/shared/me";
import type { AdminListedEntry, AdminPage } from "../../worker/shared/admin";
import { ADMIN_KEY, JWT_SECRET, signIn } from "../support/auth";
import { call, postJson, testRepository, uniqueEmail } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

/**
 * Issue 22, "what delete everything leaves": after DELETE /api/me no row of any table holds the
 * person's address, mailbox key, entry id or referral code, with the person referred by someone,
 * referring friends, unsubscribed and e-mailed by a campaign. What is kept is named and bounded.
 */

const repo = testRepository();
const deps = () => createDeps(env);

/** Joins through the API (with `ref`) and confirms through that join's own link. */
async function joinedAndConfirmed(email: string, ref?: string) {
  expect((await postJson("/api/waitlist", ref ? { ...ADULT_ANSWER, email, ref } : { ...ADULT_ANSWER, email })).status).toBe(201);
  const entry = (await repo.findWaitlistEntry(email))!;
  await confirmEntry(deps(), await confirmationToken(deps(), entry.id, entry.referralJoin), "198.51.100.22");
  return (await repo.waitlist.entryById(entry.id))!;
}

function me(method: string, path: string, token: string, body?: unknown): Promise<Response> {
  const headers = new Headers({ Authorization: `Bearer ${token}` });
  if (body !== undefined) headers.set("Content-Type", "application/json");
  return call(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** The operator's row of an entry (the console's list): its referral counts and whether its own credit was voided. */
async function listed(email: string): Promise<AdminListedEntry> {
  const response = await call(`/api/admin/waitlist?q=${encodeURIComponent(email)}`, { headers: { Authorization: `Bearer ${ADMIN_KEY}` } });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as AdminPage<AdminListedEntry>).items.find((item) => item.email === email)!;
}

/** The person signs in and deletes everything. */
async function eraseEverything(email: string): Promise<void> {
  const { access_token: token } = await signIn(email);
  const erased = await me("DELETE", ME_ROUTES.me, token, { confirm: email });
  expect(erased.status, await erased.clone().text()).toBe(200);
}

/** Every row of every table of the project, by table. */
async function everyRow(): Promise<Record<string, Record<string, unknown>[]>> {
  const { results: tables } = await env.DB.prepare(
    "select name from sqlite_master where type = 'table' and name like 'hwh!_%' escape '!'",
  ).all<{ name: string }>();
  const rows = await env.DB.batch<Record<string, unknown>>(tables.map(({ name }) => env.DB.prepare(`select * from "${name}"`)));
  return Object.fromEntries(tables.map(({ name }, i) => [name, rows[i]!.results]));
}

describe("DELETE /api/me: what is left", () => {
  it("no row anywhere holds the address, mailbox key, entry id or code; counters that cap the inbox's e-mail end within a day", async () => {
    const referrer = await joinedAndConfirmed(uniqueEmail("erase-referrer"));
    const email = uniqueEmail("erase-all");
    const { access_token: token } = await signIn(email);
    const person = await joinedAndConfirmed(email, referrer.referralCode!);
    const friend = await joinedAndConfirmed(uniqueEmail("erase-friend"), person.referralCode!);
    expect(
      (await postJson("/api/waitlist", { ...ADULT_ANSWER, email: uniqueEmail("erase-waiting"), ref: person.referralCode })).status,
    ).toBe(201);
    expect((await repo.waitlist.entryById(referrer.id))!.referralsConfirmed).toBe(1);
    expect((await postJson("/api/forms/contact", { name: "Ada", email, message: "Hello" })).status).toBe(201);
    expect((await me("POST", ME_ROUTES.subscription, token, { subscribed: false })).status).toBe(200);
    // A wave's e-mail sent to the person, and one to the friend.
    const campaign = await repo.campaigns.create(
      { subject: "You're in", body: "Come in.", audience: { kind: "wave", size: 2 } },
      "ops@example.com",
      new Date(),
    );
    for (const [entry, place] of [
      [person, 2],
      [friend, 3],
    ] as const) {
      await env.DB.prepare(
        "insert into hwh_campaign_recipients (campaign_id, entry_id, place, status, sent_at, updated_at) values (?1, ?2, ?3, 'sent', ?4, ?4)",
      )
        .bind(campaign.id, entry.id, place, "2026-11-25T04:12:09.000Z")
        .run();
    }
    expect((await me("GET", ME_ROUTES.data, token)).status).toBe(200);

    const erased = await me("DELETE", ME_ROUTES.me, token, { confirm: email });
    expect(erased.status, await erased.clone().text()).toBe(200);
    // This browser's signed-in device cookie (sign-in's own allowance for the address) is cleared too.
    expect(erased.headers.get("Set-Cookie")).toMatch(/^hwh_device=; Max-Age=0; Path=\/auth\/v1; HttpOnly; SameSite=Strict/);

    const key = await mailboxKey(JWT_SECRET, email);
    const traces = [email, key, person.referralCode!];
    // hwh_dev_mailbox is the local stand-in for inboxes (the e-mails already sent), never written in production.
    const { hwh_rate_limits: counters, hwh_dev_mailbox: _inboxes, ...tables } = await everyRow();
    for (const [table, rows] of Object.entries(tables)) {
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          if (typeof value === "string")
            for (const trace of traces) expect(value.toLowerCase(), `${table}.${column}`).not.toContain(trace.toLowerCase());
          if (column.endsWith("entry_id") || (table === "hwh_waitlist" && column === "id"))
            expect(value, `${table}.${column}`).not.toBe(person.id);
        }
      }
    }
    // Kept on purpose, and bounded: the counters capping the e-mail one inbox gets (keyed hashes)
    // until their window ends, at most a day, so deleting everything cannot reset them.
    const dayFromNow = Date.now() / 1000 + 86_400;
    for (const counter of counters!.filter((row) => traces.some((trace) => String(row.key).includes(trace)))) {
      expect(Number(counter.expires_at)).toBeLessThanOrEqual(dayFromNow);
    }

    // The campaign keeps its counts: the person's row stays, naming nobody; the friend's is as it was.
    const rows = await repo.campaignDelivery.rowsOf(campaign.id);
    expect(rows.map(({ status, place, sentAt }) => ({ status, place, sentAt }))).toEqual([
      { status: "sent", place: null, sentAt: null },
      { status: "sent", place: 3, sentAt: "2026-11-25T04:12:09.000Z" },
    ]);
    // The referrer keeps the place its credit gave; the friend keeps its standing, without the link.
    expect((await repo.waitlist.entryById(referrer.id))!).toMatchObject({ referralsConfirmed: 1, rankKey: referrer.rankKey! - 11 });
    expect((await repo.waitlist.entryById(friend.id))!).toMatchObject({ referredBy: null, rankKey: friend.rankKey });
  });
});

describe("DELETE /api/me, then joining again through the same link (review of issue 22, point 5)", () => {
  it("the referrer is not credited a second time for the same inbox, nor for another spelling of it", async () => {
    const referrer = await joinedAndConfirmed(uniqueEmail("again-referrer"));
    const email = uniqueEmail("again-zoe");
    await joinedAndConfirmed(email, referrer.referralCode!);
    const credited = (await repo.waitlist.entryById(referrer.id))!;
    expect(credited.referralsConfirmed).toBe(1);

    await eraseEverything(email);
    const again = await joinedAndConfirmed(email, referrer.referralCode!);
    expect(again.confirmedAt).not.toBeNull();
    expect((await repo.waitlist.entryById(referrer.id))!).toMatchObject({ referralsConfirmed: 1, rankKey: credited.rankKey });
    expect(await listed(email)).toMatchObject({ referral_credit: null });
    // The same inbox under a +tag is the same pair.
    await joinedAndConfirmed(email.replace("@", "+again@"), referrer.referralCode!);
    expect((await repo.waitlist.entryById(referrer.id))!.referralsConfirmed).toBe(1);
    // Another inbox still counts.
    await joinedAndConfirmed(uniqueEmail("again-other"), referrer.referralCode!);
    expect((await repo.waitlist.entryById(referrer.id))!.referralsConfirmed).toBe(2);
  });

  it("an operator's void survives the friend's erasure: still counted as voided, never credited again, however often", async () => {
    const referrer = await joinedAndConfirmed(uniqueEmail("void-referrer"));
    const email = uniqueEmail("void-zoe");
    const zoe = await joinedAndConfirmed(email, referrer.referralCode!);
    const voided = await call(`/api/admin/waitlist/${zoe.id}/void-referral`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({ reason: "A ring." }),
    });
    expect(voided.status, await voided.clone().text()).toBe(200);
    expect(await listed(referrer.email)).toMatchObject({ referrals_confirmed: 0, referrals_voided: 1 });

    for (let round = 1; round <= 2; round++) {
      await eraseEverything(email);
      expect(await listed(referrer.email)).toMatchObject({ referrals_confirmed: 0, referrals_voided: 1 });
      await joinedAndConfirmed(email, referrer.referralCode!);
      expect(await listed(referrer.email), `round ${round}`).toMatchObject({ referrals_confirmed: 0, referrals_voided: 1 });
      expect((await repo.waitlist.entryById(referrer.id))!.rankKey).toBe(referrer.rankKey);
    }
  });
});
