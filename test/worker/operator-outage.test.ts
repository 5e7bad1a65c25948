import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { WaitingJoinMessage } from "../../worker/features/joins/messages";
import { ADMIN_JOINS, type JoinsReport, type JoinsRetried } from "../../worker/shared/joins";
import { ADULT_ANSWER } from "../support/age";
import { ADMIN_KEY, signIn } from "../support/auth";
import { capturingQueue, overloadedDatabase, runQueue } from "../support/joins";
import { freshNetwork, limitedTo, roomInWindow, rowCounts, secondsLeftInWindow } from "../support/rate-limits";
import { brokenDatabase, call, type EnvOverrides, uniqueEmail } from "../support/worker";

/**
 * Issue 24 §3, review finding 2: "Health and the console show how many joins are waiting and how
 * old the oldest is", above all while the database is down, which is when joins wait. The
 * operator API's limit is a rate-limit binding (OPERATOR_LIMITER) and the waiting count lives in
 * the JoinBacklog Durable Object, so with AUTH_ADMIN_KEY the console's joins route answers with no
 * database at all. An operator's sign-in token needs the database (its session is read).
 */

const admin = { Authorization: `Bearer ${ADMIN_KEY}` };

/** A D1 stand-in whose every call fails, recording each property of it the worker touched. */
function deadDatabase(): { db: D1Database; touched: string[] } {
  const touched: string[] = [];
  const broken = brokenDatabase();
  const db = new Proxy(broken, {
    get(target, property) {
      touched.push(String(property));
      return Reflect.get(target, property);
    },
  });
  return { db, touched };
}

/** A join answered while D1 is overloaded: it waits on the (captured) joins queue, counted in the backlog. */
async function joinThatWaits(): Promise<WaitingJoinMessage> {
  const joins = capturingQueue();
  const response = await call(
    "/api/waitlist",
    {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ...ADULT_ANSWER, email: uniqueEmail("outage") }),
    },
    { DB: overloadedDatabase(), JOIN_QUEUE: joins.binding },
  );
  expect(response.status).toBe(201);
  expect(joins.sent).toHaveLength(1);
  return joins.sent[0] as WaitingJoinMessage;
}

const report = async (overrides: EnvOverrides, headers: Record<string, string> = admin) => {
  const response = await call(ADMIN_JOINS.list, { headers }, overrides);
  return { response, text: await response.text() };
};

describe("the console's waiting joins while the database is down", () => {
  it("GET /api/admin/joins with AUTH_ADMIN_KEY answers 200 with the waiting count and the oldest, without one database call", async () => {
    const start = JSON.parse((await report({})).text) as JoinsReport;
    await joinThatWaits();
    await joinThatWaits();
    const { db, touched } = deadDatabase();
    const { response, text } = await report({ DB: db });
    expect(response.status, text).toBe(200);
    const during = JSON.parse(text) as JoinsReport;
    expect(during).toMatchObject({ known: true, waiting: start.waiting + 2 });
    expect(during.oldest_age_seconds).toBeGreaterThanOrEqual(0);
    expect(Date.parse(during.oldest_at!)).toBeLessThanOrEqual(Date.now());
    expect(touched).toEqual([]);
  });

  it("health with AUTH_ADMIN_KEY shows the same count while the database is down", async () => {
    await joinThatWaits();
    const response = await call("/api/health", { headers: admin }, { DB: brokenDatabase() });
    const body = await response.json<{ status: string; joins: JoinsReport }>();
    const listed = JSON.parse((await report({ DB: brokenDatabase() })).text) as JoinsReport;
    expect(body.joins).toMatchObject({ known: true, waiting: listed.waiting });
    expect(body.joins.waiting).toBeGreaterThanOrEqual(1);
  });

  it("an operator's sign-in token needs the database (its session is read): during the outage it is refused, the admin key is not", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const operator = uniqueEmail("operator");
    const { access_token: token } = await signIn(operator);
    const operators = { OPERATOR_EMAILS: operator };
    expect((await report(operators, { Authorization: `Bearer ${token}` })).response.status).toBe(200);
    const down = await report({ ...operators, DB: brokenDatabase() }, { Authorization: `Bearer ${token}` });
    expect(down.response.status).toBe(500);
    expect(JSON.parse(down.text)).toMatchObject({ error: { code: "internal_error" } });
    expect((await report({ ...operators, DB: brokenDatabase() })).response.status).toBe(200);
  });

  it("POST /api/admin/joins/retry during the outage puts the dead joins back all the same, the audit record logged as not recorded (audited: false)", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const dead = await joinThatWaits();
    const outcomes = await runQueue([dead], {}, { queue: "homework-helper-joins-dlq" });
    expect(outcomes.every(({ acked }) => acked)).toBe(true);
    const joins = capturingQueue();
    const response = await call(
      ADMIN_JOINS.retry,
      { method: "POST", headers: { ...admin, "Content-Type": "application/json" }, body: JSON.stringify({ ids: [dead.id] }) },
      { DB: brokenDatabase(), JOIN_QUEUE: joins.binding },
    );
    expect(response.status).toBe(200);
    expect(await response.json<JoinsRetried>()).toEqual({ retried: 1, audited: false });
    expect(joins.sent).toEqual([dead]);
    const logged = errors.mock.calls.map((args) => JSON.parse(String(args[0])) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({ event: "audit.not_recorded", action: "joins.retried", operator: "admin-key", details: { retried: 1 } }),
    );
    const listed = JSON.parse((await report({ DB: brokenDatabase() })).text) as JoinsReport;
    expect(listed.dead_joins.map(({ id }) => id)).not.toContain(dead.id);
  });

  it("the operator limit refuses past the binding's allowance with the real wait, even with the database down, and writes nothing", async () => {
    await roomInWindow();
    const ip = freshNetwork();
    const before = await rowCounts();
    const overrides = { DB: brokenDatabase(), OPERATOR_LIMITER: limitedTo(env.OPERATOR_LIMITER, 2) };
    const from = () => report(overrides, { ...admin, "CF-Connecting-IP": ip });
    expect((await from()).response.status).toBe(200);
    expect((await from()).response.status).toBe(200);
    const { response, text } = await from();
    expect(response.status, text).toBe(429);
    const wait = Number(response.headers.get("Retry-After"));
    expect(Math.abs(wait - secondsLeftInWindow())).toBeLessThanOrEqual(1);
    expect(JSON.parse(text)).toMatchObject({
      error: { code: "rate_limited", message: `Too many requests. Try again in ${wait} seconds.` },
    });
    expect(await rowCounts()).toEqual(before);
  });
});
