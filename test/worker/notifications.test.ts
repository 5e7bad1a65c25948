import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../worker/index";
import { readConfig } from "../../worker/platform/config/config";
import { createDeps } from "../../worker/deps";
import { runOutbox } from "../../worker/features/notifications/outbox";
import { nextAttemptAt } from "../../worker/platform/mail/outbox";
import { fakeProvider, PROVIDER_ENV, PROVIDER_URL } from "../support/fake-provider";
import { call, postJson, testRepository, uniqueEmail, testEnv } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

const repo = testRepository();

let logged: Array<Record<string, unknown>> = [];
beforeEach(() => {
  logged = [];
  const capture = (...args: unknown[]) => {
    try {
      logged.push(JSON.parse(String(args[0])));
    } catch {
      // not one of our structured lines
    }
  };
  vi.spyOn(console, "error").mockImplementation(capture);
  vi.spyOn(console, "warn").mockImplementation(capture);
  vi.spyOn(console, "log").mockImplementation(capture);
});

/** Runs the worker's Cron Trigger handler and waits for it. */
async function runCron(overrides: Record<string, unknown> = {}) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), testEnv(overrides), ctx);
  await waitOnExecutionContext(ctx);
}

/** Makes every undelivered notification due now, as if its backoff had passed. */
async function backoffElapsed() {
  await env.DB.prepare("update hwh_waitlist set notify_next_attempt_at = '2000-01-01T00:00:00.000Z' where email_sent = 0").run();
  await env.DB.prepare("update hwh_form_submissions set notify_next_attempt_at = '2000-01-01T00:00:00.000Z' where email_sent = 0").run();
}

describe("provider transport contract", () => {
  it("POSTs {model, inputs:{receivers, title, body_html, project_id}} with the bearer token; success marks the entry sent", async () => {
    const provider = fakeProvider("success");
    const email = uniqueEmail();
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, PROVIDER_ENV)).status).toBe(201);

    expect(provider.calls).toHaveLength(1);
    const [sent] = provider.calls;
    expect(sent!.url).toBe(PROVIDER_URL);
    expect(sent!.method).toBe("POST");
    expect(sent!.headers.get("authorization")).toBe("Bearer test-provider-token");
    expect(sent!.headers.get("content-type")).toBe("application/json");
    expect(sent!.body).toEqual({
      model: "email-model",
      inputs: {
        receivers: ["team@example.com"],
        title: "New Waitlist Submission",
        body_html: expect.stringContaining(email),
        project_id: "project-123",
      },
    });
    const entry = await repo.findWaitlistEntry(email);
    expect(entry).toMatchObject({ emailSent: true, notifyAttempts: 1, notifyLastError: null });
    expect(entry!.emailSentAt).not.toBeNull();
  });

  it.each([
    ["an `error` field", "error-field", /provider error/],
    ["HTTP 500", "http-500", /HTTP 500/],
    ["a send_email_status other than 'success'", "unexpected-status", /send_email_status is "queued"/],
    ["no answer within the timeout", "hang", /did not answer within 100 ms/],
  ] as const)("treats %s as a failure: logged, visitor unaffected, entry kept undelivered", async (_name, mode, error) => {
    fakeProvider(mode);
    const email = uniqueEmail();
    const res = await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, PROVIDER_ENV);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ email });

    const entry = await repo.findWaitlistEntry(email);
    expect(entry).toMatchObject({ emailSent: false, emailSentAt: null, notifyAttempts: 1 });
    expect(entry!.notifyLastError).toMatch(error);
    expect(entry!.notifyNextAttemptAt! > entry!.createdAt).toBe(true);
    expect(logged).toContainEqual(
      expect.objectContaining({ level: "error", event: "notification.failed", kind: "waitlist", id: entry!.id }),
    );
  });

  it("never logs or stores what the provider quotes back of the message (addresses, text)", async () => {
    fakeProvider("echo-error");
    const email = uniqueEmail("quoted");
    await postJson("/api/forms/contact", { name: "Ada", email, message: "my secret homework" }, PROVIDER_ENV);
    expect(JSON.stringify(logged)).not.toContain(email);
    expect(JSON.stringify(logged)).not.toContain("secret homework");
    expect(logged).toContainEqual(
      expect.objectContaining({ event: "notification.failed", error: "MailDeliveryError: provider answered HTTP 400" }),
    );
    const stored = await env.DB.prepare("select notify_last_error from hwh_form_submissions where form_data like ?")
      .bind(`%${email}%`)
      .first<{ notify_last_error: string }>();
    expect(stored!.notify_last_error).toBe("MailDeliveryError: provider answered HTTP 400");
  });

  it("escapes every submitted value in body_html", async () => {
    const provider = fakeProvider("success");
    const res = await postJson(
      "/api/forms/contact",
      { name: "Mallory <b>", email: uniqueEmail(), message: "<script>alert('x')</script> & \"more\"" },
      PROVIDER_ENV,
    );
    expect(res.status).toBe(201);
    const html: string = provider.calls[0]!.body.inputs.body_html;
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;more&quot;");
    expect(provider.calls[0]!.body.inputs.title).toBe("[Contact Form] New submission");
  });

  it("sends the configured template id when one is set", async () => {
    const provider = fakeProvider("success");
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email: uniqueEmail() }, { ...PROVIDER_ENV, MAIL_TEMPLATE_WAITLIST: "tpl-waitlist" });
    expect(provider.calls[0]!.body.inputs.template_id).toBe("tpl-waitlist");
  });
});

describe("scheduled retry", () => {
  it("delivers on a later cron run what failed when the visitor joined", async () => {
    const provider = fakeProvider("http-500");
    const email = uniqueEmail("retry");
    const name = `Retry ${email}`;
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, PROVIDER_ENV);
    await postJson("/api/forms/contact", { name, email, message: "Hello" }, PROVIDER_ENV);
    expect((await repo.findWaitlistEntry(email))!.emailSent).toBe(false);

    // Before the backoff has passed, the cron leaves them alone.
    provider.setMode("success");
    const callsBefore = provider.calls.length;
    await runCron(PROVIDER_ENV);
    expect(provider.calls.length).toBe(callsBefore);

    await backoffElapsed();
    await runCron(PROVIDER_ENV);
    const entry = await repo.findWaitlistEntry(email);
    expect(entry).toMatchObject({ emailSent: true, notifyAttempts: 2, notifyLastError: null, notifyNextAttemptAt: null });
    const retried = provider.calls.slice(callsBefore).map((c) => c.body.inputs.title);
    expect(retried).toContain("New Waitlist Submission");
    expect(retried).toContain("[Contact Form] New submission");
    const submission = (await env.DB.prepare("select email_sent from hwh_form_submissions where form_data like ?")
      .bind(`%${email}%`)
      .first<{ email_sent: number }>())!;
    expect(submission.email_sent).toBe(1);

    // Delivered notifications are never sent again.
    await backoffElapsed();
    const callsAfter = provider.calls.length;
    await runCron(PROVIDER_ENV);
    expect(provider.calls.slice(callsAfter).filter((c) => c.body.inputs.body_html.includes(email))).toHaveLength(0);
  });

  it("backs off exponentially, then keeps retrying at the longest interval until delivered: never gives up", async () => {
    const provider = fakeProvider("http-500");
    const email = uniqueEmail("cap");
    const settings = { ...PROVIDER_ENV, NOTIFY_MAX_ATTEMPTS: "3", NOTIFY_RETRY_MAX_SECONDS: "3600" };
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, settings);

    let clock = new Date();
    const deps = () => createDeps(testEnv(settings), () => clock);
    // The cron re-queues on `clock`; the mail queue's consumer sends on the same clock.
    const cron = async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(clock);
      await runOutbox(deps());
    };
    const first = (await repo.findWaitlistEntry(email))!;
    const firstWait = Date.parse(first.notifyNextAttemptAt!) - Date.parse(first.updatedAt);
    expect(firstWait).toBeGreaterThanOrEqual(299_000);
    expect(firstWait).toBeLessThanOrEqual(301_000);

    clock = new Date(Date.parse(first.notifyNextAttemptAt!) + 1);
    await cron();
    const second = (await repo.findWaitlistEntry(email))!;
    expect(second.notifyAttempts).toBe(2);
    expect(Date.parse(second.notifyNextAttemptAt!) - clock.getTime()).toBe(600_000);

    // The attempt cap reached: the longest interval (NOTIFY_RETRY_MAX_SECONDS), again and again.
    for (const attempt of [3, 4, 5]) {
      clock = new Date(Date.parse((await repo.findWaitlistEntry(email))!.notifyNextAttemptAt!) + 1);
      await cron();
      const entry = (await repo.findWaitlistEntry(email))!;
      expect(entry).toMatchObject({ notifyAttempts: attempt, emailSent: false });
      expect(Date.parse(entry.notifyNextAttemptAt!) - clock.getTime()).toBe(3_600_000);
    }

    // The provider is back, months later: delivered.
    provider.setMode("success");
    clock = new Date(clock.getTime() + 90 * 86_400_000);
    await cron();
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ emailSent: true, notifyAttempts: 6, notifyNextAttemptAt: null });
  });

  it("computes the backoff as base x 2^(attempt-1), capped at six hours, and six hours after the attempt cap", () => {
    const notify = readConfig({ NOTIFY_RETRY_BASE_SECONDS: "300", NOTIFY_MAX_ATTEMPTS: "20" }).notify;
    const now = new Date("2026-01-01T00:00:00.000Z");
    const waits = [1, 2, 3, 4, 5, 6, 7, 8, 20, 50].map((n) => (nextAttemptAt(n, now, notify).getTime() - now.getTime()) / 1000);
    expect(waits).toEqual([300, 600, 1200, 2400, 4800, 9600, 19200, 21600, 21600, 21600]);
    const short = readConfig({ NOTIFY_RETRY_BASE_SECONDS: "60", NOTIFY_MAX_ATTEMPTS: "2", NOTIFY_RETRY_MAX_SECONDS: "90" }).notify;
    expect([1, 2, 3].map((n) => (nextAttemptAt(n, now, short).getTime() - now.getTime()) / 1000)).toEqual([60, 90, 90]);
  });

  it("in production without a token, fails loudly and keeps the entry for retry", async () => {
    const email = uniqueEmail("prod");
    const res = await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, { ENVIRONMENT: "production" });
    expect(res.status).toBe(201);
    const entry = await repo.findWaitlistEntry(email);
    expect(entry).toMatchObject({ emailSent: false, notifyAttempts: 1 });
    expect(entry!.notifyLastError).toMatch(/MAIL_PROVIDER_TOKEN is not set/);
    expect(logged).toContainEqual(expect.objectContaining({ level: "error", event: "notification.failed", transport: "unconfigured" }));
  });
});

describe("a re-join while the notification is undelivered", () => {
  it("keeps the first join's attribution: a stranger's re-join only fills in what was empty", async () => {
    const provider = fakeProvider("http-500");
    const email = uniqueEmail("rejoin");
    const firstJoin = { ...ADULT_ANSWER, email, source: "hero", utm_source: "newsletter", utm_campaign: "launch" };
    expect((await postJson("/api/waitlist", firstJoin, PROVIDER_ENV)).status).toBe(201);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ emailSent: false, notifyLastError: expect.stringContaining("HTTP 500") });

    const rewrite = {
      ...ADULT_ANSWER,
      email,
      source: "cta",
      utm_source: "attacker",
      utm_medium: "spoofed",
      utm_campaign: "rewritten",
      referrer_host: "evil.example",
    };
    expect((await postJson("/api/waitlist", rewrite, PROVIDER_ENV)).status).toBe(201);
    // The re-join was taken as a join (its notification tried again), and changed only what was empty.
    expect(provider.calls.filter((call) => call.body.inputs.body_html.includes(email))).toHaveLength(2);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({
      emailSent: false,
      source: "hero",
      utmSource: "newsletter",
      utmMedium: "spoofed",
      utmCampaign: "launch",
      referrerHost: "evil.example",
    });
  });
});

describe("without COMPANY_EMAIL", () => {
  it("sends nothing to no one: the notification stays undelivered with the reason, and goes out once the address is set", async () => {
    const provider = fakeProvider("success");
    const email = uniqueEmail("no-company");
    const unset = { ...PROVIDER_ENV, COMPANY_EMAIL: "" };
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, unset)).status).toBe(201);
    expect(provider.calls).toHaveLength(0);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({
      emailSent: false,
      emailSentAt: null,
      notifyAttempts: 1,
      notifyLastError: "Error: COMPANY_EMAIL is not set",
    });
    expect(logged).toContainEqual(expect.objectContaining({ level: "error", event: "notification.failed", kind: "waitlist" }));

    // The cron's retry is held back the same way while the setting is empty.
    await backoffElapsed();
    await runCron(unset);
    expect(provider.calls.filter((c) => c.body.inputs.body_html.includes(email))).toHaveLength(0);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ emailSent: false, notifyAttempts: 2 });

    await backoffElapsed();
    await runCron(PROVIDER_ENV);
    const delivered = provider.calls.filter((c) => c.body.inputs.body_html.includes(email));
    expect(delivered.map((c) => c.body.inputs.receivers)).toEqual([["team@example.com"]]);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ emailSent: true, notifyLastError: null });
  });
});

describe("dev mailbox", () => {
  it("shows every e-mail newest first, as a page and as JSON", async () => {
    const older = uniqueEmail("older");
    const newer = uniqueEmail("newer");
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email: older });
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email: newer });

    const json = await call("/dev/mailbox?format=json");
    expect(json.status).toBe(200);
    const { messages } = await json.json<{ messages: Array<{ body_html: string; title: string }> }>();
    const newerAt = messages.findIndex((m) => m.body_html.includes(newer));
    const olderAt = messages.findIndex((m) => m.body_html.includes(older));
    expect(newerAt).toBeGreaterThanOrEqual(0);
    expect(newerAt).toBeLessThan(olderAt);

    const page = await call("/dev/mailbox");
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    const html = await page.text();
    expect(html.indexOf(newer)).toBeLessThan(html.indexOf(older));
    expect(html).toContain("<iframe sandbox");
    // The log says an e-mail was kept, never to whom or what it says.
    expect(logged).toContainEqual(expect.objectContaining({ event: "mail.dev_mailbox", receivers: 1 }));
    expect(JSON.stringify(logged)).not.toContain(newer);
  });

  it("keeps a visitor's markup inert in the mailbox page", async () => {
    await postJson("/api/forms/contact", { name: "Eve", email: uniqueEmail(), message: "<script>alert(1)</script>" });
    const html = await (await call("/dev/mailbox")).text();
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).not.toContain("&lt;script&gt;alert(1)");
    expect(html).toContain("&amp;lt;script&amp;gt;alert(1)");
  });

  it.each([["production"], ["Production"], ["staging"], ["development "], [""], [undefined]])(
    "exists only for ENVIRONMENT exactly 'development': not for %j",
    async (environment) => {
      const res = await call("/dev/mailbox?format=json", {}, { ENVIRONMENT: environment });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: "not_found" } });
      // Nor does its transport: a join stores the entry, and the e-mail is not kept anywhere.
      const email = uniqueEmail("closed");
      expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, { ENVIRONMENT: environment })).status).toBe(201);
      expect(await repo.findWaitlistEntry(email)).toMatchObject({
        emailSent: false,
        notifyLastError: expect.stringMatching(/MAIL_PROVIDER_TOKEN/),
      });
      expect((await repo.devMail.list(200)).some((mail) => mail.bodyHtml.includes(email))).toBe(false);
    },
  );

  it("is never cached", async () => {
    const res = await call("/dev/mailbox");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});
