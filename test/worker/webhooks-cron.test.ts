import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { runWebhookCron } from "../../worker/features/webhooks";
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

const eventRow = (id: number) =>
  env.DB.prepare("select person, payload from hwh_webhook_events where id = ?")
    .bind(id)
    .first<{ person: string | null; payload: string }>();

beforeEach(resetWebhooks);

describe("webhooks: the cron", () => {
  it("kicks the queue when a delivery is due or its lease lapsed, and not while nothing is due", async () => {
    const { deps, now, kicks, advance } = webhookDeps();
    const endpoint = await addEndpoint(deps, { url: "https://crm.example.com/cron", secret: testSecret() });
    await runWebhookCron(deps);
    expect(kicks).toHaveLength(0);
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data: {} }, [endpoint]);
    const leased = new Date(now().getTime() + 60_000).toISOString();
    await execute("update hwh_webhook_deliveries set claim = 'a-run', locked_until = ?", leased);
    await runWebhookCron(deps);
    expect(kicks).toHaveLength(0);
    advance(61_000);
    await runWebhookCron(deps);
    expect(kicks).toEqual([{ body: { type: "due" }, delaySeconds: undefined }]);
    await execute("update hwh_webhook_endpoints set paused_until = ?", new Date(now().getTime() + 60_000).toISOString());
    await runWebhookCron(deps);
    expect(kicks).toHaveLength(1);
  });

  it("forgets a rotated secret once its overlap has ended", async () => {
    const { deps, now } = webhookDeps();
    const overlapping = await addEndpoint(deps, {
      url: "https://crm.example.com/rotating",
      secret: testSecret(),
      previousSecret: testSecret(),
      previousSecretUntil: new Date(now().getTime() + 60_000),
    });
    const ended = await addEndpoint(deps, {
      url: "https://crm.example.com/rotated",
      secret: testSecret(),
      previousSecret: testSecret(),
      previousSecretUntil: new Date(now().getTime() - 1),
    });
    await runWebhookCron(deps);
    expect((await endpointRow(overlapping)).previous_secret).not.toBeNull();
    expect(await endpointRow(ended)).toMatchObject({ previous_secret: null, previous_secret_until: null });
  });

  it("takes the address out of a person.erased event once none of its deliveries is pending", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const up = await addEndpoint(deps, { url: "https://crm.example.com/erase-up", secret: testSecret() });
    const downUrl = "https://crm.example.com/erase-down";
    receivers.answer(downUrl, () => new Response("down", { status: 503 }));
    const down = await addEndpoint(deps, { url: downUrl, secret: testSecret() });
    const person = "erased@example.com";
    const { eventId } = await addEvent(deps, { type: "person.erased", person, data: { email: person, erased_at: now().toISOString() } }, [
      up,
      down,
    ]);
    await runConsumer(deps);
    await runWebhookCron(deps);
    expect(await eventRow(eventId)).toMatchObject({ person });
    await execute("update hwh_webhook_deliveries set status = 'dead' where endpoint_id = ?", down);
    await runWebhookCron(deps);
    expect(await eventRow(eventId)).toEqual({ person: null, payload: "{}" });
    expect([...(await deliveriesOf(up)), ...(await deliveriesOf(down))].map((d) => d.person)).toEqual([null, null]);
  });
});
