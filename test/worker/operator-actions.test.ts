import { describe, expect, it } from "vitest";
import { subjectHash } from "../../worker/features/operator/audit";
import type { AdminListedEntry, AdminPage, EntryVoided } from "../../worker/shared/admin";
import type { AudienceSize } from "../../worker/shared/campaigns";
import { REASON_NAMES_NO_ADDRESS } from "../../worker/shared/campaign-requests";
import { startCampaign } from "../../worker/features/campaigns/actions";
import { signIn } from "../support/auth";
import { depsOf, draft, drain, engineEnv, recordingQueue, rowsOf, seedConfirmed, uniqueTag } from "../support/campaign-engine";
import { call, testRepository, uniqueClientIp, uniqueEmail, type EnvOverrides } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

/**
 * The operator on launch day (issue 22) through the operator API: an invite wave's first entries
 * as the wave would draw them, flagged referrers marked, before anything is sent; holding an
 * entry out of waves and letting it back; voiding a referral credit (the referrer's place goes
 * back by exactly what the credit gave); each audited, behind the operator API's authorisation.
 */

const ADMIN_KEY = "test-admin-key-0123456789abcdef-0123456789";
const JWT_SECRET = "test-jwt-secret-0123456789abcdef0123456789abcdef";
const OPERATOR = "operator@example.com";
const OPERATORS: EnvOverrides = { OPERATOR_EMAILS: OPERATOR };
/** Joins confirmed at once, so a join from a network counts as a confirmation from it. */
/** The operator's reason, which the audit trail keeps. */
const WHY = "Six friends from one network within minutes.";
const OPT_IN_OFF: EnvOverrides = { WAITLIST_DOUBLE_OPT_IN: "false" };

function admin(path: string, init: RequestInit = {}, token: string | null = ADMIN_KEY): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token !== null) headers.set("Authorization", `Bearer ${token}`);
  return call(`/api/admin${path}`, { ...init, headers }, OPERATORS);
}

const post = (path: string, body?: unknown, token: string | null = ADMIN_KEY) =>
  admin(
    path,
    body === undefined
      ? { method: "POST" }
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
    token,
  );

async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function joinFrom(ip: string, email: string, extra: Record<string, unknown>): Promise<void> {
  const response = await call(
    "/api/waitlist",
    {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
      body: JSON.stringify({ ...ADULT_ANSWER, email, source: "hero", ...extra }),
    },
    OPT_IN_OFF,
  );
  expect(response.status, await response.clone().text()).toBe(201);
}

async function listed(email: string): Promise<AdminListedEntry> {
  const page = await json<AdminPage<AdminListedEntry>>(await admin(`/waitlist?q=${encodeURIComponent(email)}`));
  return page.items.find((item) => item.email === email)!;
}

/**
 * A line of its own (a utm_source of its own narrows every wave to it): two who joined first, a
 * ring's referrer, and the ring's six friends from one network (REFERRAL_NETWORK_FLAG is 5), who
 * move it to the front.
 */
async function ringLine() {
  const tag = `ring${crypto.randomUUID().slice(0, 8)}`;
  const utm = { utm_source: tag };
  const early = [`${tag}-early1@example.com`, `${tag}-early2@example.com`];
  for (const email of early) await joinFrom(uniqueClientIp(), email, utm);
  const referrer = `${tag}-referrer@example.com`;
  await joinFrom(uniqueClientIp(), referrer, utm);
  const code = (await listed(referrer)).referral_code!;
  const network = uniqueClientIp();
  const friends = Array.from({ length: 6 }, (_, i) => `${tag}-friend${i}@example.com`);
  for (const friend of friends) await joinFrom(network, friend, { ...utm, ref: code });
  return { tag, early, referrer, code, friends };
}

const wave = (tag: string, size = 20) => ({ audience: { kind: "wave", size, utm_source: tag } });

describe("an invite wave's first entries (issue 22)", () => {
  it("POST /campaigns/audience lists the first of a wave by place, as it would draw them, and marks the flagged referrer and its friends", async () => {
    const { tag, early, referrer, code, friends } = await ringLine();
    const answer = await json<AudienceSize>(await post("/campaigns/audience", wave(tag, 3)));
    expect(answer.audience_size).toBe(3);
    expect(answer.wave!.first.map((row) => [row.email, row.flagged_from_one_network, row.referred_by_flagged])).toEqual([
      [referrer, 6, false],
      [early[0], null, false],
      [early[1], null, false],
    ]);
    expect(answer.wave).toMatchObject({ flagged: 1, held: 0 });
    const [first] = answer.wave!.first;
    expect(first).toMatchObject({ referral_code: code, referrals_confirmed: 6, place: (await listed(referrer)).place });
    // A wave of all nine: the ring's friends are marked too, in the order they confirmed.
    const all = await json<AudienceSize>(await post("/campaigns/audience", wave(tag)));
    expect(all.wave!.first.filter((row) => row.referred_by_flagged).map((row) => row.email)).toEqual(friends);
    // An announcement lists nobody: it goes to everyone at once.
    expect((await json<AudienceSize>(await post("/campaigns/audience", { audience: { kind: "all", utm_source: tag } }))).wave).toBeNull();
  });
});

describe("holding an entry out of waves (issue 22)", () => {
  it("POST /waitlist/:id/hold skips it in waves and their sizes, answers the entry, is audited, and is undone the same way", async () => {
    const { tag, referrer } = await ringLine();
    const { id } = await listed(referrer);
    const held = await json<AdminListedEntry>(await post(`/waitlist/${id}/hold`, { held: true, reason: WHY }));
    expect(held).toMatchObject({ id, email: referrer, place: expect.any(Number) });
    expect(Date.parse(held.held_at!)).toBeGreaterThan(Date.now() - 60_000);
    const answer = await json<AudienceSize>(await post("/campaigns/audience", wave(tag)));
    expect(answer.audience_size).toBe(8);
    expect(answer.wave!.first.map((row) => row.email)).not.toContain(referrer);
    expect(answer.wave).toMatchObject({ flagged: 0, held: 1 });
    expect((await listed(referrer)).held_at).toBe(held.held_at);

    const trail = await testRepository().operator.auditTrail(20);
    const record = trail.find((row) => row.action === "entry.held");
    expect(record).toMatchObject({
      operator: "admin-key",
      subjectHash: await subjectHash(JWT_SECRET, referrer),
      details: { entry_id: id },
    });
    expect(JSON.stringify(record)).not.toContain(referrer);

    // Holding again is no change and no second record; letting it back is recorded too.
    await json(await post(`/waitlist/${id}/hold`, { held: true, reason: WHY }));
    const released = await json<AdminListedEntry>(await post(`/waitlist/${id}/hold`, { held: false, reason: "Checked: a real school." }));
    expect(released.held_at).toBeNull();
    expect((await json<AudienceSize>(await post("/campaigns/audience", wave(tag)))).audience_size).toBe(9);
    const actions = (await testRepository().operator.auditTrail(20)).filter(
      (row) => (row.details as { entry_id?: number }).entry_id === id,
    );
    expect(actions.map((row) => row.action)).toEqual(["entry.released", "entry.held"]);
  });

  it("answers 404 for an entry that does not exist and 400 for a body that is not {held: true|false}", async () => {
    expect(
      (await json<{ error: { code: string } }>(await post("/waitlist/999999999/hold", { held: true, reason: WHY }), 404)).error.code,
    ).toBe("entry_not_found");
    const { id } = await listed((await ringLine()).referrer);
    expect(
      (await json<{ error: { code: string } }>(await post(`/waitlist/${id}/hold`, { held: "yes", reason: WHY }), 400)).error.code,
    ).toBe("validation_failed");
    expect((await json<{ error: { code: string } }>(await post(`/waitlist/${id}/hold`, {}), 400)).error.code).toBe("validation_failed");
    // A reason is required: the audit trail says why.
    const noReason = await json<{ error: { code: string; fields?: Record<string, string> } }>(
      await post(`/waitlist/${id}/hold`, { held: true, reason: " " }),
      400,
    );
    expect(noReason.error.fields).toEqual({ reason: "Say why, for the audit trail." });
    expect((await post(`/waitlist/${id}/void-referral`)).status).toBe(415);
    expect(
      (await json<{ error: { fields?: Record<string, string> } }>(await post(`/waitlist/${id}/void-referral`, {}), 400)).error.fields,
    ).toEqual({
      reason: "Say why, for the audit trail.",
    });
    // The audit trail outlives an erasure and never holds an address: a reason naming one is refused, in any spelling.
    for (const named of ["check zoe@example.com ring", "check zoe＠example.com ring"]) {
      const withAddress = await json<{ error: { fields?: Record<string, string> } }>(
        await post(`/waitlist/${id}/void-referral`, { reason: named }),
        400,
      );
      expect(withAddress.error.fields).toEqual({ reason: REASON_NAMES_NO_ADDRESS });
    }
  });
});

describe("a held entry and a started wave (issue 22)", () => {
  it("a wave sent while an entry is held draws the next one instead and never invites it; once let back, the next wave draws it", async () => {
    const queue = recordingQueue();
    const testEnv = engineEnv(queue);
    const tag = uniqueTag("held");
    await seedConfirmed(tag, 5);
    const second = `${tag}-2@example.com`;
    const { id } = await listed(second);
    await json(await post(`/waitlist/${id}/hold`, { held: true, reason: WHY }));

    const first = await draft({ kind: "wave", size: 3, utm_source: tag });
    await startCampaign(depsOf(testEnv), first.id, null);
    await drain(testEnv, queue);
    const invitedBy = async (campaignId: number) =>
      Promise.all((await rowsOf(campaignId)).map(async (row) => (await testRepository().waitlist.entryById(row.entryId))!.email));
    expect(await invitedBy(first.id)).toEqual([1, 3, 4].map((i) => `${tag}-${i}@example.com`));
    expect(await testRepository().waitlist.entryByEmail(second)).toMatchObject({ invitedAt: null, invitedCampaignId: null });

    await json(await post(`/waitlist/${id}/hold`, { held: false, reason: "Checked." }));
    const next = await draft({ kind: "wave", size: 1, utm_source: tag });
    await startCampaign(depsOf(testEnv), next.id, null);
    await drain(testEnv, queue);
    expect(await invitedBy(next.id)).toEqual([second]);
  });
});

describe("voiding a referral credit (issue 22)", () => {
  it("POST /waitlist/:id/void-referral moves the referrer back by the credit's places, marks the credit void for good, and is audited", async () => {
    const { tag, early, referrer, friends } = await ringLine();
    const line = async () => (await json<AudienceSize>(await post("/campaigns/audience", wave(tag)))).wave!.first.map((row) => row.email);
    expect((await line()).slice(0, 3)).toEqual([referrer, ...early]);
    const before = await listed(referrer);
    const friend = await listed(friends[5]!);
    expect(friend.referral_credit).toBe("counted");
    const voided = await json<EntryVoided>(await post(`/waitlist/${friend.id}/void-referral`, { reason: WHY }));
    expect(voided.friend).toMatchObject({ id: friend.id, referral_credit: "voided" });
    expect(voided.referrer).toMatchObject({ id: before.id, referrals_confirmed: 5, referrals_voided: 1 });
    expect(voided.boost).toBe(5);
    expect(voided.referrer!.place).toBe((await listed(referrer)).place);
    // Six referrals had moved it to the front of its line; with none it is back where it confirmed, after the two before it.
    for (const other of friends.slice(0, 5)) await json(await post(`/waitlist/${(await listed(other)).id}/void-referral`, { reason: WHY }));
    expect(await listed(referrer)).toMatchObject({ referrals_confirmed: 0, referrals_voided: 6 });
    expect((await line()).slice(0, 3)).toEqual([...early, referrer]);
    expect((await listed(referrer)).place).toBeGreaterThan(before.place!);

    // Voiding again: nothing counts any more (409); a friend with no referrer has none (409); no entry (404).
    const again = await post(`/waitlist/${friend.id}/void-referral`, { reason: WHY });
    expect((await json<{ error: { code: string } }>(again, 409)).error.code).toBe("no_referral_credit");
    expect(
      (await json<{ error: { code: string } }>(await post(`/waitlist/${before.id}/void-referral`, { reason: WHY }), 409)).error.code,
    ).toBe("no_referral_credit");
    expect(
      (await json<{ error: { code: string } }>(await post("/waitlist/999999999/void-referral", { reason: WHY }), 404)).error.code,
    ).toBe("entry_not_found");

    const record = (await testRepository().operator.auditTrail(50)).find(
      (row) => row.action === "referral.voided" && (row.details as { friend_entry_id?: number }).friend_entry_id === friend.id,
    );
    expect(record).toMatchObject({
      subjectHash: await subjectHash(JWT_SECRET, referrer),
      details: { referrer_entry_id: before.id, boost: 5 },
    });
    expect(JSON.stringify(record)).not.toMatch(/@example\.com/);
  });
});

describe("who may use the new operator routes", () => {
  it("401 without credentials, 403 for someone who is no operator, like every operator route", async () => {
    const { referrer } = await ringLine();
    const { id } = await listed(referrer);
    const student = (await signIn(uniqueEmail("student"))).access_token;
    for (const [path, body] of [
      [`/waitlist/${id}/hold`, { held: true, reason: WHY }],
      [`/waitlist/${id}/void-referral`, { reason: WHY }],
    ] as const) {
      expect((await post(path, body, null)).status).toBe(401);
      expect((await post(path, body, student)).status).toBe(403);
    }
    expect((await listed(referrer)).held_at).toBeNull();
    expect((await listed(referrer)).referrals_confirmed).toBe(6);
  });
});
