import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createDeps } from "../../worker/deps";
import { runOutbox } from "../../worker/features/notifications/outbox";
import { brokenDatabase, call, countRows, postJson, testEnv, testRepository, uniqueEmail } from "../support/worker";
import { fakeProvider, PROVIDER_ENV } from "../support/fake-provider";
import { ADULT_ANSWER } from "../support/age";

const repo = testRepository();

describe("POST /api/waitlist", () => {
  it("stores a new e-mail trimmed and lower-cased and answers 201", async () => {
    const email = uniqueEmail("New");
    const res = await postJson("/api/waitlist", { ...ADULT_ANSWER, email: `  ${email.toUpperCase()}  `, source: "hero" });
    expect(res.status).toBe(201);
    const body = await res.json<{ email: string; joined_at: string }>();
    expect(body.email).toBe(email.toLowerCase());
    const entry = await repo.findWaitlistEntry(email.toLowerCase());
    expect(entry).toMatchObject({ email: email.toLowerCase(), source: "hero" });
    expect(entry!.createdAt).toBe(body.joined_at);
  });

  it("delivers the notification after the response and marks the entry sent (dev mailbox)", async () => {
    const email = uniqueEmail();
    const res = await postJson("/api/waitlist", { ...ADULT_ANSWER, email });
    expect(res.status).toBe(201);
    const entry = await repo.findWaitlistEntry(email);
    expect(entry!.emailSent).toBe(true);
    expect(entry!.emailSentAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(entry!.updatedAt).toBe(entry!.emailSentAt);
    const mails = await repo.devMail.list();
    const mail = mails.find((m) => m.bodyHtml.includes(email));
    expect(mail).toBeDefined();
    expect(mail!.title).toBe("New Waitlist Submission");
    expect(mail!.receivers).toEqual(["team@example.com"]);
    expect(mail!.bodyHtml).toContain("Waitlist Signup");
    expect(mail!.bodyHtml).toContain(entry!.createdAt);
  });

  it("a later delivery sets email_sent, email_sent_at and updated_at to when it was sent (spec §7); created_at stays", async () => {
    const email = uniqueEmail("later");
    const provider = fakeProvider("http-500");
    const joinedAt = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(joinedAt);
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, PROVIDER_ENV)).status).toBe(201);
    const failed = (await repo.findWaitlistEntry(email))!;
    expect(failed).toMatchObject({
      emailSent: false,
      emailSentAt: null,
      createdAt: new Date(joinedAt).toISOString(),
      updatedAt: new Date(joinedAt).toISOString(),
    });

    provider.setMode("success");
    const sentAt = new Date(Date.parse(failed.notifyNextAttemptAt!) + 60_000);
    // The cron re-queues it; the mail queue's consumer sends it (both on the same clock).
    vi.setSystemTime(sentAt);
    await runOutbox(createDeps(testEnv(PROVIDER_ENV)));

    expect(await repo.findWaitlistEntry(email)).toMatchObject({
      emailSent: true,
      emailSentAt: sentAt.toISOString(),
      updatedAt: sentAt.toISOString(),
      createdAt: failed.createdAt,
    });
  });

  it.each([
    ["", "Please enter your email address"],
    ["   ", "Please enter your email address"],
    [undefined, "Please enter your email address"],
    ["plainaddress", "Please enter a valid email address"],
    ["no-at-sign.example.com", "Please enter a valid email address"],
    ["missing@dot", "Please enter a valid email address"],
    ["two@@example.com", "Please enter a valid email address"],
    ["has space@example.com", "Please enter a valid email address"],
    ["@example.com", "Please enter a valid email address"],
    ["user@.com", "Please enter a valid email address"],
    ["user@example.", "Please enter a valid email address"],
    [42, "Please enter a valid email address"],
  ])("rejects %j with the spec's message and stores nothing", async (email, message) => {
    const before = await countRows("hwh_waitlist");
    const res = await postJson("/api/waitlist", email === undefined ? {} : { email });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: "validation_failed", message, field: "email", fields: { email: message } } });
    expect(await countRows("hwh_waitlist")).toBe(before);
  });

  it("answers 409 with the spec's message when the existing entry's e-mail was sent", async () => {
    const email = uniqueEmail();
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email })).status).toBe(201);
    expect((await repo.findWaitlistEntry(email))!.emailSent).toBe(true);
    const before = await repo.findWaitlistEntry(email);

    const res = await postJson("/api/waitlist", { ...ADULT_ANSWER, email: email.toUpperCase() });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: { code: "already_joined", message: "You're already on our waitlist! We'll be in touch soon." },
    });
    expect(await repo.findWaitlistEntry(email)).toEqual(before);
  });

  it("joins again, without a duplicate error, when the existing entry's e-mail was not sent, and retries it", async () => {
    const email = uniqueEmail();
    const provider = fakeProvider("http-500");
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, PROVIDER_ENV)).status).toBe(201);
    const failed = await repo.findWaitlistEntry(email);
    expect(failed).toMatchObject({ emailSent: false, emailSentAt: null, notifyAttempts: 1 });
    expect(failed!.notifyNextAttemptAt).not.toBeNull();

    provider.setMode("success");
    await new Promise((resolve) => setTimeout(resolve, 5)); // so updated_at visibly moves
    const res = await postJson("/api/waitlist", { ...ADULT_ANSWER, email, source: "cta" }, PROVIDER_ENV);
    expect(res.status).toBe(201);
    const joined = await repo.findWaitlistEntry(email);
    expect(joined!.id).toBe(failed!.id);
    expect(joined!.emailSent).toBe(true);
    expect(joined!.emailSentAt).not.toBeNull();
    expect(joined!.source).toBe("cta");
    expect(joined!.updatedAt > failed!.updatedAt).toBe(true);
    expect(joined!.createdAt).toBe(failed!.createdAt);
    expect(provider.calls).toHaveLength(2);
  });

  it("a re-join answers joined_at as the time of that request, never when the address first joined (issue 14 §4)", async () => {
    const email = uniqueEmail("rejoin");
    // The notification keeps failing, so the entry stays undelivered and may be joined again.
    fakeProvider("http-500");
    const first = Date.now();
    const later = first + 3 * 60 * 60 * 1000;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(first);
    const joined = await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, PROVIDER_ENV);
    expect(await joined.json()).toEqual({ email, joined_at: new Date(first).toISOString() });

    vi.setSystemTime(later);
    const again = await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, PROVIDER_ENV);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual({ email, joined_at: new Date(later).toISOString() });
    // The entry itself keeps when it joined; only the answer does not tell.
    expect((await repo.findWaitlistEntry(email))!).toMatchObject({ createdAt: new Date(first).toISOString(), emailSent: false });
  });

  it("50 concurrent joins of one e-mail produce exactly one row and one notification", async () => {
    const email = uniqueEmail("race");
    const provider = fakeProvider("success");
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => postJson("/api/waitlist", { ...ADULT_ANSWER, email }, PROVIDER_ENV)),
    );
    const statuses = responses.map((res) => res.status);
    // Every request either joined (201) or, once the notification was delivered, was a duplicate.
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    expect(statuses).toContain(201);
    const rows = await env.DB.prepare("select count(*) as n from hwh_waitlist where email = ?").bind(email).first<{ n: number }>();
    expect(rows!.n).toBe(1);
    expect(provider.calls.filter((c) => c.body.inputs.body_html.includes(email))).toHaveLength(1);
  });

  it("stores the placement name and rejects a malformed one", async () => {
    const email = uniqueEmail();
    const bad = await postJson("/api/waitlist", { ...ADULT_ANSWER, email, source: "<hero>" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: "validation_failed", field: "source" } });
    expect(await repo.findWaitlistEntry(email)).toBeUndefined();

    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email, source: "cta" })).status).toBe(201);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ source: "cta" });
  });

  it("answers 500 with the spec's message, and logs the cause without the visitor's data, when the database fails", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const email = uniqueEmail("logged");
    const res = await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, { DB: brokenDatabase() });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      error: { code: "internal_error", message: "Something went wrong. Please try again." },
    });
    const logged = errors.mock.calls.map((args) => JSON.parse(String(args[0])));
    expect(logged).toContainEqual(expect.objectContaining({ level: "error", event: "request.failed", route: "/api/waitlist" }));
    expect(logged.some((line) => String(line.error).includes("database unavailable"))).toBe(true);
    // drizzle's error quotes the query's parameters; the log line must not.
    expect(JSON.stringify(logged)).not.toContain(email);
  });

  it("answers 405 with Allow for other methods", async () => {
    const res = await call("/api/waitlist");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toMatchObject({ error: { code: "method_not_allowed" } });
    expect((await call("/api/forms/contact", { method: "PUT" })).status).toBe(405);
    expect((await call("/api/health", { method: "DELETE" })).status).toBe(405);
  });

  it("answers 404 in the API's error shape for unknown API routes", async () => {
    const res = await call("/api/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: "not_found" } });
  });
});
