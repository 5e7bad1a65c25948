// Issue 23: the retention schedule (worker/features/retention/), enforced by the cron: what it
// names goes once past its days (RETENTION_* settings), counted per kind and UTC day; nothing
// else is touched.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { createDeps } from "../../worker/deps";
import worker from "../../worker/index";
import { BATCH, runRetention } from "../../worker/features/retention";
import { auditLog, formSubmissions, joinerMail, retentionDeletions, waitlist } from "../../worker/platform/db/schema";
import type { AdminStats } from "../../worker/shared/admin";
import { ADMIN_KEY, json } from "../support/campaign-api";
import { call, testRepository, uniqueEmail } from "../support/worker";

const repo = testRepository();
const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const today = () => new Date().toISOString().slice(0, 10);
const counts = async () =>
  Object.fromEntries((await repo.rowsOf(retentionDeletions)).filter((row) => row.day === today()).map((row) => [row.kind, row.count]));

async function runCron(overrides: Partial<Record<keyof Env, string>> = {}): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }),
    { ...env, ...overrides } as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

beforeEach(async () => {
  await env.DB.batch(
    ["hwh_waitlist", "hwh_joiner_mail", "hwh_form_submissions", "hwh_retention_deletions", "hwh_audit_log"].map((table) =>
      env.DB.prepare(`delete from ${table}`),
    ),
  );
});

describe("the retention schedule, run by the cron", () => {
  it("deletes what is past its days, counts each kind for today, and keeps confirmed entries, newer rows and the audit log", async () => {
    const [old, recent, confirmed, referred] = [
      uniqueEmail("old"),
      uniqueEmail("recent"),
      uniqueEmail("confirmed"),
      uniqueEmail("referred"),
    ];
    await repo.seed(waitlist, [
      { email: old, createdAt: ago(31 * DAY), updatedAt: ago(31 * DAY), emailSent: true },
      { email: recent, createdAt: ago(29 * DAY), updatedAt: ago(29 * DAY), emailSent: true },
      {
        email: confirmed,
        createdAt: ago(900 * DAY),
        updatedAt: ago(900 * DAY),
        emailSent: true,
        confirmedAt: ago(900 * DAY),
        confirmSeq: 1,
        rankKey: 1,
      },
      {
        email: referred,
        createdAt: ago(40 * DAY),
        updatedAt: ago(40 * DAY),
        emailSent: true,
        confirmedAt: ago(40 * DAY),
        confirmSeq: 2,
        rankKey: 2,
        referredBy: "REFERRER",
        referralNetwork: "network-hash",
      },
    ]);
    await repo.seed(joinerMail, [{ entryId: (await repo.findWaitlistEntry(old))!.id, kind: "confirm", createdAt: ago(31 * DAY) }]);
    const message = { name: "A", email: "a@example.org", message: "hello" };
    const kept = ago(364 * DAY);
    await repo.seed(formSubmissions, [
      { formName: "Contact Form", formData: message, createdAt: ago(366 * DAY), emailSent: true },
      { formName: "Contact Form", formData: message, createdAt: kept, emailSent: true },
    ]);
    await repo.seed(auditLog, [{ action: "person.erased", operator: "ops@example.org", details: {}, createdAt: ago(2000 * DAY) }]);

    await runCron();

    expect((await repo.rowsOf(waitlist)).map((row) => row.email).sort()).toEqual([confirmed, recent, referred].sort());
    expect((await repo.findWaitlistEntry(referred))!.referralNetwork).toBeNull();
    expect(await repo.rowsOf(joinerMail)).toEqual([]);
    expect((await repo.rowsOf(formSubmissions)).map((row) => row.createdAt)).toEqual([kept]);
    expect(await repo.rowsOf(auditLog)).toHaveLength(1);
    expect(await counts()).toEqual({ unconfirmed_entries: 1, referral_networks: 1, contact_messages: 1 });

    // A second run finds nothing more and counts nothing more.
    await runCron();
    expect(await counts()).toEqual({ unconfirmed_entries: 1, referral_networks: 1, contact_messages: 1 });
  });

  it("follows the settings: a shorter schedule deletes sooner", async () => {
    const email = uniqueEmail("week-old");
    // Its team notification delivered: the cron's outbox moves updated_at when it delivers one.
    await repo.seed(waitlist, [{ email, createdAt: ago(6 * DAY), updatedAt: ago(6 * DAY), emailSent: true }]);
    await runCron();
    expect(await repo.findWaitlistEntry(email)).toBeDefined();
    await runCron({ RETENTION_UNCONFIRMED_DAYS: "5" });
    expect(await repo.findWaitlistEntry(email)).toBeUndefined();
    expect(await counts()).toEqual({ unconfirmed_entries: 1 });
  });

  it("takes at most one batch of each kind per run: a backlog goes over the next runs", async () => {
    // One statement (D1 binds at most 100 values per statement): BATCH + 3 messages of 400 days ago.
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       insert into hwh_form_submissions (form_name, form_data, created_at) select 'Contact Form', '{}', ? from n`,
    )
      .bind(BATCH + 3, ago(400 * DAY))
      .run();
    const deps = createDeps(env);
    expect((await runRetention(deps)).contact_messages).toBe(BATCH);
    expect((await runRetention(deps)).contact_messages).toBe(3);
    expect(await repo.rowsOf(formSubmissions)).toEqual([]);
    expect(await counts()).toEqual({ contact_messages: BATCH + 3 });
  });
});

describe("the console's retention line (GET /api/admin/stats)", () => {
  const stats = async (overrides: Partial<Record<keyof Env, string>> = {}) =>
    (await json<AdminStats>(await call("/api/admin/stats", { headers: { Authorization: `Bearer ${ADMIN_KEY}` } }, overrides))).retention;

  it("gives the schedule in force, what went today and in the last 30 days per kind, and the last day anything went", async () => {
    expect(await stats()).toEqual({
      schedule: { unconfirmed_entries: 30, referral_networks: 30, contact_messages: 365, parental_requests: 7 },
      today: { unconfirmed_entries: 0, referral_networks: 0, contact_messages: 0, parental_requests: 0 },
      lastDays: { unconfirmed_entries: 0, referral_networks: 0, contact_messages: 0, parental_requests: 0 },
      lastDeletionDay: null,
    });
    const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);
    await repo.seed(retentionDeletions, [
      { day: daysAgo(40), kind: "contact_messages", count: 50 },
      { day: daysAgo(3), kind: "contact_messages", count: 4 },
      { day: daysAgo(3), kind: "unconfirmed_entries", count: 2 },
    ]);
    await repo.seed(waitlist, [{ email: uniqueEmail("old"), createdAt: ago(31 * DAY), updatedAt: ago(31 * DAY), emailSent: true }]);
    await runCron();
    expect(await stats({ RETENTION_CONTACT_DAYS: "90" })).toEqual({
      schedule: { unconfirmed_entries: 30, referral_networks: 30, contact_messages: 90, parental_requests: 7 },
      today: { unconfirmed_entries: 1, referral_networks: 0, contact_messages: 0, parental_requests: 0 },
      lastDays: { unconfirmed_entries: 3, referral_networks: 0, contact_messages: 4, parental_requests: 0 },
      lastDeletionDay: today(),
    });
  });
});
