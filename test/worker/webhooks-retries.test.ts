import { beforeEach, describe, expect, it } from "vitest";
import { WEBHOOK_RETRY_SCHEDULE_SECONDS } from "../../worker/shared/webhooks";
import {
  addEndpoint,
  addEvent,
  deliveriesOf,
  endpointRow,
  execute,
  fakeReceivers,
  resetWebhooks,
  runConsumer,
  testSecret,
  webhookDeps,
} from "../support/webhooks";

const data = { email: "ada@example.com", status: "pending" };
const ms = (iso: string | null) => Date.parse(iso!);
const down = () => new Response("unavailable", { status: 503 });

beforeEach(resetWebhooks);

describe("webhooks: retries and backoff", () => {
  it("retries a failure after the schedule's first step (5 s ±10%), pausing the endpoint until then, and kicks the queue for it", async () => {
    const { deps, now, kicks } = webhookDeps();
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/down";
    receivers.answer(url, down);
    const endpoint = await addEndpoint(deps, { url, secret: testSecret() });
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
    await runConsumer(deps);
    const [row] = await deliveriesOf(endpoint);
    expect(row).toMatchObject({ status: "pending", attempts: 1, last_status: 503, last_error: "HTTP 503", last_answer: "unavailable" });
    const wait = ms(row!.next_at) - now().getTime();
    expect(wait).toBeGreaterThanOrEqual(4500);
    expect(wait).toBeLessThanOrEqual(5500);
    const e = await endpointRow(endpoint);
    expect(e).toMatchObject({ failure_run: 1, failing_since: now().toISOString(), paused_until: row!.next_at, enabled: 1 });
    expect(kicks.at(-1)!.delaySeconds).toBeGreaterThanOrEqual(5);
    expect(kicks.at(-1)!.delaySeconds).toBeLessThanOrEqual(6);
  });

  it("follows the whole schedule with jitter, then the delivery is dead (a dead letter) after WEBHOOK_MAX_ATTEMPTS", async () => {
    const { deps, now, advance } = webhookDeps();
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/always-down";
    receivers.answer(url, down);
    const endpoint = await addEndpoint(deps, { url, secret: testSecret() });
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt++) {
      await runConsumer(deps);
      const [row] = await deliveriesOf(endpoint);
      expect(row!.attempts).toBe(attempt);
      if (attempt === 10) {
        expect(row!.status).toBe("dead");
        break;
      }
      waits.push((ms(row!.next_at) - now().getTime()) / 1000);
      // Keep the endpoint from being disabled by its failure run, to see the schedule out.
      await execute("update hwh_webhook_endpoints set failing_since = ? where id = ?", now().toISOString(), endpoint);
      advance(new Date(ms(row!.next_at)));
    }
    expect(receivers.to(url)).toHaveLength(10);
    waits.forEach((wait, i) => {
      const step = WEBHOOK_RETRY_SCHEDULE_SECONDS[i]!;
      expect(wait).toBeGreaterThanOrEqual(step * 0.9 - 1);
      expect(wait).toBeLessThanOrEqual(step * 1.1 + 1);
    });
  });

  it("a down receiver gets one probe per step, not one call per event: its other deliveries wait, unattempted", async () => {
    const { deps, now, advance } = webhookDeps();
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/probed";
    receivers.answer(url, down);
    const endpoint = await addEndpoint(deps, { url, secret: testSecret() });
    await addEvent(deps, { type: "waitlist.joined", person: "first@example.com", data }, [endpoint]);
    await runConsumer(deps);
    for (const person of ["a@example.com", "b@example.com", "c@example.com"])
      await addEvent(deps, { type: "waitlist.joined", person, data }, [endpoint]);
    await runConsumer(deps);
    expect(receivers.to(url)).toHaveLength(1);
    advance(new Date(ms((await endpointRow(endpoint)).paused_until)));
    await runConsumer(deps);
    expect(receivers.to(url)).toHaveLength(2);
    expect((await deliveriesOf(endpoint)).map((d) => d.attempts)).toEqual([2, 0, 0, 0]);
  });

  it("lets go of a run's other deliveries to an endpoint whose call failed, unattempted", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/down-in-a-run";
    receivers.answer(url, down);
    const endpoint = await addEndpoint(deps, { url, secret: testSecret() });
    for (let i = 0; i < 20; i++) await addEvent(deps, { type: "waitlist.joined", person: `p${i}@example.com`, data }, [endpoint]);
    await runConsumer(deps);
    expect(receivers.to(url).length).toBeLessThanOrEqual(6);
    const rows = await deliveriesOf(endpoint);
    const untried = rows.filter((d) => d.attempts === 0);
    expect(untried.length).toBeGreaterThanOrEqual(14);
    expect(untried.every((d) => d.claim === null && d.locked_until === null && d.last_at === null && d.status === "pending")).toBe(true);
    expect((await endpointRow(endpoint)).failure_run).toBe(rows.length - untried.length);
  });

  it("honours a 429's Retry-After in seconds and as an HTTP date, capped at 24 hours", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const cases: [string, string, number][] = [
      ["https://crm.example.com/429-seconds", "120", 120],
      ["https://crm.example.com/429-date", new Date(now().getTime() + 3600_000).toUTCString(), 3600],
      ["https://crm.example.com/429-long", "999999", 24 * 3600],
    ];
    for (const [url, retryAfter, expected] of cases) {
      receivers.answer(url, () => new Response("slow down", { status: 429, headers: { "Retry-After": retryAfter } }));
      const endpoint = await addEndpoint(deps, { url, secret: testSecret() });
      await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
      await runConsumer(deps);
      const [row] = await deliveriesOf(endpoint);
      expect(row!.last_status).toBe(429);
      expect(Math.abs((ms(row!.next_at) - now().getTime()) / 1000 - expected)).toBeLessThanOrEqual(1);
      expect((await endpointRow(endpoint)).paused_until).toBe(row!.next_at);
    }
  });

  it("a 429's Retry-After pauses the endpoint even when another call of the same run succeeded", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/busy";
    let calls = 0;
    receivers.answer(url, () =>
      ++calls === 1 ? new Response("slow down", { status: 429, headers: { "Retry-After": "20" } }) : new Response("ok"),
    );
    const endpoint = await addEndpoint(deps, { url, secret: testSecret() });
    for (const person of ["ada@example.com", "bob@example.com", "cy@example.com"])
      await addEvent(deps, { type: "waitlist.joined", person, data }, [endpoint]);
    await runConsumer(deps);
    expect(calls).toBeGreaterThanOrEqual(2);
    const statuses = (await deliveriesOf(endpoint)).map((row) => row.last_status);
    expect(statuses).toContain(429);
    expect(statuses).toContain(200);
    const paused = (await endpointRow(endpoint)).paused_until;
    expect(paused).not.toBeNull();
    expect(ms(paused!) - now().getTime()).toBeGreaterThanOrEqual(19_000);
  });

  it("disables the endpoint on 410 Gone, keeps the delivery pending, and sends it once the endpoint is enabled again", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/gone";
    let gone = true;
    receivers.answer(url, () => (gone ? new Response("gone", { status: 410 }) : new Response("ok")));
    const endpoint = await addEndpoint(deps, { url, secret: testSecret() });
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
    await runConsumer(deps);
    const row = await endpointRow(endpoint);
    expect(row.enabled).toBe(0);
    expect(row.disabled_reason).toMatch(/^The receiver answered 410 Gone on \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/);
    expect(row.disabled_at).toBe(now().toISOString());
    expect((await deliveriesOf(endpoint))[0]).toMatchObject({ status: "pending", last_status: 410 });
    await addEvent(deps, { type: "waitlist.joined", person: "bob@example.com", data }, [endpoint]);
    await runConsumer(deps);
    expect(receivers.to(url)).toHaveLength(1);
    gone = false;
    await execute("update hwh_webhook_endpoints set enabled = 1, disabled_reason = null, disabled_at = null where id = ?", endpoint);
    await runConsumer(deps);
    expect((await deliveriesOf(endpoint)).map((d) => d.status)).toEqual(["delivered", "delivered"]);
  });

  it("disables the endpoint after a run of failures (10 in a row, failing for 24 hours), naming the run and the last error", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/failing";
    receivers.answer(url, () => new Response("boom", { status: 500 }));
    const endpoint = await addEndpoint(deps, { url, secret: testSecret() });
    const since = new Date(now().getTime() - 25 * 3600_000).toISOString();
    await execute("update hwh_webhook_endpoints set failure_run = 9, failing_since = ? where id = ?", since, endpoint);
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
    await runConsumer(deps);
    const row = await endpointRow(endpoint);
    expect(row.enabled).toBe(0);
    expect(row.disabled_reason).toBe(`Disabled after 10 failed attempts in a row since ${since}; the last: HTTP 500.`);
    expect((await deliveriesOf(endpoint))[0]!.status).toBe("pending");
  });

  it("does not disable a failing endpoint before its failures have lasted 24 hours", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/failing-briefly";
    receivers.answer(url, () => new Response("boom", { status: 500 }));
    const endpoint = await addEndpoint(deps, { url, secret: testSecret() });
    await execute(
      "update hwh_webhook_endpoints set failure_run = 20, failing_since = ? where id = ?",
      new Date(now().getTime() - 3600_000).toISOString(),
      endpoint,
    );
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
    await runConsumer(deps);
    expect(await endpointRow(endpoint)).toMatchObject({ enabled: 1, failure_run: 21 });
  });
});
