import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { WaitingJoinMessage } from "../../worker/features/joins/messages";
import type { MailJob } from "../../worker/features/mail-queue/jobs";
import { ADMIN_JOINS, type JoinsReport } from "../../worker/shared/joins";
import { WAITLIST_MESSAGES } from "../../worker/shared/waitlist";
import { ADULT_ANSWER, ADULT_FORM } from "../support/age";
import { ADMIN_KEY } from "../support/auth";
import { capturingQueue, countingDatabase, overloadedDatabase, refusingQueue, runQueue } from "../support/joins";
import { call, postJson, testRepository, uniqueEmail } from "../support/worker";

/**
 * Issue 24 §3: when the database cannot take a join, the join waits on the joins queue instead of
 * failing; the consumer stores waiting joins in batches, once each; health and the console count
 * them; the dead-letter list keeps what the queue gave up on.
 */

const repo = testRepository();
const admin = { Authorization: `Bearer ${ADMIN_KEY}` };

/** A join answered while D1 is overloaded, with the joins queue captured: the response and the message it queued. */
async function joinUnderOverload(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const joins = capturingQueue();
  const response = await call(
    "/api/waitlist",
    { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) },
    { DB: overloadedDatabase(), JOIN_QUEUE: joins.binding },
  );
  // An overloaded database said no at once: the join waits with no delay (only a missed deadline gets a grace).
  expect(joins.delays.every((delay) => delay === undefined)).toBe(true);
  return { response, sent: joins.sent as WaitingJoinMessage[] };
}

/** Runs the joins consumer on `bodies` with the mail queue captured: what it did, and the mail jobs it handed over. */
async function consume(bodies: readonly unknown[], overrides: Record<string, unknown> = {}, attempts = 1) {
  const mail = capturingQueue();
  const outcomes = await runQueue(bodies, { MAIL_QUEUE: mail.binding, ...overrides }, { attempts });
  return { outcomes, mailJobs: mail.sent as MailJob[] };
}

const rows = async (sql: string, ...bind: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...bind)
      .all<Record<string, unknown>>()
  ).results;

/** A waiting join as the public join queues it (for the batch tests, which need many). */
function waiting(email: string, extra: Partial<WaitingJoinMessage["join"]> = {}): WaitingJoinMessage {
  return {
    type: "join",
    id: crypto.randomUUID(),
    at: new Date().toISOString(),
    origin: "http://localhost",
    network: null,
    join: {
      email,
      source: "hero",
      ref: null,
      ageBand: "18_plus",
      country: "GB",
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      referrer_host: null,
      ...extra,
    },
  };
}

async function health() {
  return (await call("/api/health")).json<{ joins: JoinsReport }>();
}

describe("a join the database cannot take waits on the joins queue", () => {
  it("D1 overloaded: the visitor gets the spec's 201 with joined_at the request's time, and the join is queued with its validated input only", async () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    const email = uniqueEmail("overload");
    const before = Date.now();
    const { response, sent } = await joinUnderOverload(
      { ...ADULT_ANSWER, email, source: "hero", utm_source: "tiktok", ref: "ABCDEFGH", website: "" },
      { "CF-IPCountry": "GB" },
    );
    expect(response.status).toBe(201);
    const body = await response.json<{ email: string; joined_at: string }>();
    expect(body.email).toBe(email);
    expect(Date.parse(body.joined_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(sent).toHaveLength(1);
    const [message] = sent;
    expect(message).toMatchObject({
      type: "join",
      at: body.joined_at,
      origin: "http://localhost",
      join: { email, source: "hero", utm_source: "tiktok", ref: "ABCDEFGH", ageBand: "18_plus", country: "GB" },
    });
    expect(message!.id).toMatch(/^[0-9a-f-]{36}$/);
    // Never the birth month or year, the form's extras, or the client's address (a keyed hash only).
    const text = JSON.stringify(message);
    for (const absent of ["birth_month", "birth_year", "website", "1990"]) expect(text).not.toContain(absent);
    expect(message!.network).toMatch(/^[0-9a-f]{64}$/);
    // Nothing stored yet: the database did not take it. The log says so, without the address.
    expect(await repo.findWaitlistEntry(email)).toBeUndefined();
    const logged = warned.mock.calls.map((args) => JSON.parse(String(args[0])));
    expect(logged).toContainEqual(expect.objectContaining({ event: "join.waiting", type: "join", id: message!.id }));
    expect(JSON.stringify(logged)).not.toContain(email);
  });

  it("the consumer stores it once, as a join stores it, with its joined_at, and hands its e-mails to the mail queue", async () => {
    const email = uniqueEmail("stored");
    const { response, sent } = await joinUnderOverload(
      { ...ADULT_ANSWER, email, source: "cta", utm_campaign: "launch" },
      { "CF-IPCountry": "FR" },
    );
    const { joined_at } = await response.json<{ joined_at: string }>();
    const { outcomes, mailJobs } = await consume(sent);
    expect(outcomes).toEqual([{ acked: true, retried: null }]);
    const entry = await repo.findWaitlistEntry(email);
    expect(entry).toMatchObject({ email, source: "cta", utmCampaign: "launch", ageBand: "18_plus", country: "FR", createdAt: joined_at });
    expect(entry!.mailboxKey).toMatch(/^[0-9a-f]{64}$/);
    expect(entry!.notifyClaim).toBeTruthy();
    expect(entry!.confirmedAt).toBeNull();
    const mails = await rows("select * from hwh_joiner_mail where entry_id = ?", entry!.id);
    expect(mails).toEqual([expect.objectContaining({ kind: "confirm", origin: "http://localhost", claim: expect.any(String) })]);
    expect(mailJobs).toEqual([
      { type: "joiner", id: mails[0]!.id, claim: mails[0]!.claim },
      { type: "notification", kind: "waitlist", id: entry!.id, claim: entry!.notifyClaim, budgetUsed: expect.any(Number) },
    ]);
  });

  it("with double opt-in off a waiting join is confirmed at once with its welcome, as a join is; 100 still take one call", async () => {
    const off = { WAITLIST_DOUBLE_OPT_IN: "false" };
    const email = uniqueEmail("at-once");
    const joins = capturingQueue();
    const response = await postJson(
      "/api/waitlist",
      { ...ADULT_ANSWER, email },
      { ...off, DB: overloadedDatabase(), JOIN_QUEUE: joins.binding },
    );
    expect(response.status).toBe(201);
    const { mailJobs } = await consume(joins.sent, off);
    const entry = await repo.findWaitlistEntry(email);
    expect(entry!.confirmedAt).not.toBeNull();
    expect(entry!.confirmSeq).toBeGreaterThan(0);
    expect(entry!.referralCode).toMatch(/^[A-Z0-9]{8}$/);
    const mails = await rows("select kind, claim from hwh_joiner_mail where entry_id = ?", entry!.id);
    expect(mails).toEqual([{ kind: "welcome", claim: expect.any(String) }]);
    expect(mailJobs.map(({ type }) => type).sort()).toEqual(["joiner", "notification"]);

    const emails = Array.from({ length: 100 }, (_, i) => uniqueEmail(`at-once-${i}`));
    const counting = countingDatabase();
    const hundred = await consume(
      emails.map((one) => waiting(one)),
      { ...off, DB: counting.db },
    );
    expect(hundred.outcomes.every(({ acked }) => acked)).toBe(true);
    // One call to store them (the consent renewals of the confirmed ones follow, one each); their
    // webhook events (issue 25: waitlist.joined, waitlist.confirmed, referral.confirmed) add six
    // statements to it whatever the count.
    expect(counting.batchSizes[0]).toBe(6 + 6 + 100 * 5);
    const confirmed = await rows(
      `select count(distinct confirm_seq) as n from hwh_waitlist where confirmed_at is not null and email in (${emails.map(() => "?").join(",")})`,
      ...emails,
    );
    expect(confirmed).toEqual([{ n: 100 }]);
  });

  it("redelivery of the same batch stores nothing twice and sends nothing twice", async () => {
    const emails = [uniqueEmail("again-a"), uniqueEmail("again-b")];
    const bodies = emails.map((email) => waiting(email));
    const first = await consume(bodies);
    expect(first.mailJobs).toHaveLength(4);
    const second = await consume(bodies, {}, 2);
    expect(second.outcomes.every(({ acked }) => acked)).toBe(true);
    expect(second.mailJobs).toEqual([]);
    for (const email of emails) {
      expect(await rows("select id from hwh_waitlist where email = ?", email)).toHaveLength(1);
      expect(
        await rows("select m.id from hwh_joiner_mail m join hwh_waitlist w on w.id = m.entry_id where w.email = ?", email),
      ).toHaveLength(1);
    }
  });

  it("100 waiting joins are stored in one database call, each with its confirmation queued and its notification counted", async () => {
    const emails = Array.from({ length: 100 }, (_, i) => uniqueEmail(`hundred-${i}`));
    const counting = countingDatabase();
    const { outcomes, mailJobs } = await consume(
      emails.map((email) => waiting(email)),
      { DB: counting.db },
    );
    expect(counting.calls()).toBe(1);
    expect(counting.batchSizes[0]).toBeLessThanOrEqual(10);
    expect(outcomes.every(({ acked }) => acked)).toBe(true);
    const stored = await rows(
      `select w.id, (select count(*) from hwh_joiner_mail m where m.entry_id = w.id) as mails from hwh_waitlist w where w.email in (${emails.map(() => "?").join(",")})`,
      ...emails,
    );
    expect(stored).toHaveLength(100);
    expect(stored.every(({ mails }) => mails === 1)).toBe(true);
    expect(mailJobs.filter(({ type }) => type === "joiner")).toHaveLength(100);
    const notifications = mailJobs.filter((job) => job.type === "notification");
    expect(notifications).toHaveLength(100);
    // The hour's budget counted each one, in order, as a join's own count would have.
    const used = notifications.map((job) => (job as { budgetUsed: number }).budgetUsed);
    expect(used).toEqual(used.map((_, i) => used[0]! + i));
  });

  it("an address already on the list is dropped quietly: the entry stays as it was, no e-mail, no error", async () => {
    const email = uniqueEmail("listed");
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email, source: "hero" })).status).toBe(201);
    const before = await repo.findWaitlistEntry(email);
    const { outcomes, mailJobs } = await consume([waiting(email, { source: "footer", utm_source: "late" })]);
    expect(outcomes).toEqual([{ acked: true, retried: null }]);
    expect(mailJobs).toEqual([]);
    expect(await repo.findWaitlistEntry(email)).toEqual(before);
  });

  it("two waiting joins of one address in one batch: one entry, one confirmation", async () => {
    const email = uniqueEmail("twice");
    const { mailJobs } = await consume([waiting(email), waiting(email, { source: "cta" })]);
    expect(await rows("select source from hwh_waitlist where email = ?", email)).toEqual([{ source: "hero" }]);
    expect(mailJobs.filter(({ type }) => type === "joiner")).toHaveLength(1);
  });

  it("the referral code is kept only when it is a known code", async () => {
    const referrer = uniqueEmail("referrer");
    await consume([waiting(referrer)]);
    await env.DB.prepare("update hwh_waitlist set referral_code = 'KNOWNREF', confirmed_at = created_at where email = ?")
      .bind(referrer)
      .run();
    const [known, unknown] = [uniqueEmail("ref-known"), uniqueEmail("ref-unknown")];
    await consume([waiting(known, { ref: "KNOWNREF" }), waiting(unknown, { ref: "NOSUCHCD" })]);
    const knownEntry = await repo.findWaitlistEntry(known);
    expect(knownEntry).toMatchObject({ referredBy: "KNOWNREF" });
    expect(knownEntry!.referralJoin).toBeTruthy();
    expect(await repo.findWaitlistEntry(unknown)).toMatchObject({ referredBy: null, referralJoin: null });
  });

  it("while the database is still unavailable the batch is retried whole with a growing delay, nothing stored", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const email = uniqueEmail("still-down");
    const first = await consume([waiting(email)], { DB: overloadedDatabase() }, 1);
    const later = await consume([waiting(email)], { DB: overloadedDatabase() }, 4);
    expect(first.outcomes).toEqual([{ acked: false, retried: { delaySeconds: 10 } }]);
    expect(later.outcomes).toEqual([{ acked: false, retried: { delaySeconds: 80 } }]);
    expect(first.mailJobs).toEqual([]);
    expect(await repo.findWaitlistEntry(email)).toBeUndefined();
  });

  it("only when the queue refuses too does the visitor get the spec's failure message (500)", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const email = uniqueEmail("refused");
    const response = await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, { DB: overloadedDatabase(), JOIN_QUEUE: refusingQueue() });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: "internal_error", message: WAITLIST_MESSAGES.failure } });
  });

  it("a failure that is not load (a broken statement) is not queued: the spec's failure as before", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const joins = capturingQueue();
    const response = await postJson(
      "/api/waitlist",
      { ...ADULT_ANSWER, email: uniqueEmail("not-load") },
      { DB: overloadedDatabase({ message: "D1_ERROR: no such table: hwh_waitlist: SQLITE_ERROR" }), JOIN_QUEUE: joins.binding },
    );
    expect(response.status).toBe(500);
    expect(joins.sent).toEqual([]);
  });

  it("a child's address never goes on the joins queue: the parental request waits with the parent's address only, and is asked once", async () => {
    const child = uniqueEmail("child");
    const parent = uniqueEmail("parent");
    const year = new Date().getUTCFullYear() - 12 - (new Date().getUTCMonth() === 0 ? 1 : 0);
    const { response, sent } = await joinUnderOverload(
      { birth_month: 1, birth_year: year, email: child, parent_email: parent },
      { "CF-IPCountry": "US" },
    );
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ status: "parent_asked" });
    expect(JSON.stringify(sent)).not.toContain(child);
    expect(JSON.stringify(sent)).not.toContain(String(year));
    expect(sent).toEqual([
      {
        type: "parent",
        id: expect.any(String),
        at: expect.any(String),
        origin: "http://localhost",
        parent: { parentEmail: parent, band: "under_13", country: "US" },
      },
    ]);
    const first = await consume(sent);
    const again = await consume(sent, {}, 2);
    expect([...first.outcomes, ...again.outcomes].every(({ acked }) => acked)).toBe(true);
    const requests = await rows("select age_band, country from hwh_parental_requests where parent_email = ?", parent);
    expect(requests).toEqual([{ age_band: "under_13", country: "US" }]);
    expect(await repo.findWaitlistEntry(child)).toBeUndefined();
  });

  it("the form post (no JavaScript) gets the same success page", async () => {
    const email = uniqueEmail("form");
    const joins = capturingQueue();
    const response = await call(
      "/api/waitlist",
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", Origin: "http://localhost" },
        body: new URLSearchParams({ ...ADULT_FORM, email, source: "hero", website: "" }).toString(),
      },
      { DB: overloadedDatabase(), JOIN_QUEUE: joins.binding },
    );
    expect(response.status).toBe(201);
    expect(response.headers.get("Content-Type")).toContain("text/html");
    expect(joins.sent).toHaveLength(1);
  });
});

describe("the waiting count and the dead joins (health, the console)", () => {
  it("health and GET /api/admin/joins say how many joins wait and how old the oldest is; storing them takes them off", async () => {
    const start = (await health()).joins;
    expect(start.known).toBe(true);
    const { sent } = await joinUnderOverload({ ...ADULT_ANSWER, email: uniqueEmail("counted") });
    const { sent: more } = await joinUnderOverload({ ...ADULT_ANSWER, email: uniqueEmail("counted") });
    const during = (await health()).joins;
    expect(during.waiting).toBe(start.waiting + 2);
    expect(during.oldest_age_seconds).toBeGreaterThanOrEqual(0);
    expect(Date.parse(during.oldest_at!)).toBeLessThanOrEqual(Date.now());
    const console = await (await call(ADMIN_JOINS.list, { headers: admin })).json<JoinsReport>();
    expect(console).toMatchObject({ known: true, waiting: start.waiting + 2 });
    await consume([...sent, ...more]);
    expect((await health()).joins.waiting).toBe(start.waiting);
  });

  it("the dead-letter queue's joins are kept whole, listed, and 'retry' puts them back on the joins queue (audited)", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const [one, two] = [waiting(uniqueEmail("dead-one")), waiting(uniqueEmail("dead-two"))];
    const start = (await health()).joins;
    const outcomes = await runQueue([one, two], {}, { queue: "homework-helper-joins-dlq" });
    expect(outcomes.every(({ acked }) => acked)).toBe(true);
    const listed = await (await call(ADMIN_JOINS.list, { headers: admin })).json<JoinsReport>();
    expect(listed.dead).toBe(start.dead + 2);
    expect(listed.dead_joins).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: one.id, email: one.join.email, joined_at: one.at, died_at: expect.any(String) }),
      ]),
    );

    const joins = capturingQueue();
    const retryOne = await call(
      ADMIN_JOINS.retry,
      { method: "POST", headers: { ...admin, "Content-Type": "application/json" }, body: JSON.stringify({ ids: [one.id] }) },
      { JOIN_QUEUE: joins.binding },
    );
    expect(await retryOne.json()).toEqual({ retried: 1, audited: true });
    expect(joins.sent).toEqual([one]);
    const after = await (await call(ADMIN_JOINS.list, { headers: admin })).json<JoinsReport>();
    expect(after.dead_joins.map(({ id }) => id)).not.toContain(one.id);
    expect(after.waiting).toBe(start.waiting + 1);
    const audit = await rows("select action, details from hwh_audit_log where action = 'joins.retried'");
    expect(audit.length).toBeGreaterThan(0);

    // "retry all", then the consumer stores both the re-queued joins.
    const all = await call(
      ADMIN_JOINS.retry,
      { method: "POST", headers: { ...admin, "Content-Type": "application/json" }, body: "{}" },
      { JOIN_QUEUE: joins.binding },
    );
    expect((await all.json<{ retried: number }>()).retried).toBeGreaterThanOrEqual(1);
    expect(joins.sent).toContainEqual(two);
    await consume(joins.sent);
    expect(await repo.findWaitlistEntry(one.join.email)).toBeDefined();
    expect(await repo.findWaitlistEntry(two.join.email)).toBeDefined();
  });

  it("a backlog that fails: the join still waits on the queue (logged), and health says the count is not known", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = {
      idFromName: () => ({}),
      get: () => {
        throw new Error("Durable Object unavailable (simulated)");
      },
    };
    const joins = capturingQueue();
    const response = await postJson(
      "/api/waitlist",
      { ...ADULT_ANSWER, email: uniqueEmail("no-backlog") },
      { DB: overloadedDatabase(), JOIN_QUEUE: joins.binding, JOIN_BACKLOG: broken },
    );
    expect(response.status).toBe(201);
    expect(joins.sent).toHaveLength(1);
    const logged = errors.mock.calls.map((args) => JSON.parse(String(args[0])));
    expect(logged).toContainEqual(expect.objectContaining({ event: "joins.backlog_add_failed" }));
    const report = await (await call("/api/health", {}, { JOIN_BACKLOG: broken })).json<{ joins: JoinsReport }>();
    expect(report.joins).toEqual({ known: false, waiting: 0, oldest_at: null, oldest_age_seconds: null, dead: 0 });
    // The consumer stores it all the same.
    const { outcomes } = await consume(joins.sent, { JOIN_BACKLOG: broken });
    expect(outcomes).toEqual([{ acked: true, retried: null }]);
  });

  it("the dead joins' routes are the operator's: 401 without credentials", async () => {
    expect((await call(ADMIN_JOINS.list)).status).toBe(401);
    expect((await call(ADMIN_JOINS.retry, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).status).toBe(
      401,
    );
  });
});
