import { describe, expect, it } from "vitest";
import type { AdminStats, ReferralClusters } from "../../worker/shared/admin";
import { inboxStem, clustersOf, voidedOf } from "../../worker/features/operator/queries/referral-clusters";
import { sql } from "../support/campaign-engine";
import { call, testRepository, uniqueClientIp } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

/**
 * The referral review (issue 22): per flagged referrer, how its referrals cluster by network, by
 * time and by inbox, so a school (one network, over days, varied names) reads apart from a ring
 * (a burst of look-alike inboxes). Through GET /api/admin/stats, and the rules themselves.
 */

const ADMIN_KEY = "test-admin-key-0123456789abcdef-0123456789";
const OPT_IN_OFF = { WAITLIST_DOUBLE_OPT_IN: "false" };

async function join(ip: string, email: string, ref?: string): Promise<void> {
  const body = JSON.stringify({ ...ADULT_ANSWER, email, source: "hero", ...(ref ? { ref } : {}) });
  const response = await call(
    "/api/waitlist",
    { method: "POST", headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip }, body },
    OPT_IN_OFF,
  );
  expect(response.status, await response.clone().text()).toBe(201);
}

async function stats(): Promise<AdminStats> {
  const response = await call("/api/admin/stats", { headers: { Authorization: `Bearer ${ADMIN_KEY}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as AdminStats;
}

/** A referrer and its friends, all from one network; `spreadHours` apart in confirmation when given. */
async function referrerWith(tag: string, locals: string[], domain: string, spreadHours = 0) {
  const referrer = `${tag}-referrer@example.com`;
  await join(uniqueClientIp(), referrer);
  const code = (await testRepository().waitlist.entryByEmail(referrer))!.referralCode!;
  const network = uniqueClientIp();
  const friends = locals.map((local) => `${local}@${tag}.${domain}`);
  for (const friend of friends) await join(network, friend, code);
  if (spreadHours > 0) {
    const start = Date.now() - spreadHours * friends.length * 3_600_000;
    for (const [i, friend] of friends.entries())
      await sql(
        "update hwh_waitlist set confirmed_at = ?1 where email = ?2",
        new Date(start + i * spreadHours * 3_600_000).toISOString(),
        friend,
      );
  }
  return code;
}

describe("the referral review's clusters (issue 22)", () => {
  it("GET /api/admin/stats tells a ring (a burst of look-alike inboxes) from a school (one network, over days, varied names)", async () => {
    const tag = `rv${crypto.randomUUID().slice(0, 6)}`;
    const ring = await referrerWith(`${tag}r`, ["kid1", "kid2", "kid.3", "kid+4", "KID55", "kid6"], "example");
    const school = await referrerWith(`${tag}s`, ["anna", "ben", "chloe", "dev", "emma", "farid"], "example", 20);
    const { flagged, clusters: all } = (await stats()).referrals;
    const clusters = (code: string) => {
      const found = all!.find((row) => row.code === code)!;
      expect(all!.indexOf(found)).toBe(flagged.findIndex((row) => row.code === code));
      const { code: _code, ...rest } = found;
      return rest;
    };
    expect(clusters(ring)).toEqual({
      total: 6,
      byNetwork: [6],
      withinHour: 6,
      withinDay: 6,
      spanHours: expect.any(Number),
      domains: 1,
      lookAlike: 6,
      reading: "ring",
    } satisfies Record<keyof ReferralClusters, unknown>);
    expect(clusters(ring).spanHours).toBeLessThan(1);
    expect(clusters(school)).toEqual({
      total: 6,
      byNetwork: [6],
      withinHour: 1,
      withinDay: 2,
      spanHours: 100,
      domains: 1,
      lookAlike: 1,
      reading: "group",
    });
  });
});

describe("voided credits beside the flag (issue 22 review)", () => {
  it("GET /api/admin/stats says, per flagged referrer, how many of its referrals' credits were voided, which the flag still counts", async () => {
    const tag = `vd${crypto.randomUUID().slice(0, 6)}`;
    const ring = await referrerWith(tag, ["kid1", "kid2", "kid3", "kid4", "kid5", "kid6"], "example");
    const before = await stats();
    expect(before.referrals.voided?.find((row) => row.code === ring)).toEqual({ code: ring, total: 0, fromOneNetwork: 0 });
    for (const local of ["kid1", "kid2"]) {
      const friend = (await testRepository().waitlist.entryByEmail(`${local}@${tag}.example`))!;
      const response = await call(`/api/admin/waitlist/${friend.id}/void-referral`, {
        method: "POST",
        headers: { Authorization: `Bearer ${ADMIN_KEY}`, "Content-Type": "application/json" },
        body: JSON.stringify({ reason: "One burst from one network" }),
      });
      expect(response.status, await response.clone().text()).toBe(200);
    }
    const after = (await stats()).referrals;
    // The flag and the clusters still count 6; the credits counted are 4; the 2 voided are said.
    expect(after.flagged.find((row) => row.code === ring)).toMatchObject({ referrals: 4, fromOneNetwork: 6 });
    expect(after.clusters?.find((row) => row.code === ring)).toMatchObject({ total: 6, byNetwork: [6] });
    const voided = after.voided!;
    expect(voided.find((row) => row.code === ring)).toEqual({ code: ring, total: 2, fromOneNetwork: 2 });
    expect(voided.map((row) => row.code)).toEqual(after.flagged.map((row) => row.code));
  });
});

describe("the rules of the clusters", () => {
  it("inboxes look alike when the same domain's local parts differ only by digits, a +tag or a separator before them", () => {
    expect(new Set(["kid1@x.org", "kid.2@x.org", "kid+3@x.org", "KID44@X.org", "kid_5@x.org", "kid@x.org"].map(inboxStem))).toEqual(
      new Set(["kid@x.org"]),
    );
    expect(inboxStem("anna@x.org")).not.toBe(inboxStem("annb@x.org"));
    expect(inboxStem("kid1@x.org")).not.toBe(inboxStem("kid1@y.org"));
    expect(inboxStem("k1d@x.org")).toBe("kd@x.org");
  });

  it("counts per network, the most within an hour and a day (both ends included), and reads mixed signs as neither", () => {
    const at = (hours: number) => new Date(Date.UTC(2026, 10, 28) + hours * 3_600_000).toISOString();
    const rows = [
      { network: "a", confirmedAt: at(0), email: "kid1@x.org" },
      { network: "a", confirmedAt: at(1), email: "kid2@x.org" },
      { network: "b", confirmedAt: at(1.5), email: "ann@y.org" },
      { network: null, confirmedAt: at(24), email: "bob@y.org" },
    ];
    expect(clustersOf(rows)).toEqual({
      total: 4,
      byNetwork: [2, 1],
      withinHour: 2,
      withinDay: 4,
      spanHours: 24,
      domains: 2,
      lookAlike: 2,
      reading: "group",
    });
    // A burst of varied names: one sign, not both: look closer.
    expect(
      clustersOf(rows.slice(0, 3).map((row, i) => ({ ...row, confirmedAt: at(i / 10), email: `${["ann", "bob", "cy"][i]}@x.org` })))
        .reading,
    ).toBeNull();
    expect(clustersOf([])).toMatchObject({ total: 0, withinHour: 0, spanHours: 0, lookAlike: 0 });
  });

  it("counts the voided of them all and of the network with the most (the flag's), whatever the driver's truth value", () => {
    const row = (network: string | null, voided: number | boolean) => ({
      network,
      confirmedAt: "2026-11-28T10:00:00.000Z",
      email: "k@x.org",
      voided,
    });
    expect(voidedOf([row("a", 1), row("a", 0), row("a", 0), row("b", true), row("b", true), row(null, 1)])).toEqual({
      total: 4,
      fromOneNetwork: 1,
    });
    expect(voidedOf([])).toEqual({ total: 0, fromOneNetwork: 0 });
  });
});
