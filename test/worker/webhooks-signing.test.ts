import { Webhook } from "standardwebhooks";
import { beforeEach, describe, expect, it } from "vitest";
import { signatureHeader } from "../../worker/features/webhooks/sign";
import {
  addEndpoint,
  addEvent,
  fakeReceivers,
  type Received,
  resetWebhooks,
  runConsumer,
  testSecret,
  webhookDeps,
} from "../support/webhooks";

const headersOf = (call: Received) => Object.fromEntries(call.headers.entries());
const verifies = (secret: string, call: Received) => {
  try {
    new Webhook(secret).verify(call.body, headersOf(call));
    return true;
  } catch {
    return false;
  }
};

const joined = {
  email: "ada@example.com",
  status: "pending",
  place: null,
  source: "hero",
  utm_source: "tiktok",
  utm_medium: null,
  utm_campaign: null,
  referrer_host: null,
  joined_at: "2026-12-05T10:00:00.000Z",
  confirmed_at: null,
};

beforeEach(resetWebhooks);

describe("webhooks: Standard Webhooks signatures", () => {
  it("signs each request so the standardwebhooks package verifies it, with the envelope, the attempt's timestamp, JSON and the product's User-Agent", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const secret = testSecret();
    const url = "https://crm.example.com/hooks/signing";
    const endpoint = await addEndpoint(deps, { url, secret });
    const { webhookIds } = await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data: joined }, [endpoint]);
    await runConsumer(deps);
    const [call] = receivers.to(url);
    expect(call).toBeDefined();
    expect(verifies(secret, call!)).toBe(true);
    expect(verifies(testSecret(), call!)).toBe(false);
    expect(call!.headers.get("webhook-id")).toBe(webhookIds.get(endpoint));
    expect(call!.headers.get("webhook-timestamp")).toBe(String(Math.floor(now().getTime() / 1000)));
    expect(call!.headers.get("content-type")).toBe("application/json");
    expect(call!.headers.get("user-agent")).toMatch(/HomeworkHelper/);
    const body = JSON.parse(call!.body) as { type: string; timestamp: string; data: unknown };
    expect(body).toEqual({ type: "waitlist.joined", timestamp: now().toISOString(), data: joined });
    expect(Object.keys(body)).toEqual(["type", "timestamp", "data"]);
  });

  it("signs with the new and the rotated secret while the rotation overlaps, then with the new one only", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const [fresh, old] = [testSecret(), testSecret()];
    const url = "https://crm.example.com/hooks/rotation";
    const overlapping = await addEndpoint(deps, {
      url,
      secret: fresh,
      previousSecret: old,
      previousSecretUntil: new Date(now().getTime() + 3600_000),
    });
    await addEvent(deps, { type: "waitlist.joined", person: "ada@example.com", data: joined }, [overlapping]);
    await runConsumer(deps);
    const [during] = receivers.to(url);
    expect(during!.headers.get("webhook-signature")!.split(" ")).toHaveLength(2);
    expect(verifies(fresh, during!)).toBe(true);
    expect(verifies(old, during!)).toBe(true);

    const afterUrl = "https://crm.example.com/hooks/rotated";
    const over = await addEndpoint(deps, {
      url: afterUrl,
      secret: fresh,
      previousSecret: old,
      previousSecretUntil: new Date(now().getTime() - 1000),
    });
    await addEvent(deps, { type: "waitlist.joined", person: "bob@example.com", data: joined }, [over]);
    await runConsumer(deps);
    const [after] = receivers.to(afterUrl);
    expect(after!.headers.get("webhook-signature")!.split(" ")).toHaveLength(1);
    expect(verifies(fresh, after!)).toBe(true);
    expect(verifies(old, after!)).toBe(false);
  });

  it("signatureHeader: one v1 entry per secret over id.timestamp.body with the secret's base64 bytes", async () => {
    const secret = testSecret();
    const header = await signatureHeader([secret], "msg_1", 1_700_000_000, '{"a":1}');
    expect(header).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).sign("msg_1", new Date(1_700_000_000_000), '{"a":1}')).toBe(header);
    await expect(signatureHeader(["not-a-secret"], "msg_1", 1, "{}")).rejects.toThrow(/whsec_/);
  });
});
