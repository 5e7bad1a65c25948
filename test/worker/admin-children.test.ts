import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { AGE_FIELDS, type AdminPage, type AdminStats, type AdminWaitlistEntry, type PersonRecord } from "../../worker/shared/admin";
import { call, uniqueEmail } from "../support/worker";

/**
 * The console's part of issue 23 (§6): the waitlist by age band, the parental requests' figures,
 * the age columns of the list and the CSV, and the consent record of the operator's look-up. Rows
 * are stored directly with migration 0014's columns (the join and the parent's answer have tests
 * of their own), so these tests hold whatever way they are made.
 */

const ADMIN_KEY = "test-admin-key-0123456789abcdef-0123456789";
const OPERATORS = { OPERATOR_EMAILS: "operator@example.com" };

function admin(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${ADMIN_KEY}`);
  return call(`/api/admin${path}`, { ...init, headers }, OPERATORS);
}

async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const stats = async () => json<AdminStats>(await admin("/stats"));
const DAY_MS = 86_400_000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

type Entry = {
  email?: string;
  band?: string;
  country?: string | null;
  onBehalf?: boolean;
  consentAt?: string | null;
  confirmedAt?: string | null;
};

/** One waitlist entry stored as the join (or a parent's agreement) stores it; confirmed entries get the next place. Its address. */
async function storeEntry(entry: Entry = {}): Promise<string> {
  const email = entry.email ?? uniqueEmail("ages");
  const at = new Date().toISOString();
  const confirmedAt = entry.confirmedAt === undefined ? null : entry.confirmedAt;
  const columns = "email, created_at, updated_at, country, on_behalf_of_child, parental_consent_at, confirmed_at, mailbox_key";
  const values = [email, at, at, entry.country ?? null, entry.onBehalf ? 1 : 0, entry.consentAt ?? null, confirmedAt, crypto.randomUUID()];
  // Without a band the column's default ("unknown"), as for entries made before the question.
  const band = entry.band === undefined ? [] : [entry.band];
  const seq = confirmedAt === null ? "" : ", confirm_seq, rank_key";
  const seqValues =
    confirmedAt === null
      ? ""
      : ", (select coalesce(max(confirm_seq), 0) + 1 from hwh_waitlist), (select coalesce(max(confirm_seq), 0) + 1 from hwh_waitlist) * 2";
  await env.DB.prepare(
    `insert into hwh_waitlist (${columns}${band.length ? ", age_band" : ""}${seq}) values (${values.map(() => "?").join(", ")}${band.length ? ", ?" : ""}${seqValues})`,
  )
    .bind(...values, ...band)
    .run();
  return email;
}

/** A child's request waiting for a parent's answer: only the parent's address, band, country and time. */
async function storeRequest(parentEmail: string, band = "under_13", createdAt = new Date().toISOString()): Promise<void> {
  await env.DB.prepare(
    "insert into hwh_parental_requests (parent_email, mailbox_key, age_band, country, nonce, created_at) values (?, ?, ?, ?, ?, ?)",
  )
    .bind(parentEmail, crypto.randomUUID(), band, "US", crypto.randomUUID(), createdAt)
    .run();
}

async function countOutcome(dayOf: string, outcome: "agreed" | "declined", n: number): Promise<void> {
  await env.DB.prepare(
    "insert into hwh_parental_outcomes (day, outcome, count) values (?, ?, ?) on conflict (day, outcome) do update set count = count + excluded.count",
  )
    .bind(dayOf, outcome, n)
    .run();
}

async function countExpired(dayOf: string, n: number): Promise<void> {
  await env.DB.prepare(
    "insert into hwh_retention_deletions (day, kind, count) values (?, 'parental_requests', ?) on conflict (day, kind) do update set count = count + excluded.count",
  )
    .bind(dayOf, n)
    .run();
}

describe("GET /api/admin/stats: ages and parents (issue 23)", () => {
  it("counts entries per age band, entries on behalf of a child apart (by the child's band), and 'unknown' for entries made before the question; they add up to the total", async () => {
    const before = await stats();
    await storeEntry({ band: "13_15", country: "US" });
    await storeEntry({ band: "16_17", country: "DE" });
    await storeEntry({ band: "16_17", country: "FR" });
    await storeEntry({ band: "18_plus", country: "GB" });
    await storeEntry({}); // before the question: the column's default
    await storeEntry({ band: "under_13", onBehalf: true, consentAt: new Date().toISOString() });
    await storeEntry({ band: "13_15", country: "DE", onBehalf: true, consentAt: new Date().toISOString() });
    const after = await stats();

    const change = (read: (s: AdminStats) => number) => read(after) - read(before);
    expect(change((s) => s.ages.byBand["13_15"])).toBe(1);
    expect(change((s) => s.ages.byBand["16_17"])).toBe(2);
    expect(change((s) => s.ages.byBand["18_plus"])).toBe(1);
    expect(change((s) => s.ages.byBand.unknown)).toBe(1);
    // Under 13 never joins on its own: only a parent's entry on behalf of a child is counted.
    expect(after.ages.byBand.under_13).toBe(0);
    expect(change((s) => s.ages.onBehalfOfChild.total)).toBe(2);
    expect(change((s) => s.ages.onBehalfOfChild.byBand.under_13)).toBe(1);
    expect(change((s) => s.ages.onBehalfOfChild.byBand["13_15"])).toBe(1);
    const own = Object.values(after.ages.byBand).reduce((sum, n) => sum + n, 0);
    expect(own + after.ages.onBehalfOfChild.total).toBe(after.waitlist.total);
  });

  it("counts the parental requests pending (rows waiting for an answer), never as waitlist entries", async () => {
    const before = await stats();
    const oldest = new Date(Date.now() - 3 * DAY_MS).toISOString();
    await storeRequest(uniqueEmail("parent"), "under_13", oldest);
    await storeRequest(uniqueEmail("parent"), "13_15");
    const after = await stats();
    expect(after.parents.pending - before.parents.pending).toBe(2);
    expect(after.parents.oldestPendingAt! <= oldest).toBe(true);
    expect(after.waitlist.total).toBe(before.waitlist.total);
    expect(after.funnel.joined).toBe(before.funnel.joined);
  });

  it("sums agreed and declined (hwh_parental_outcomes) and expired (the retention cron's 'parental_requests' deletions) today and over the stats' days, as the retention line does", async () => {
    const before = await stats();
    await countOutcome(day(0), "agreed", 3);
    await countOutcome(day(0), "declined", 1);
    await countOutcome(day(5), "agreed", 2);
    await countOutcome(day(29), "declined", 4);
    await countOutcome(day(45), "agreed", 100); // before the stats' days: not counted
    await countExpired(day(0), 2);
    await countExpired(day(12), 5);
    await countExpired(day(60), 50);
    const after = await stats();
    const change = (read: (s: AdminStats) => number) => read(after) - read(before);
    expect(change((s) => s.parents.today.agreed)).toBe(3);
    expect(change((s) => s.parents.today.declined)).toBe(1);
    expect(change((s) => s.parents.today.expired)).toBe(2);
    expect(change((s) => s.parents.lastDays.agreed)).toBe(5);
    expect(change((s) => s.parents.lastDays.declined)).toBe(5);
    expect(change((s) => s.parents.lastDays.expired)).toBe(7);
    // The retention line counts the same deletions under its kind "parental_requests".
    expect(change((s) => s.retention.today.parental_requests)).toBe(2);
    expect(change((s) => s.retention.lastDays.parental_requests)).toBe(7);
  });
});

describe("the waitlist list, CSV and look-up: age band, country, on behalf of a child (issue 23)", () => {
  it("the list gives each entry's age_band, country and on_behalf_of_child", async () => {
    const teen = await storeEntry({ band: "16_17", country: "DE" });
    const old = await storeEntry({});
    const parent = await storeEntry({ band: "under_13", country: "US", onBehalf: true, consentAt: "2026-12-01T10:00:00.000Z" });
    const listed = async (email: string) =>
      (await json<AdminPage<AdminWaitlistEntry>>(await admin(`/waitlist?q=${encodeURIComponent(email)}`))).items[0]!;
    expect(await listed(teen)).toMatchObject({ age_band: "16_17", country: "DE", on_behalf_of_child: false });
    expect(await listed(old)).toMatchObject({ age_band: "unknown", country: null, on_behalf_of_child: false });
    expect(await listed(parent)).toMatchObject({ age_band: "under_13", country: "US", on_behalf_of_child: true });
  });

  it("the CSV has age_band, country and on_behalf_of_child columns, and never a pending parental request's address", async () => {
    const teen = await storeEntry({ band: "13_15", country: "FR" });
    const parent = await storeEntry({ band: "under_13", country: "US", onBehalf: true, consentAt: new Date().toISOString() });
    const asked = uniqueEmail("asked-parent");
    await storeRequest(asked);
    const csv = await (await admin("/waitlist.csv")).text();
    const lines = csv.split("\r\n");
    const header = lines[0]!.replace("\uFEFF", "").split(",");
    for (const name of AGE_FIELDS) expect(header).toContain(name);
    const cells = (email: string) => {
      const row = lines.find((line) => line.split(",")[1] === email)!.split(",");
      return AGE_FIELDS.map((name) => row[header.indexOf(name)]);
    };
    expect(cells(teen)).toEqual(["13_15", "FR", "false"]);
    expect(cells(parent)).toEqual(["under_13", "US", "true"]);
    expect(csv).not.toContain(asked);
  });

  it("the look-up gives the age band and the consent record: a parent's agreement for an entry on behalf of a child, the person's own confirmation otherwise", async () => {
    const consentAt = "2026-12-02T08:30:00.000Z";
    const parent = await storeEntry({ band: "13_15", country: "DE", onBehalf: true, consentAt, confirmedAt: consentAt });
    const confirmedAt = "2026-12-03T09:00:00.000Z";
    const adult = await storeEntry({ band: "18_plus", country: "US", confirmedAt });
    const waiting = await storeEntry({ band: "16_17" });
    const lookUp = async (email: string) =>
      json<PersonRecord>(
        await admin("/people/lookup", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email }) }),
      );

    const forChild = await lookUp(parent);
    expect(forChild.waitlist).toMatchObject({ age_band: "13_15", country: "DE", on_behalf_of_child: true });
    expect(forChild.consent).toEqual({ at: consentAt, by: parent, on_behalf_of_child: true });
    expect((await lookUp(adult)).consent).toEqual({ at: confirmedAt, by: adult, on_behalf_of_child: false });
    expect((await lookUp(waiting)).consent).toEqual({ at: null, by: waiting, on_behalf_of_child: false });
    expect((await lookUp(uniqueEmail("nobody"))).consent).toBeNull();
  });
});

describe("a parent's address in the look-up and the erasure (issue 23)", () => {
  const post = (path: string, email: string) =>
    admin(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email }) });

  it("the look-up lists children's requests waiting for the address (never a child's address); the erasure deletes them with the rest", async () => {
    const parent = uniqueEmail("erased-parent");
    const other = uniqueEmail("other-parent");
    await storeEntry({ email: parent, band: "under_13", country: "US", onBehalf: true, consentAt: new Date().toISOString() });
    await storeRequest(parent, "13_15", "2026-12-03T07:00:00.000Z");
    await storeRequest(other);

    const found = await json<PersonRecord>(await post("/people/lookup", parent));
    expect(found.parental_requests).toEqual([{ created_at: "2026-12-03T07:00:00.000Z", age_band: "13_15", country: "US", sent_at: null }]);
    expect(found.waitlist).toMatchObject({ on_behalf_of_child: true });

    expect(await json(await post("/people/erase", parent))).toMatchObject({ waitlist: 1 });
    const left = async (email: string) =>
      (await env.DB.prepare("select count(*) as n from hwh_parental_requests where parent_email = ?").bind(email).first<{ n: number }>())!
        .n;
    expect(await left(parent)).toBe(0);
    expect(await left(other)).toBe(1);
    expect(await json<PersonRecord>(await post("/people/lookup", parent))).toMatchObject({
      waitlist: null,
      consent: null,
      parental_requests: [],
    });
  });
});
