import { beforeEach, describe, expect, it } from "vitest";
import {
  addEndpoint,
  addEvent,
  deliveriesOf,
  fakeReceivers,
  resetWebhooks,
  runConsumer,
  testSecret,
  webhookDeps,
} from "../support/webhooks";

beforeEach(resetWebhooks);

describe("webhooks: in order per person", () => {
  it("a receiver down for an hour gets every event afterwards, once each by id, in order per person", async () => {
    const start = new Date("2026-12-05T10:00:00.000Z");
    const { deps, now, advance, kicks } = webhookDeps({}, start);
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/down-for-an-hour";
    const upAt = start.getTime() + 3600_000;
    const answered: { webhookId: string; ok: boolean }[] = [];
    receivers.answer(url, (call) => {
      const ok = call.at.getTime() >= upAt;
      answered.push({ webhookId: call.headers.get("webhook-id")!, ok });
      return ok ? new Response("ok") : new Response("down", { status: 503 });
    });
    const endpoint = await addEndpoint(deps, { url, secret: testSecret() });
    const people = ["ana@example.com", "ben@example.com", "cy@example.com"];
    // Twelve events over the first 40 minutes, the three people's interleaved.
    const planned = Array.from({ length: 12 }, (_, i) => ({ at: start.getTime() + i * 200_000, person: people[i % 3]! }));
    const eventIds = new Map<string, number>();
    let added = 0;
    let kicksSeen = 0;
    for (let round = 0; round < 200; round++) {
      while (added < planned.length && planned[added]!.at <= now().getTime()) {
        const { person } = planned[added]!;
        const { eventId, webhookIds } = await addEvent(deps, { type: "waitlist.joined", person, data: { email: person, n: added } }, [
          endpoint,
        ]);
        eventIds.set(webhookIds.get(endpoint)!, eventId);
        added += 1;
      }
      await runConsumer(deps);
      const pending = (await deliveriesOf(endpoint)).filter((d) => d.status !== "delivered");
      if (added === planned.length && pending.length === 0) break;
      const kick = kicks.length > kicksSeen ? kicks.at(-1)! : null;
      kicksSeen = kicks.length;
      // The next kick's delay (none: the next write's, or the cron's within 5 minutes).
      const wait = kick ? (kick.delaySeconds ?? 0) * 1000 : 300_000;
      const nextEvent = added < planned.length ? planned[added]!.at : Number.POSITIVE_INFINITY;
      advance(new Date(Math.min(now().getTime() + wait, nextEvent)));
    }
    const rows = await deliveriesOf(endpoint);
    expect(rows.map((d) => d.status)).toEqual(Array(12).fill("delivered"));
    const delivered = answered.filter((a) => a.ok).map((a) => a.webhookId);
    expect(delivered).toHaveLength(12);
    expect(new Set(delivered).size).toBe(12);
    expect(answered.filter((a) => !a.ok).length).toBeGreaterThan(0);
    expect(answered.filter((a) => !a.ok).length).toBeLessThanOrEqual(8);
    for (const person of people) {
      const theirs = rows.filter((d) => d.person === person).map((d) => d.webhook_id);
      const order = delivered.filter((id) => theirs.includes(id)).map((id) => eventIds.get(id)!);
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(order).toHaveLength(4);
    }
    // Each attempt is stamped with its own time (the attempt's, not the event's).
    const last = receivers.to(url).at(-1)!;
    expect(Number(last.headers.get("webhook-timestamp"))).toBe(Math.floor(last.at.getTime() / 1000));
  });
});
