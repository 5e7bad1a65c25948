import { beforeEach, describe, expect, it } from "vitest";
import { sealSecret } from "../../worker/features/webhooks/secrets";
import { runWebhooks } from "../../worker/features/webhooks/run";
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
import worker from "../../worker/index";
import { brokenDatabase, syntheticBatch, testEnv } from "../support/worker";

const data = { email: "ada@example.com", status: "pending" };

beforeEach(resetWebhooks);

describe("webhooks: the consumer's runs", () => {
  it("records a success: delivered with its answer, the endpoint's failure run cleared and its last success; a consumer batch's messages acked", async () => {
    const { deps, now, kicks } = webhookDeps();
    fakeReceivers(now);
    const endpoint = await addEndpoint(deps, { url: "https://crm.example.com/ok", secret: testSecret() });
    await execute("update hwh_webhook_endpoints set failure_run = 3, failing_since = ? where id = ?", now().toISOString(), endpoint);
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
    const entry = await runConsumer(deps);
    expect(entry.acked).toBe(1);
    const [row] = await deliveriesOf(endpoint);
    expect(row).toMatchObject({ status: "delivered", attempts: 1, last_status: 200, last_answer: "ok", last_error: null, claim: null });
    expect(row!.delivered_at).toBe(now().toISOString());
    expect(await endpointRow(endpoint)).toMatchObject({ failure_run: 0, failing_since: null, last_success_at: now().toISOString() });
    expect(kicks).toHaveLength(0);
  });

  it("runs through the worker's own queue handler for the webhooks queue", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const endpoint = await addEndpoint(deps, { url: "https://crm.example.com/through-worker", secret: testSecret() });
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
    const { batch, entry } = syntheticBatch("homework-helper-webhooks", [{ type: "due" }, { type: "due" }]);
    await worker.queue(batch, testEnv());
    expect(entry.acked).toBe(2);
    expect(receivers.calls).toHaveLength(1);
    expect((await deliveriesOf(endpoint))[0]!.status).toBe("delivered");
  });

  it("a lane claims its endpoint's next batch in the same run until nothing is due (batch size 2, three events: one run, no kick)", async () => {
    const { deps, now, kicks } = webhookDeps({ WEBHOOK_BATCH_SIZE: "2" });
    const receivers = fakeReceivers(now);
    const endpoint = await addEndpoint(deps, { url: "https://crm.example.com/full", secret: testSecret() });
    for (const person of ["a@example.com", "b@example.com", "c@example.com"])
      await addEvent(deps, { type: "waitlist.joined", person, data }, [endpoint]);
    const report = await runWebhooks(deps);
    expect(receivers.calls).toHaveLength(3);
    expect(report).toMatchObject({ claimed: 3, delivered: 3, lanes: 1, budgetSpent: false });
    // The run's claim (2), its record, the lane's claim (1), its record: nothing more was due.
    expect(report.dbCalls).toBe(4);
    expect(kicks).toEqual([]);
    expect((await deliveriesOf(endpoint)).map((d) => d.status)).toEqual(["delivered", "delivered", "delivered"]);
  });

  it("keeps at most six calls in flight", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    let inFlight = 0;
    let most = 0;
    const endpoints: number[] = [];
    for (let i = 0; i < 15; i++) {
      const url = `https://crm${i}.example.com/slow`;
      receivers.answer(url, async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight -= 1;
        return new Response("ok");
      });
      endpoints.push(await addEndpoint(deps, { url, secret: testSecret() }));
    }
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, endpoints);
    await runConsumer(deps);
    expect(receivers.calls).toHaveLength(15);
    expect(most).toBeLessThanOrEqual(6);
    expect(most).toBeGreaterThan(1);
  });

  it("never claims a delivery another run holds (its lease has not lapsed), and claims it once the lease lapses", async () => {
    const { deps, now, advance } = webhookDeps();
    const receivers = fakeReceivers(now);
    const endpoint = await addEndpoint(deps, { url: "https://crm.example.com/leased", secret: testSecret() });
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
    const until = new Date(now().getTime() + 60_000).toISOString();
    await execute("update hwh_webhook_deliveries set claim = 'another-run', locked_until = ? where endpoint_id = ?", until, endpoint);
    await runConsumer(deps);
    expect(receivers.calls).toHaveLength(0);
    advance(61_000);
    await runConsumer(deps);
    expect(receivers.calls).toHaveLength(1);
    expect((await deliveriesOf(endpoint))[0]!.status).toBe("delivered");
  });

  it("records an outcome only while the claim is still the run's own (a lapsed lease taken by another run is left alone)", async () => {
    const { deps, now } = webhookDeps();
    const endpoint = await addEndpoint(deps, { url: "https://crm.example.com/taken-over", secret: testSecret() });
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
    const run = { limit: 100, dayStart: now() };
    const first = await deps.repo.webhooks.claimDue({
      ...run,
      claim: "slow-run",
      now: now(),
      leaseUntil: new Date(now().getTime() + 1000),
    });
    const later = new Date(now().getTime() + 2000);
    const second = await deps.repo.webhooks.claimDue({
      ...run,
      claim: "next-run",
      now: later,
      leaseUntil: new Date(later.getTime() + 60_000),
    });
    expect(first.deliveries.map((d) => d.id)).toEqual(second.deliveries.map((d) => d.id));
    const id = first.deliveries[0]!.id;
    await deps.repo.webhooks.recordRun({
      claim: "slow-run",
      now: later,
      deliveries: [
        { id, result: "failed", status: 500, error: "HTTP 500", answer: "", at: later, nextAt: new Date(later.getTime() + 5000) },
      ],
      endpoints: [
        {
          id: endpoint,
          successAt: null,
          failures: 1,
          firstFailureAt: later,
          pausedUntil: new Date(later.getTime() + 5000),
          lastError: "HTTP 500",
          disable: null,
        },
      ],
    });
    expect((await deliveriesOf(endpoint))[0]).toMatchObject({ status: "pending", attempts: 0, claim: "next-run", last_status: null });
    expect(await endpointRow(endpoint)).toMatchObject({ failure_run: 0, paused_until: null });
  });

  it("disables an endpoint whose address is refused at delivery time; its delivery stays pending, nothing is called", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    receivers.resolve("crm-rebound.example.com", "169.254.169.254");
    const endpoint = await addEndpoint(deps, { url: "https://crm-rebound.example.com/hook", secret: testSecret() });
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
    await runConsumer(deps);
    expect(receivers.calls).toHaveLength(0);
    const row = await endpointRow(endpoint);
    expect(row.enabled).toBe(0);
    expect(row.disabled_reason).toMatch(/refused.*metadata/);
    expect((await deliveriesOf(endpoint))[0]).toMatchObject({ status: "pending", attempts: 0, claim: null });
  });

  it("retries, without disabling the endpoint, when the receiver's name cannot be resolved (the resolver may be passing trouble)", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    receivers.resolve("crm-unresolved.example.com", "");
    const endpoint = await addEndpoint(deps, { url: "https://crm-unresolved.example.com/hook", secret: testSecret() });
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
    await runConsumer(deps);
    expect(receivers.calls).toHaveLength(0);
    expect(await endpointRow(endpoint)).toMatchObject({ enabled: 1, failure_run: 1 });
    const [row] = await deliveriesOf(endpoint);
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row!.last_error).toMatch(/^refused: .*could not be resolved/);
  });

  it("makes a delivery whose stored event is not JSON a dead letter at once, leaving its endpoint alone", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const endpoint = await addEndpoint(deps, { url: "https://crm.example.com/damaged", secret: testSecret() });
    const { eventId } = await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
    await execute("update hwh_webhook_events set payload = '{not json' where id = ?", eventId);
    await addEvent(deps, { type: "waitlist.joined", person: "bob@example.com", data }, [endpoint]);
    await runConsumer(deps);
    expect(receivers.calls).toHaveLength(1);
    const rows = await deliveriesOf(endpoint);
    expect(rows[0]).toMatchObject({ status: "dead", last_error: "not sent: the event's stored data is not JSON" });
    expect(rows[1]!.status).toBe("delivered");
    expect(await endpointRow(endpoint)).toMatchObject({ enabled: 1, failure_run: 0 });
  });

  it("disables an endpoint whose sealed secret cannot be opened, with a clear reason, and never crashes", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const otherKey = await sealSecret(
      { ...deps.config.webhooks, secretsKey: "another-webhook-secrets-key-0123456789abcdef" },
      testSecret(),
    );
    const endpoint = await addEndpoint(deps, { url: "https://crm.example.com/sealed", sealed: otherKey });
    const healthy = await addEndpoint(deps, { url: "https://crm.example.com/healthy", secret: testSecret() });
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint, healthy]);
    const entry = await runConsumer(deps);
    expect(entry.acked).toBe(1);
    expect(receivers.calls.map((call) => call.url)).toEqual(["https://crm.example.com/healthy"]);
    const row = await endpointRow(endpoint);
    expect(row.enabled).toBe(0);
    expect(row.disabled_reason).toMatch(/secret cannot be opened/);
    expect((await deliveriesOf(endpoint))[0]!.status).toBe("pending");
    expect((await deliveriesOf(healthy))[0]!.status).toBe("delivered");
  });

  it("retries the batch's messages with a delay when the database fails (nothing is lost: the rows stay due)", async () => {
    const { deps } = webhookDeps({ DB: brokenDatabase() });
    const entry = await runConsumer(deps);
    expect(entry.acked).toBe(0);
    expect(entry.retried).toBe(1);
    expect(entry.retryDelays).toEqual([10]);
  });

  it("sends nothing and disables nothing while WEBHOOK_SECRETS_KEY is unset: the deliveries wait", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const endpoint = await addEndpoint(deps, { url: "https://crm.example.com/unkeyed", secret: testSecret() });
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
    const unkeyed = webhookDeps({ WEBHOOK_SECRETS_KEY: "" }, now());
    expect((await runConsumer(unkeyed.deps)).acked).toBe(1);
    expect(receivers.calls).toHaveLength(0);
    expect((await endpointRow(endpoint)).enabled).toBe(1);
    expect((await deliveriesOf(endpoint))[0]).toMatchObject({ status: "pending", claim: null });
  });

  it("acks a dead-letter batch and sends nothing (the rows stay due for the cron's kick)", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const endpoint = await addEndpoint(deps, { url: "https://crm.example.com/dlq", secret: testSecret() });
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data }, [endpoint]);
    const entry = await runConsumer(deps, "homework-helper-webhooks-dlq");
    expect(entry.acked).toBe(1);
    expect(receivers.calls).toHaveLength(0);
    expect((await deliveriesOf(endpoint))[0]!.status).toBe("pending");
  });
});
