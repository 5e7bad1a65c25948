// Issue 24 §2: one write on the request path, e-mail after it in batches through the mail queue
// (worker/features/mail-queue): the request hands jobs over with no database call; the consumer
// claims and reads a batch in one call, sends, records every outcome in one call; redelivery and
// the cron's claims never send twice; failures back off and the cron re-queues them; a batch whose
// database call fails is retried by the queue; the dead-letter queue's jobs are listed and retried.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../worker/index";
import { createDeps } from "../../worker/deps";
import type { MailJob } from "../../worker/features/mail-queue/jobs";
import { runJoinerOutbox } from "../../worker/features/waitlist";
import { ADULT_ANSWER } from "../support/age";
import { ADMIN_KEY } from "../support/auth";
import { fakeProvider, PROVIDER_ENV, type ProviderCall } from "../support/fake-provider";
import { brokenDatabase, call, postJson, syntheticBatch, testEnv, testRepository, uniqueClientIp, uniqueEmail } from "../support/worker";

const repo = testRepository();

/**
 * The test D1 binding, counting database calls: each statement run on its own is one call, each
 * batch one call. `sql` keeps each call's statements (for telling the per-client counter apart).
 */
function countingDatabase() {
  const calls: string[][] = [];
  const real = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => wrap(target.bind(...values), sql);
        const value = Reflect.get(target, property, target);
        if (["first", "all", "run", "raw"].includes(String(property)))
          return (...args: unknown[]) => {
            calls.push([sql]);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    real.set(proxy, statement);
    return proxy;
  };
  const sqlOf = new WeakMap<object, string>();
  const db = new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare")
        return (query: string) => {
          const statement = wrap(target.prepare(query), query);
          sqlOf.set(statement, query);
          return statement;
        };
      if (property === "batch")
        return (statements: D1PreparedStatement[]) => {
          calls.push(statements.map((s) => sqlOf.get(s) ?? "batched"));
          return target.batch(statements.map((s) => real.get(s) ?? s));
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, calls };
}

/** A MAIL_QUEUE that only keeps what it is handed (no consumer runs). */
function recordingQueue() {
  const jobs: MailJob[] = [];
  const queue = {
    send: async (body: MailJob) => void jobs.push(body),
    sendBatch: async (messages: Iterable<MessageSendRequest<MailJob>>) => {
      for (const message of messages) jobs.push(message.body);
    },
  } as unknown as Queue;
  return { queue, jobs };
}

/** Delivers `jobs` as one batch of the mail queue (or its dead-letter queue) to the worker's queue() handler. */
async function deliver(jobs: readonly unknown[], overrides: Record<string, unknown> = {}, queue = "homework-helper-mail", attempts = 1) {
  const { batch, entry } = syntheticBatch(queue, jobs, attempts);
  await worker.queue(batch, testEnv(overrides));
  return entry;
}

const joinerTo = (calls: ProviderCall[], email: string) => calls.filter((sent) => sent.body.inputs.receivers.includes(email));

beforeEach(() => {
  vi.spyOn(console, "log").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
  vi.spyOn(console, "error").mockImplementation(() => {});
});

describe("the request path", () => {
  it("a join is one database call before its answer and none after it: the mail goes as jobs to the queue", async () => {
    fakeProvider("success");
    const { db, calls } = countingDatabase();
    const { queue, jobs } = recordingQueue();
    const ctx = createExecutionContext();
    const request = new Request("http://localhost/api/waitlist", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueClientIp() },
      body: JSON.stringify({ ...ADULT_ANSWER, email: uniqueEmail("one-call") }),
    });
    const response = await worker.fetch(request, testEnv({ ...PROVIDER_ENV, DB: db, MAIL_QUEUE: queue }), ctx);
    expect(response.status).toBe(201);
    // The per-client limit is the rate-limit binding's (issue 24 §1): the join's batch is the only call.
    const beforeAnswer = calls.length;
    await waitOnExecutionContext(ctx);
    expect(beforeAnswer).toBe(1);
    expect(calls).toHaveLength(1);
    expect(jobs.map((job) => job.type).sort()).toEqual(["joiner", "notification"]);
  });

  it("a contact form's submission and a child's request to a parent are one database call each, none after the answer", async () => {
    fakeProvider("success");
    const year = new Date().getUTCFullYear();
    for (const [path, body] of [
      ["/api/forms/contact", { name: "Ada", email: uniqueEmail("one-call-form"), message: "Hello" }],
      ["/api/waitlist", { birth_month: 1, birth_year: year - 10, parent_email: uniqueEmail("one-call-parent") }],
    ] as const) {
      const { db, calls } = countingDatabase();
      const { queue, jobs } = recordingQueue();
      const ctx = createExecutionContext();
      const request = new Request(`http://localhost${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueClientIp() },
        body: JSON.stringify(body),
      });
      const response = await worker.fetch(request, testEnv({ ...PROVIDER_ENV, DB: db, MAIL_QUEUE: queue }), ctx);
      expect(response.status).toBeLessThan(300);
      expect(calls).toHaveLength(1);
      await waitOnExecutionContext(ctx);
      expect(calls).toHaveLength(1);
      expect(jobs).toHaveLength(1);
    }
  });

  it("the contact form's notification and a parent's e-mail go through the queue, and a call() returns with them sent", async () => {
    const provider = fakeProvider("success");
    const { queue, jobs } = recordingQueue();
    const email = uniqueEmail("contact-queue");
    expect(
      (await postJson("/api/forms/contact", { name: "Ada", email, message: "Hello" }, { ...PROVIDER_ENV, MAIL_QUEUE: queue })).status,
    ).toBe(201);
    expect(jobs).toEqual([expect.objectContaining({ type: "notification", kind: "form" })]);
    expect(provider.calls).toHaveLength(0);
    // The default: the queue inline, through the real consumer.
    expect((await postJson("/api/forms/contact", { name: "Ada", email, message: "Again" }, PROVIDER_ENV)).status).toBe(201);
    expect(provider.calls).toHaveLength(1);
    expect(provider.calls[0]!.headers.get("Idempotency-Key")).toMatch(/^notification-form-\d+$/);

    const parent = uniqueEmail("parent-queue");
    const child = { birth_month: 1, birth_year: new Date().getUTCFullYear() - 10, parent_email: parent };
    const { queue: parentQueue, jobs: parentJobs } = recordingQueue();
    expect((await postJson("/api/waitlist", child, { ...PROVIDER_ENV, MAIL_QUEUE: parentQueue })).status).toBe(202);
    expect(parentJobs).toEqual([expect.objectContaining({ type: "parent" })]);
    expect(joinerTo(provider.joinerCalls, parent)).toHaveLength(0);
    await deliver(parentJobs, PROVIDER_ENV);
    expect(joinerTo(provider.joinerCalls, parent)).toHaveLength(1);
    expect(joinerTo(provider.joinerCalls, parent)[0]!.headers.get("Idempotency-Key")).toMatch(/^parent-request-\d+$/);
  });
});

describe("the consumer", () => {
  it("sends a batch of 100 and records them in at most 3 database calls; a redelivered batch sends nothing twice", async () => {
    const provider = fakeProvider("success");
    const { queue, jobs } = recordingQueue();
    const emails = Array.from({ length: 50 }, () => uniqueEmail("hundred"));
    for (const email of emails)
      expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, { MAIL_QUEUE: queue })).status).toBe(201);
    expect(jobs).toHaveLength(100);

    const { db, calls } = countingDatabase();
    const entry = await deliver(jobs, { ...PROVIDER_ENV, DB: db });
    // One call claims and reads (and takes the visitor budget), one records: 0.02 calls per e-mail.
    expect(calls).toHaveLength(2);
    expect(entry).toMatchObject({ acked: 100, retried: 0 });
    expect(provider.joinerCalls).toHaveLength(50);
    expect(provider.calls).toHaveLength(50);
    const keys = [...provider.calls, ...provider.joinerCalls].map((sent) => sent.headers.get("Idempotency-Key"));
    expect(new Set(keys).size).toBe(100);
    for (const email of emails) {
      expect(await repo.findWaitlistEntry(email)).toMatchObject({ emailSent: true, notifyClaim: null });
      expect(joinerTo(provider.joinerCalls, email)).toHaveLength(1);
    }

    const again = await deliver(jobs, PROVIDER_ENV);
    expect(again.acked).toBe(100);
    expect(provider.joinerCalls).toHaveLength(50);
    expect(provider.calls).toHaveLength(50);
  });

  it("a job whose row the cron claimed since sends nothing; the cron's job sends it once", async () => {
    const provider = fakeProvider("success");
    const { queue, jobs } = recordingQueue();
    const email = uniqueEmail("cron-claim");
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, { MAIL_QUEUE: queue });
    const joinerJob = jobs.find((job) => job.type === "joiner")!;

    // The request's lease lapsed (the worker died before handing the job over, say): the cron claims the row.
    const { queue: cronQueue, jobs: requeued } = recordingQueue();
    const lockMs = createDeps(env).config.notify.lockMs;
    const later = createDeps(testEnv({ ...PROVIDER_ENV, MAIL_QUEUE: cronQueue }), () => new Date(Date.now() + lockMs + 1000));
    expect((await runJoinerOutbox(later)).queued).toBeGreaterThanOrEqual(1);
    const cronJob = requeued.find((job) => job.id === joinerJob.id)!;
    expect(cronJob.claim).not.toBe(joinerJob.claim);

    await deliver([joinerJob], PROVIDER_ENV);
    expect(joinerTo(provider.joinerCalls, email)).toHaveLength(0);
    await deliver([cronJob], PROVIDER_ENV);
    await deliver([cronJob, joinerJob], PROVIDER_ENV);
    expect(joinerTo(provider.joinerCalls, email)).toHaveLength(1);
  });

  it("a failed send records its backoff and the message is acked; the cron re-queues it when due and it is sent", async () => {
    const provider = fakeProvider("http-500");
    const { queue, jobs } = recordingQueue();
    const email = uniqueEmail("backoff");
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, { MAIL_QUEUE: queue });
    const entry = await deliver(jobs, PROVIDER_ENV);
    expect(entry).toMatchObject({ acked: 2, retried: 0 });
    const stored = (await repo.findWaitlistEntry(email))!;
    expect(stored).toMatchObject({ emailSent: false, notifyClaim: null, notifyAttempts: 1 });
    expect(stored.notifyLastError).toMatch(/500/);
    const mail = await env.DB.prepare("select * from hwh_joiner_mail where entry_id = ?").bind(stored.id).first<Record<string, unknown>>();
    expect(mail).toMatchObject({ sent_at: null, claim: null, attempts: 1 });
    expect(Date.parse(String(mail!.next_attempt_at))).toBeGreaterThan(Date.now());

    // Before its time the cron re-queues nothing of it; after it, the mail queue sends it.
    provider.setMode("success");
    expect((await runJoinerOutbox(createDeps(testEnv(PROVIDER_ENV)))).queued).toBe(0);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse(String(mail!.next_attempt_at)) + 1000);
    expect((await runJoinerOutbox(createDeps(testEnv(PROVIDER_ENV)))).queued).toBeGreaterThanOrEqual(1);
    expect(joinerTo(provider.joinerCalls, email)).toHaveLength(2);
    const sent = await env.DB.prepare("select * from hwh_joiner_mail where entry_id = ?").bind(stored.id).first<Record<string, unknown>>();
    expect(sent).toMatchObject({ attempts: 2, claim: null, last_error: null });
    expect(sent!.sent_at).not.toBeNull();
  });

  it("a batch whose database call fails is retried by the queue with a delay, nothing acked", async () => {
    fakeProvider("success");
    const { queue, jobs } = recordingQueue();
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email: uniqueEmail("db-down") }, { MAIL_QUEUE: queue });
    const entry = await deliver(jobs, { ...PROVIDER_ENV, DB: brokenDatabase() }, "homework-helper-mail", 3);
    expect(entry).toMatchObject({ acked: 0, retried: 2 });
    expect(entry.retryDelays).toEqual([40, 40]);
  });
});

describe("dead letters", () => {
  it("the dead-letter queue's jobs are listed in the console, counted in stats, and 'retry' re-queues them (one, then all)", async () => {
    const provider = fakeProvider("success");
    const { queue, jobs } = recordingQueue();
    const emails = [uniqueEmail("dead-1"), uniqueEmail("dead-2")];
    for (const email of emails) await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, { MAIL_QUEUE: queue });
    const joiners = jobs.filter((job) => job.type === "joiner");
    const entry = await deliver(joiners, PROVIDER_ENV, "homework-helper-mail-dlq", 11);
    expect(entry.acked).toBe(2);
    expect(provider.joinerCalls).toHaveLength(0);

    const admin = { headers: { Authorization: `Bearer ${ADMIN_KEY}` } };
    const listed = (await (await call("/api/admin/mail/dead-letters", admin)).json()) as {
      total: number;
      dead_letters: { kind: string; row_id: number; error: string; dead_lettered_at: string }[];
    };
    expect(listed.total).toBe(2);
    expect(listed.dead_letters.map((letter) => letter.kind)).toEqual(["joiner", "joiner"]);
    expect(listed.dead_letters[0]!.error).toMatch(/retries/);
    const stats = (await (await call("/api/admin/stats", admin)).json()) as { mailDeadLetters: number };
    expect(stats.mailDeadLetters).toBe(2);

    const one = listed.dead_letters[0]!;
    const retry = (body: unknown) =>
      call(
        "/api/admin/mail/dead-letters/retry",
        { method: "POST", headers: { ...admin.headers, "Content-Type": "application/json" }, body: JSON.stringify(body) },
        PROVIDER_ENV,
      );
    expect(await (await retry({ rows: [{ kind: one.kind, row_id: one.row_id }] })).json()).toEqual({ requeued: 1 });
    expect(provider.joinerCalls).toHaveLength(1);
    expect(await (await retry({})).json()).toEqual({ requeued: 1 });
    expect(provider.joinerCalls).toHaveLength(2);
    for (const email of emails) expect(joinerTo(provider.joinerCalls, email)).toHaveLength(1);
    const after = (await (await call("/api/admin/mail/dead-letters", admin)).json()) as { total: number };
    expect(after.total).toBe(0);
    expect((await retry({ rows: [{ kind: "nope", row_id: 1 }] })).status).toBe(400);
  });
});
