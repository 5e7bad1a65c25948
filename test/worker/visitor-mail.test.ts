import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createDeps } from "../../worker/deps";
import { joinConfirmed, leaveWaitlist, resendConfirmation, runJoinerOutbox, visitorMailOf } from "../../worker/features/waitlist";
import type { AdminStats } from "../../worker/shared/admin";
import { ADMIN_KEY } from "../support/auth";
import { fakeProvider, PROVIDER_ENV } from "../support/fake-provider";
import { call, postJson, testRepository, uniqueEmail, testEnv } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

/**
 * Issue 22: e-mail to visitors had no budget, and only confirmations counted against an
 * address's daily cap. Welcomes now count too (WAITLIST_CONFIRM_DAILY_LIMIT), and the joiner's
 * e-mails (confirmations and welcomes) have a daily budget (VISITOR_EMAIL_DAILY_BUDGET): past it
 * joins still succeed, the e-mail waits in the outbox, the cron sends it oldest first once the
 * budget allows, and the console's stats say so.
 *
 * The requests run on the real clock: the worker tests share one runtime, so a clock moved days
 * ahead here would be every file's clock. Later days are given to the cron and the mail queue's
 * consumer only (the system clock, faked for the test and restored after it).
 */

const repo = testRepository();
const DAY = 86_400_000;

// Today's counters are what these tests count: never start one in the last half minute of a UTC
// day (the wait, at most 31 s, has a timeout of its own above it).
beforeEach(async () => {
  const left = DAY - (Date.now() % DAY);
  if (left < 30_000) await new Promise((resolve) => setTimeout(resolve, left + 1_000));
}, 40_000);

const mailsTo = async (email: string) => (await repo.devMail.list(1000)).filter((mail) => mail.receivers.includes(email));

/** GET /api/admin/stats's visitorMail, today. */
async function visitorMail(overrides: Record<string, string>): Promise<AdminStats["visitorMail"]> {
  const response = await call("/api/admin/stats", { headers: { Authorization: `Bearer ${ADMIN_KEY}` } }, overrides);
  expect(response.status).toBe(200);
  return ((await response.json()) as AdminStats).visitorMail;
}

describe("the per-address daily cap counts welcomes (issue 22)", () => {
  it("twenty one-click join and leave rounds send WAITLIST_CONFIRM_DAILY_LIMIT (3) welcomes, and every join is still confirmed", async () => {
    const deps = createDeps(env);
    const email = uniqueEmail("welcome-rounds");
    for (let round = 0; round < 20; round++) {
      expect(await joinConfirmed(deps, email)).toBe("joined");
      expect((await repo.findWaitlistEntry(email))!.confirmedAt).not.toBeNull();
      expect(await leaveWaitlist(deps, email)).toBe(true);
    }
    expect(await mailsTo(email)).toHaveLength(3);
  });

  it("confirmations and welcomes share the cap: after a join and two resends, a one-click join confirms without a welcome", async () => {
    const deps = createDeps(env);
    const email = uniqueEmail("shared-cap");
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email })).status).toBe(201);
    expect(await resendConfirmation(deps, email)).toEqual({ sent: true });
    expect(await resendConfirmation(deps, email)).toEqual({ sent: true });
    expect(await joinConfirmed(deps, email)).toBe("joined");
    const titles = (await mailsTo(email)).map((mail) => mail.title);
    expect(titles).toHaveLength(3);
    expect(titles.every((title) => title.startsWith("Confirm your place"))).toBe(true);
  });
});

describe("the daily budget of e-mail to visitors, VISITOR_EMAIL_DAILY_BUDGET (issue 22)", () => {
  // Before the test that gives the cron later days: that one moves the day's counter on.
  it("a send the transport refused gives its share of the budget back, and waits for its retry", async () => {
    fakeProvider("http-500");
    const settings = { ...PROVIDER_ENV, VISITOR_EMAIL_DAILY_BUDGET: "1000" };
    const before = await visitorMail(settings);
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email: uniqueEmail("budget-failed") }, settings)).status).toBe(201);
    expect(await visitorMail(settings)).toEqual({ budget: 1000, sentToday: before.sentToday, waiting: before.waiting + 1 });
  });

  it("past it joins still succeed and their e-mails wait; the console says so; the cron sends them oldest first as the budget allows", async () => {
    // The budget these five joins meet: what this file sent today so far, plus two.
    const before = await visitorMail({});
    const budget = (n: number) => ({ VISITOR_EMAIL_DAILY_BUDGET: String(n) });
    const settings = budget(before.sentToday + 2);
    const emails = [1, 2, 3, 4, 5].map((n) => uniqueEmail(`budget-${n}`));
    for (const email of emails) expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, settings)).status).toBe(201);
    const sent = async () => (await Promise.all(emails.map(mailsTo))).map((mails) => mails.length);
    expect(await sent()).toEqual([1, 1, 0, 0, 0]);
    expect(await visitorMail(settings)).toEqual({
      budget: before.sentToday + 2,
      sentToday: before.sentToday + 2,
      waiting: before.waiting + 3,
    });
    // Their entries are stored as any join's: the e-mail only waits.
    for (const email of emails) expect(await repo.findWaitlistEntry(email)).toBeDefined();

    // The same day's cron sends nothing: the budget is spent.
    // The cron re-queues on that day's clock, and the mail queue's consumer sends on the same one.
    const at = (time: number, limit: Record<string, string>) => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(time);
      return createDeps(testEnv(limit), () => new Date(time));
    };
    expect(await runJoinerOutbox(at(Date.now(), settings))).toMatchObject({ queued: 0 });
    expect(await sent()).toEqual([1, 1, 0, 0, 0]);

    // The next day, with a budget of two more than what waited before (the refused send above,
    // older, goes first), the two oldest of these go; the day after, the last.
    const today = Date.now() - (Date.now() % DAY);
    const nextDay = budget(before.waiting + 2);
    expect(await runJoinerOutbox(at(today + DAY + 60_000, nextDay))).toMatchObject({ queued: before.waiting + 2 });
    expect(await sent()).toEqual([1, 1, 1, 1, 0]);
    expect(await visitorMailOf(at(today + DAY + 120_000, nextDay))).toEqual({
      budget: before.waiting + 2,
      sentToday: before.waiting + 2,
      waiting: 1,
    });
    expect(await runJoinerOutbox(at(today + 2 * DAY + 60_000, nextDay))).toMatchObject({ queued: 1 });
    expect(await sent()).toEqual([1, 1, 1, 1, 1]);
    expect(await visitorMailOf(at(today + 2 * DAY + 120_000, nextDay))).toMatchObject({ sentToday: 1, waiting: 0 });
  });
});
