import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { RUN_BUDGET_MS, runWebhooks, SUBREQUEST_BUDGET } from "../../worker/features/webhooks/run";
import { Slots } from "../../worker/features/webhooks/slots";
import {
  addEndpoint,
  addEvent,
  deliveriesOf,
  endpointRow,
  execute,
  fakeReceivers,
  resetWebhooks,
  testSecret,
  webhookDeps,
} from "../support/webhooks";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ok = () => new Response("ok");

beforeEach(resetWebhooks);

/** Stores `n` events of different people, each with one delivery per endpoint. */
async function events(deps: ReturnType<typeof webhookDeps>["deps"], n: number, endpoints: number[]) {
  for (let i = 0; i < n; i++) {
    const person = `p${i}@example.com`;
    await addEvent(deps, { type: "waitlist.joined", person, data: { email: person } }, endpoints);
  }
}

async function deliveredCount(endpoint: number): Promise<number> {
  const row = await env.DB.prepare("select count(*) as n from hwh_webhook_deliveries where endpoint_id = ? and status = 'delivered'")
    .bind(endpoint)
    .first<{ n: number }>();
  return row!.n;
}

describe("webhooks: one lane per endpoint", () => {
  it("a slow endpoint does not hold back a healthy one: the healthy lane delivers its whole backlog, over several claims, while the slow one is still answering", async () => {
    const { deps } = webhookDeps({ WEBHOOK_BATCH_SIZE: "4" });
    const receivers = fakeReceivers();
    const slowUrl = "https://slow.example.com/hook";
    let healthyDoneAtFirstSlowAnswer: number | null = null;
    receivers.answer(slowUrl, async () => {
      await sleep(800);
      healthyDoneAtFirstSlowAnswer ??= await deliveredCount(healthy);
      return ok();
    });
    const slow = await addEndpoint(deps, { url: slowUrl, secret: testSecret() });
    const healthy = await addEndpoint(deps, { url: "https://crm.example.com/healthy", secret: testSecret() });
    await events(deps, 12, [slow, healthy]);
    const report = await runWebhooks(deps);
    // 12 deliveries, 4 a claim: the healthy lane claimed and recorded three batches before the
    // slow receiver's first answer came back.
    expect(healthyDoneAtFirstSlowAnswer).toBe(12);
    expect(report).toMatchObject({ lanes: 2, delivered: 24, claimed: 24, budgetSpent: false });
    expect((await deliveriesOf(slow)).every((d) => d.status === "delivered")).toBe(true);
    expect(receivers.to(slowUrl)).toHaveLength(12);
  });

  it("a failing endpoint's lane stops after its one probe while the healthy lane delivers everything", async () => {
    const { deps, now } = webhookDeps({ WEBHOOK_BATCH_SIZE: "3" });
    const receivers = fakeReceivers(now);
    const downUrl = "https://down.example.com/hook";
    receivers.answer(downUrl, () => new Response("down", { status: 503 }));
    const down = await addEndpoint(deps, { url: downUrl, secret: testSecret() });
    const healthy = await addEndpoint(deps, { url: "https://crm.example.com/healthy", secret: testSecret() });
    await execute("update hwh_webhook_endpoints set failure_run = 2, failing_since = ? where id = ?", now().toISOString(), down);
    await events(deps, 9, [down, healthy]);
    await runWebhooks(deps);
    expect(receivers.to(downUrl)).toHaveLength(1);
    expect(await deliveredCount(healthy)).toBe(9);
    expect((await endpointRow(down)).failure_run).toBe(3);
    expect((await endpointRow(down)).paused_until! > now().toISOString()).toBe(true);
  });

  it("shares the six connections: never more than six in flight, a slow lane at most its share while others run", async () => {
    const { deps } = webhookDeps({ WEBHOOK_BATCH_SIZE: "10" });
    const receivers = fakeReceivers();
    let total = 0;
    let most = 0;
    const perUrl = new Map<string, { now: number; most: number }>();
    const urls = ["https://slow-a.example.com/h", "https://slow-b.example.com/h", "https://slow-c.example.com/h"];
    for (const url of urls) {
      perUrl.set(url, { now: 0, most: 0 });
      receivers.answer(url, async () => {
        const mine = perUrl.get(url)!;
        total += 1;
        mine.now += 1;
        most = Math.max(most, total);
        mine.most = Math.max(mine.most, mine.now);
        await sleep(30);
        total -= 1;
        mine.now -= 1;
        return ok();
      });
    }
    const endpoints = [];
    for (const url of urls) endpoints.push(await addEndpoint(deps, { url, secret: testSecret() }));
    await events(deps, 10, endpoints);
    const report = await runWebhooks(deps);
    expect(report.delivered).toBe(30);
    expect(most).toBeLessThanOrEqual(6);
    expect(most).toBeGreaterThan(2);
    // Three lanes: two connections each; one that outlasts the others may get up to six.
    for (const url of urls) expect(perUrl.get(url)!.most).toBeGreaterThanOrEqual(2);
    expect(Math.min(...urls.map((url) => perUrl.get(url)!.most))).toBeLessThanOrEqual(2);
  });

  it("Slots: each of three lanes gets two of the six connections, a call waits for its lane's share, and a finished lane's share goes to the others", async () => {
    const slots = new Slots(6);
    for (const lane of [1, 2, 3]) slots.open(lane);
    const granted: number[] = [];
    const ask = async (lane: number) => {
      const release = await slots.acquire(lane);
      granted.push(lane);
      return release;
    };
    const firstOfOne = [ask(1), ask(1), ask(1), ask(1)];
    await sleep(0);
    expect(granted).toEqual([1, 1]);
    const others = [ask(2), ask(2), ask(3), ask(3), ask(3)];
    await sleep(0);
    expect(granted).toEqual([1, 1, 2, 2, 3, 3]);
    slots.close(2);
    await sleep(0);
    // Two lanes now: three each, still six in all (lane 2's calls hold theirs until they end).
    expect(granted).toEqual([1, 1, 2, 2, 3, 3]);
    for (const release of await Promise.all(others.slice(0, 2))) release();
    await sleep(0);
    expect(granted.filter((lane) => lane === 1)).toHaveLength(3);
    expect(granted.filter((lane) => lane === 3)).toHaveLength(3);
    expect(slots.most).toBe(6);
    expect(slots.mostPerLane.get(1)).toBe(3);
    for (const release of await Promise.all(firstOfOne.slice(0, 3))) release();
    await sleep(0);
    expect(granted.filter((lane) => lane === 1)).toHaveLength(4);
  });

  it("stops claiming once the run's time budget is spent, and kicks again at once", async () => {
    const { deps, now, advance, kicks } = webhookDeps({ WEBHOOK_BATCH_SIZE: "2" });
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/ten-seconds-each";
    // Each answer takes ten seconds on the run's clock; two calls go out at once.
    receivers.answer(url, () => {
      advance(10_000);
      return ok();
    });
    const endpoint = await addEndpoint(deps, { url, secret: testSecret() });
    await events(deps, 10, [endpoint]);
    expect(RUN_BUDGET_MS).toBe(25_000);
    const report = await runWebhooks(deps);
    // 0 s: claim two, 20 s: claim two more, 40 s: past the budget, no third claim.
    expect(report).toMatchObject({ claimed: 4, delivered: 4, budgetSpent: true });
    expect(await deliveredCount(endpoint)).toBe(4);
    expect(kicks).toEqual([{ body: { type: "due" }, delaySeconds: undefined }]);
    const rows = await deliveriesOf(endpoint);
    expect(rows.filter((d) => d.status === "pending").every((d) => d.claim === null && d.attempts === 0)).toBe(true);
  });

  it("starts no call once the budget is spent: the batch's rest is let go unattempted, and the run kicks again at once", async () => {
    const { deps, now, advance, kicks } = webhookDeps({ WEBHOOK_BATCH_SIZE: "10" });
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/thirty-seconds-each";
    receivers.answer(url, () => {
      advance(30_000);
      return ok();
    });
    const endpoint = await addEndpoint(deps, { url, secret: testSecret() });
    await events(deps, 10, [endpoint]);
    const report = await runWebhooks(deps);
    // One lane alone has all six connections: six calls started before the budget ran out.
    expect(receivers.to(url)).toHaveLength(6);
    expect(report).toMatchObject({ claimed: 10, delivered: 6, released: 4, budgetSpent: true, dbCalls: 2 });
    const untried = (await deliveriesOf(endpoint)).filter((d) => d.status === "pending");
    expect(untried).toHaveLength(4);
    expect(untried.every((d) => d.claim === null && d.locked_until === null && d.attempts === 0)).toBe(true);
    expect(kicks).toEqual([{ body: { type: "due" }, delaySeconds: undefined }]);
  });

  it("holds each claim past everything the run can still do: its budget, a call's timeout and DNS check, and a minute", async () => {
    const { deps, now } = webhookDeps({ WEBHOOK_BATCH_SIZE: "2" });
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/leases";
    let lockedUntil: string | null = null;
    receivers.answer(url, async () => {
      lockedUntil ??= (await deliveriesOf(endpoint))[0]!.locked_until;
      return ok();
    });
    const endpoint = await addEndpoint(deps, { url, secret: testSecret() });
    await events(deps, 1, [endpoint]);
    await runWebhooks(deps);
    const { timeoutMs } = deps.config.webhooks;
    expect(Date.parse(lockedUntil!) - now().getTime()).toBeGreaterThanOrEqual(RUN_BUDGET_MS + timeoutMs + 60_000);
  });

  it("two runs at once (the queue's concurrent invocations) never send one delivery twice", async () => {
    const { deps } = webhookDeps({ WEBHOOK_BATCH_SIZE: "3" });
    const receivers = fakeReceivers();
    const urls = ["https://a.example.com/h", "https://b.example.com/h"];
    for (const url of urls)
      receivers.answer(url, async () => {
        await sleep(5);
        return ok();
      });
    const endpoints = [];
    for (const url of urls) endpoints.push(await addEndpoint(deps, { url, secret: testSecret() }));
    await events(deps, 12, endpoints);
    const reports = await Promise.all([runWebhooks(deps), runWebhooks(deps)]);
    const ids = receivers.calls.map((call) => call.headers.get("webhook-id"));
    expect(ids).toHaveLength(24);
    expect(new Set(ids).size).toBe(24);
    expect(reports[0]!.delivered + reports[1]!.delivered).toBe(24);
  });

  it("makes two database calls per claimed batch: 100 deliveries to one endpoint in batches of 25 take eight (and no empty claim)", async () => {
    const { deps, now } = webhookDeps({ WEBHOOK_BATCH_SIZE: "25" });
    fakeReceivers(now);
    const endpoint = await addEndpoint(deps, { url: "https://crm.example.com/count", secret: testSecret() });
    await events(deps, 100, [endpoint]);
    const report = await runWebhooks(deps);
    expect(report).toMatchObject({ delivered: 100, dbCalls: 8 });
  });

  it("stops claiming before the run's subrequests (Workers' 1,000 per invocation) run out, and kicks again at once", async () => {
    const { deps, now, kicks } = webhookDeps();
    const receivers = fakeReceivers(now);
    const endpoint = await addEndpoint(deps, { url: "https://crm.example.com/many", secret: testSecret() });
    await events(deps, 500, [endpoint]);
    const report = await runWebhooks(deps);
    // Claims of 100, 100, 100, 100, then 45: each delivery a DNS check and a call, each batch a claim and a record.
    expect(report).toMatchObject({ claimed: 445, delivered: 445, dbCalls: 10, budgetSpent: true });
    expect(receivers.calls).toHaveLength(445);
    expect(report.dbCalls + 2 * receivers.calls.length).toBeLessThanOrEqual(SUBREQUEST_BUDGET);
    expect(kicks).toEqual([{ body: { type: "due" }, delaySeconds: undefined }]);
    expect(await deliveredCount(endpoint)).toBe(445);
  });
});
