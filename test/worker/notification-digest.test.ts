import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../worker/index";
import { fakeProvider, PROVIDER_ENV } from "../support/fake-provider";
import { postJson, testRepository, uniqueEmail, testEnv } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

/**
 * Issue 8 §1: at most NOTIFY_HOURLY_CAP single notification e-mails per hour; the rest of the
 * hour's go out as one digest per cron run, each record marked sent when its digest is delivered.
 */

const repo = testRepository();

/**
 * A clock of this test's own, in an hour later than any used before (the budget's counter keeps
 * the latest window it has seen), so the hour's budget starts at 0.
 */
const HOUR = 3_600_000;
let hoursUsed = 0;
function freshHour() {
  hoursUsed += 10;
  const start = Math.ceil(Date.now() / HOUR) * HOUR + (1000 + hoursUsed) * HOUR;
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(start + 60_000);
  return start;
}

async function runCron(settings: Record<string, unknown>) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), testEnv(settings), ctx);
  await waitOnExecutionContext(ctx);
}

beforeEach(async () => {
  // The digest lists every pending record of the hour, so each test starts with none but its own:
  // rows another file left behind in the shared runtime (a request still in flight when it ended
  // lands after this file's reset) are marked notified. Full runs saw 15 and 500 such rows.
  await env.DB.batch([
    env.DB.prepare("update hwh_waitlist set email_sent = 1 where email_sent = 0"),
    env.DB.prepare("update hwh_form_submissions set email_sent = 1 where email_sent = 0"),
  ]);
  vi.spyOn(console, "log").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
  vi.spyOn(console, "error").mockImplementation(() => {});
});

describe("hourly cap and digest", () => {
  const CAPPED = { ...PROVIDER_ENV, NOTIFY_HOURLY_CAP: "3" };

  it("sends the first NOTIFY_HOURLY_CAP as single e-mails, then the next cron run sends one digest listing every other, escaped", async () => {
    const start = freshHour();
    const provider = fakeProvider("success");
    const tag = `capped${start}`;
    const emails = Array.from({ length: 6 }, () => uniqueEmail(tag));
    for (const email of emails)
      expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email, source: "hero" }, CAPPED)).status).toBe(201);
    const message = "Line one <b>bold?</b>\nLine two";
    expect((await postJson("/api/forms/contact", { name: "Eve & Co", email: uniqueEmail(tag), message }, CAPPED)).status).toBe(201);

    expect(provider.calls).toHaveLength(3);
    expect(provider.calls.map((call) => call.body.inputs.title)).toEqual(Array(3).fill("New Waitlist Submission"));
    const waiting = await Promise.all(emails.slice(3).map((email) => repo.findWaitlistEntry(email)));
    // Released unsent, due at once, and not counted as an attempt.
    for (const entry of waiting)
      expect(entry).toMatchObject({ emailSent: false, notifyClaim: null, notifyAttempts: 0, notifyNextAttemptAt: null });

    vi.setSystemTime(start + 5 * 60_000);
    await runCron(CAPPED);
    expect(provider.calls).toHaveLength(4);
    const digest = provider.calls[3]!.body.inputs;
    expect(digest.title).toBe("Digest: 3 waitlist signups, 1 form submission");
    expect(digest.receivers).toEqual(["team@example.com"]);
    for (const email of emails.slice(3)) expect(digest.body_html).toContain(email);
    for (const email of emails.slice(0, 3)) expect(digest.body_html).not.toContain(email);
    expect(digest.body_html).toContain("Eve &amp; Co");
    expect(digest.body_html).toContain("Line one &lt;b&gt;bold?&lt;/b&gt;<br>\nLine two");
    expect(digest.body_html).not.toContain("<b>bold");

    for (const email of emails.slice(3)) {
      expect(await repo.findWaitlistEntry(email)).toMatchObject({
        emailSent: true,
        emailSentAt: new Date(start + 5 * 60_000).toISOString(),
        notifyClaim: null,
      });
    }
    // Delivered: the next run sends nothing more.
    vi.setSystemTime(start + 10 * 60_000);
    await runCron(CAPPED);
    expect(provider.calls).toHaveLength(4);
  });

  it("a burst of 150 sign-ups gives the company the cap's single e-mails plus one digest, not 150", async () => {
    const start = freshHour();
    const provider = fakeProvider("success");
    const settings = { ...PROVIDER_ENV, NOTIFY_HOURLY_CAP: "10" };
    const tag = `spike${start}`;
    const emails = Array.from({ length: 150 }, () => uniqueEmail(tag));
    for (let n = 0; n < emails.length; n += 25) {
      const answers = await Promise.all(
        emails.slice(n, n + 25).map((email) => postJson("/api/waitlist", { ...ADULT_ANSWER, email }, settings)),
      );
      expect(answers.every((answer) => answer.status === 201)).toBe(true);
    }
    expect(provider.calls).toHaveLength(10);
    vi.setSystemTime(start + 5 * 60_000);
    await runCron(settings);
    expect(provider.calls).toHaveLength(11);
    expect(provider.calls[10]!.body.inputs.title).toBe("Digest: 140 waitlist signups, 0 form submissions");
    const undelivered = await env.DB.prepare("select count(*) as n from hwh_waitlist where email like ? and email_sent = 0")
      .bind(`${tag}%`)
      .first<{ n: number }>();
    expect(undelivered!.n).toBe(0);
  }, 30_000); // 150 joins through the worker: seconds on a loaded two-core CI machine, not a speed check.

  it("a digest that fails keeps every record it carried, with a backoff, and the next one delivers them", async () => {
    const start = freshHour();
    const provider = fakeProvider("success");
    const settings = { ...PROVIDER_ENV, NOTIFY_HOURLY_CAP: "1" };
    const emails = Array.from({ length: 3 }, () => uniqueEmail("digestfail"));
    for (const email of emails) await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, settings);
    expect(provider.calls).toHaveLength(1);

    provider.setMode("http-500");
    vi.setSystemTime(start + 5 * 60_000);
    await runCron(settings);
    for (const email of emails.slice(1)) {
      const entry = await repo.findWaitlistEntry(email);
      expect(entry).toMatchObject({
        emailSent: false,
        notifyAttempts: 1,
        notifyLastError: "MailDeliveryError: provider answered HTTP 500",
      });
      expect(Date.parse(entry!.notifyNextAttemptAt!)).toBe(start + 10 * 60_000);
    }

    provider.setMode("success");
    vi.setSystemTime(start + 10 * 60_000);
    await runCron(settings);
    expect(provider.calls.at(-1)!.body.inputs.title).toBe("Digest: 2 waitlist signups, 0 form submissions");
    for (const email of emails) expect((await repo.findWaitlistEntry(email))!.emailSent).toBe(true);
  });

  it("the next hour has a fresh budget of single e-mails", async () => {
    const start = freshHour();
    const provider = fakeProvider("success");
    const settings = { ...PROVIDER_ENV, NOTIFY_HOURLY_CAP: "1" };
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email: uniqueEmail("hour") }, settings);
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email: uniqueEmail("hour") }, settings);
    expect(provider.calls).toHaveLength(1);
    vi.setSystemTime(start + HOUR + 1000);
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email: uniqueEmail("hour") }, settings);
    expect(provider.calls).toHaveLength(2);
    expect(provider.calls[1]!.body.inputs.title).toBe("New Waitlist Submission");
  });

  it("NOTIFY_HOURLY_CAP=0 sends digests only", async () => {
    const start = freshHour();
    const provider = fakeProvider("success");
    const settings = { ...PROVIDER_ENV, NOTIFY_HOURLY_CAP: "0" };
    const email = uniqueEmail("digestonly");
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, settings);
    expect(provider.calls).toHaveLength(0);
    vi.setSystemTime(start + 5 * 60_000);
    await runCron(settings);
    expect(provider.calls).toHaveLength(1);
    expect(provider.calls[0]!.body.inputs.title).toMatch(/^Digest: /);
    expect((await repo.findWaitlistEntry(email))!.emailSent).toBe(true);
  });
});

describe("notification text", () => {
  it("a multi-line message keeps its line breaks: escaped, then <br>", async () => {
    const provider = fakeProvider("success");
    await postJson(
      "/api/forms/contact",
      { name: "Ada", email: uniqueEmail(), message: "First line\r\nSecond <line>\n\nFourth" },
      PROVIDER_ENV,
    );
    expect(provider.calls[0]!.body.inputs.body_html).toContain("First line<br>\nSecond &lt;line&gt;<br>\n<br>\nFourth");
  });
});
