/**
 * Issue 24 §3 and §4 with a slow or hung database (review of issue 24, finding 1): the public
 * join's database call has a deadline (JOIN_DB_TIMEOUT_MS) past which the join waits on the joins
 * queue with the spec's 201; a late completion of that call stores the entry once and mails it
 * once; the home page's count read has a deadline (COUNT_DEADLINE_MS) past which the page is
 * served without the count, and concurrent misses in one isolate share one read.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../worker/index";
import { createDeps } from "../../worker/deps";
import type { WaitingMessage } from "../../worker/features/joins/messages";
import { requeueDue } from "../../worker/features/mail-queue";
import type { MailJob } from "../../worker/features/mail-queue/jobs";
import { HEALTH_DB_DEADLINE_MS } from "../../worker/features/health/routes";
import { COUNT_DEADLINE_MS } from "../../worker/features/pages/live-count";
import { DatabaseDeadlineError, isDatabaseUnavailable, withDeadline } from "../../worker/platform/db/errors";
import { ADULT_ANSWER } from "../support/age";
import { fakeProvider, PROVIDER_ENV } from "../support/fake-provider";
import { capturingQueue, D1_OVERLOADED, runQueue } from "../support/joins";
import { call, testEnv, uniqueEmail } from "../support/worker";

/** A gate the test opens: what waits on it goes on then (or fails, with `fail`). */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * The test D1 database whose batches wait for `held` before they run (a database that accepted
 * the call and answers late), then run on the real database, or fail with `failWith`. `late`:
 * each held batch's outcome, settled or failed, for the test to await.
 */
function slowBatches(held: Promise<void>, failWith?: string) {
  const late: Promise<unknown>[] = [];
  const db = new Proxy(env.DB, {
    get(target, property) {
      if (property === "batch")
        return (statements: D1PreparedStatement[]) => {
          const result = held.then(() => (failWith ? Promise.reject(new Error(failWith)) : target.batch(statements)));
          late.push(result.catch(() => "failed"));
          return result;
        };
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, late };
}

/** The test D1 database whose every statement waits for `held` (a hung count read), counting the reads. */
function slowStatements(held: Promise<void>) {
  let reads = 0;
  const hold = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== "function") return value;
        if (property === "bind") return (...args: unknown[]) => hold(value.apply(target, args));
        if (["first", "all", "run", "raw"].includes(String(property)))
          return (...args: unknown[]) => {
            reads += 1;
            return held.then(() => value.apply(target, args));
          };
        return value.bind(target);
      },
    });
  const db = new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare") return (query: string) => hold(target.prepare(query));
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, reads: () => reads };
}

const DEADLINE = { JOIN_DB_TIMEOUT_MS: "200" };
const countOf = async (email: string) =>
  (await env.DB.prepare("select count(*) as n from hwh_waitlist where email = ?").bind(email).first<{ n: number }>())!.n;

beforeEach(() => {
  vi.spyOn(console, "log").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
  vi.spyOn(console, "error").mockImplementation(() => {});
});

describe("withDeadline", () => {
  it("passes the work's value or error through; past the deadline rejects with an error isDatabaseUnavailable counts", async () => {
    expect(await withDeadline(Promise.resolve(7), 50)).toBe(7);
    await expect(withDeadline(Promise.reject(new Error("no such table: x")), 50)).rejects.toThrow("no such table");
    const hung = gate();
    const late = withDeadline(hung.opened, 30).catch((error: unknown) => error);
    const error = await late;
    expect(error).toBeInstanceOf(DatabaseDeadlineError);
    expect(isDatabaseUnavailable(error)).toBe(true);
    hung.open();
  });

  it("a work that fails after its deadline is handled (no unhandled rejection)", async () => {
    const held = gate();
    const work = held.opened.then(() => Promise.reject(new Error("late failure")));
    await expect(withDeadline(work, 20)).rejects.toBeInstanceOf(DatabaseDeadlineError);
    held.open();
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
});

describe("a join whose database call outlives JOIN_DB_TIMEOUT_MS waits on the joins queue", () => {
  it("answers the spec's 201 within the deadline and is queued; stored late, the queued copy is dropped and each e-mail goes once", async () => {
    const provider = fakeProvider("success");
    const email = uniqueEmail("slow");
    const held = gate();
    const slow = slowBatches(held.opened);
    const joins = capturingQueue();
    const mail = capturingQueue();
    const started = Date.now();
    const response = await call(
      "/api/waitlist",
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ...ADULT_ANSWER, email }) },
      { ...DEADLINE, ...PROVIDER_ENV, DB: slow.db, JOIN_QUEUE: joins.binding, MAIL_QUEUE: mail.binding },
    );
    const elapsed = Date.now() - started;
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ email });
    expect(elapsed).toBeLessThan(1500);
    expect(joins.sent).toEqual([expect.objectContaining({ type: "join", join: expect.objectContaining({ email }) })]);
    // Delivered after a grace (30 s), so a late call most likely lands before its waiting copy.
    expect(joins.delays).toEqual([30]);
    expect(mail.sent).toEqual([]);
    expect(await countOf(email)).toBe(0);

    // The slow call completes after the answer: the entry is stored, its e-mails claimed, handed to nobody.
    held.open();
    expect(await Promise.all(slow.late)).not.toContain("failed");
    expect(await countOf(email)).toBe(1);
    expect(mail.sent).toEqual([]);

    // The joins consumer finds the address listed: dropped quietly, nothing stored or handed over again.
    const consumerMail = capturingQueue();
    const outcomes = await runQueue(joins.sent, { MAIL_QUEUE: consumerMail.binding });
    expect(outcomes).toEqual([{ acked: true, retried: null }]);
    expect(await countOf(email)).toBe(1);
    expect(consumerMail.sent as MailJob[]).toEqual([]);

    // The cron re-queues the late call's claimed e-mails once their lease lapses: one confirmation, one notification.
    const lockMs = createDeps(env).config.notify.lockMs;
    const later = () => new Date(Date.now() + lockMs + 1000);
    await requeueDue(createDeps(testEnv(PROVIDER_ENV), later));
    await requeueDue(createDeps(testEnv(PROVIDER_ENV), later));
    expect(provider.joinerCalls.filter((sent) => sent.body.inputs.receivers.includes(email))).toHaveLength(1);
    expect(provider.calls.filter((sent) => JSON.stringify(sent.body).includes(email))).toHaveLength(1);
  });

  it("the other order (the consumer stores the waiting copy first): one entry, one notification, and the late call's re-join queues a second confirmation (README)", async () => {
    const email = uniqueEmail("slow-after");
    const held = gate();
    const slow = slowBatches(held.opened);
    const joins = capturingQueue();
    const response = await call(
      "/api/waitlist",
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ...ADULT_ANSWER, email }) },
      { ...DEADLINE, DB: slow.db, JOIN_QUEUE: joins.binding, MAIL_QUEUE: capturingQueue().binding },
    );
    expect(response.status).toBe(201);
    const consumerMail = capturingQueue();
    expect(await runQueue(joins.sent, { MAIL_QUEUE: consumerMail.binding })).toEqual([{ acked: true, retried: null }]);
    expect((consumerMail.sent as MailJob[]).map((job) => job.type).sort()).toEqual(["joiner", "notification"]);
    held.open();
    expect(await Promise.all(slow.late)).not.toContain("failed");
    expect(await countOf(email)).toBe(1);
    const mails = (
      await env.DB.prepare("select m.kind from hwh_joiner_mail m join hwh_waitlist w on w.id = m.entry_id where w.email = ?")
        .bind(email)
        .all<{ kind: string }>()
    ).results;
    // As any re-join of an unconfirmed address (within the mailbox's daily cap); the notification stays the consumer's one.
    expect(mails.map((mail) => mail.kind)).toEqual(["confirm", "confirm"]);
  });

  it("a slow call that fails after the deadline: the join is queued once, nothing stored, no unhandled rejection", async () => {
    const email = uniqueEmail("slow-fail");
    const held = gate();
    const slow = slowBatches(held.opened, D1_OVERLOADED);
    const joins = capturingQueue();
    const response = await call(
      "/api/waitlist",
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ...ADULT_ANSWER, email }) },
      { ...DEADLINE, DB: slow.db, JOIN_QUEUE: joins.binding, MAIL_QUEUE: capturingQueue().binding },
    );
    expect(response.status).toBe(201);
    expect(joins.sent).toHaveLength(1);
    held.open();
    expect(await Promise.all(slow.late)).toEqual(["failed"]);
    expect(await countOf(email)).toBe(0);
  });

  it("a child's parental request whose call outlives the deadline: 202 parent_asked, the request waits with the parent's address", async () => {
    const child = uniqueEmail("slow-child");
    const parent = uniqueEmail("slow-parent");
    const year = new Date().getUTCFullYear() - 12 - (new Date().getUTCMonth() === 0 ? 1 : 0);
    const held = gate();
    const slow = slowBatches(held.opened);
    const joins = capturingQueue();
    const started = Date.now();
    const response = await call(
      "/api/waitlist",
      {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-IPCountry": "US" },
        body: JSON.stringify({ birth_month: 1, birth_year: year, email: child, parent_email: parent }),
      },
      { ...DEADLINE, DB: slow.db, JOIN_QUEUE: joins.binding, MAIL_QUEUE: capturingQueue().binding },
    );
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ status: "parent_asked" });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(joins.sent as WaitingMessage[]).toEqual([
      expect.objectContaining({ type: "parent", parent: { parentEmail: parent, band: "under_13", country: "US" } }),
    ]);
    expect(JSON.stringify(joins.sent)).not.toContain(child);
    held.open();
    await Promise.all(slow.late);
  });
});

describe("the home page's count with a slow database", () => {
  let hosts = 0;
  const freshOrigin = () => {
    hosts += 1;
    return `http://deadline-${hosts}-${crypto.randomUUID().slice(0, 8)}.test`;
  };
  const assets = {
    async fetch(): Promise<Response> {
      const page = `<!doctype html><html><head><title>t</title></head><body><dl><div data-claim="studentsLine"><dt>Students waiting</dt><dd data-claim="studentsStat">1,000+</dd></div></dl></body></html>`;
      return new Response(page, { headers: { "Content-Type": "text/html; charset=utf-8", ETag: '"built-1"' } });
    },
  };
  const visit = async (origin: string, overrides: Record<string, unknown>) => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(`${origin}/`), { ...env, ...overrides } as Env, ctx);
    const html = await response.text();
    await waitOnExecutionContext(ctx);
    return { status: response.status, html };
  };

  it("a hung count read: the page is served within the deadline without the count", async () => {
    const held = gate();
    const slow = slowStatements(held.opened);
    const started = Date.now();
    const page = await visit(freshOrigin(), { PAGE_CACHE_SECONDS: "60", CLAIM_STUDENTS_THRESHOLD: "0", DB: slow.db, ASSETS: assets });
    const elapsed = Date.now() - started;
    expect(page.status).toBe(200);
    expect(page.html).not.toContain("Students waiting");
    expect(elapsed).toBeGreaterThanOrEqual(COUNT_DEADLINE_MS - 50);
    expect(elapsed).toBeLessThan(COUNT_DEADLINE_MS + 1000);
    held.open();
  });

  it("30 concurrent visits on a hung read cost one read, and each is served within the deadline", async () => {
    const held = gate();
    const slow = slowStatements(held.opened);
    const origin = freshOrigin();
    const overrides = { PAGE_CACHE_SECONDS: "60", CLAIM_STUDENTS_THRESHOLD: "0", DB: slow.db, ASSETS: assets };
    const started = Date.now();
    const pages = await Promise.all(Array.from({ length: 30 }, () => visit(origin, overrides)));
    const elapsed = Date.now() - started;
    expect(pages.map((page) => page.status)).toEqual(Array(30).fill(200));
    expect(pages.every((page) => !page.html.includes("Students waiting"))).toBe(true);
    expect(slow.reads()).toBe(1);
    expect(elapsed).toBeLessThan(COUNT_DEADLINE_MS + 1500);
    held.open();
  });

  it("30 concurrent visits on a slow read that answers in time cost one read and all state the count", async () => {
    const held = gate();
    const slow = slowStatements(held.opened);
    const origin = freshOrigin();
    const overrides = { PAGE_CACHE_SECONDS: "60", CLAIM_STUDENTS_THRESHOLD: "0", DB: slow.db, ASSETS: assets };
    const visits = Promise.all(Array.from({ length: 30 }, () => visit(origin, overrides)));
    setTimeout(() => held.open(), 100);
    const pages = await visits;
    expect(slow.reads()).toBe(1);
    expect(pages.every((page) => page.status === 200 && page.html.includes("Students waiting"))).toBe(true);
  });
});

describe("health with a database that does not answer", () => {
  it("answers within HEALTH_DB_DEADLINE_MS: 503 database_unreachable, with the waiting joins it reads from the backlog", async () => {
    const held = gate();
    const slow = slowBatches(held.opened);
    const started = Date.now();
    const response = await call("/api/health", {}, { DB: slow.db });
    const elapsed = Date.now() - started;
    expect(response.status).toBe(503);
    const body = (await response.json()) as { error: { code: string }; joins: { known: boolean; waiting: number } };
    expect(body.error.code).toBe("database_unreachable");
    expect(body.joins).toMatchObject({ known: true, waiting: expect.any(Number) });
    expect(elapsed).toBeGreaterThanOrEqual(HEALTH_DB_DEADLINE_MS - 100);
    expect(elapsed).toBeLessThan(HEALTH_DB_DEADLINE_MS + 1500);
    held.open();
    await Promise.all(slow.late);
  });
});
