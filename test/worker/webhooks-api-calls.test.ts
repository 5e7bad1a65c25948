import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDeps } from "../../worker/deps";
import { checkWebhookUrl } from "../../worker/features/webhooks/url-guard";
import type { WebhookCreated, WebhookEndpointDetail, WebhookRetried, WebhookTestResult } from "../../worker/shared/webhooks";
import { auditText, deliveryRow, fakeNetwork, hooks, kicks, postHook, storeDelivery } from "../support/webhooks-operator";
import { testEnv } from "../support/worker";

type ErrorBody = { error: { code: string; message: string; field?: string } };
const STANDARD = { name: "CRM", url: "https://crm.example.com/hooks", kind: "standard", events: ["waitlist.joined"] };

async function create(body: Record<string, unknown> = STANDARD): Promise<WebhookCreated> {
  const response = await postHook("", body);
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json();
}

async function refusedAt(response: Response): Promise<string> {
  expect(response.status).toBe(400);
  const { error } = (await response.json()) as ErrorBody;
  expect(error).toMatchObject({ code: "validation_failed", field: "url" });
  return error.message;
}

afterEach(() => vi.restoreAllMocks());

/** Each spelling of an address the product must not call, refused at the field with its reason. */
const REFUSED: [string, RegExp][] = [
  ["http://crm.example.com/hooks", /must use https/],
  ["https://user:pass@crm.example.com/hooks", /user name or password/],
  ["https://127.0.0.1/", /loopback/],
  ["https://2130706433/", /loopback/],
  ["https://0x7f000001/", /loopback/],
  ["https://0177.0.0.1/", /loopback/],
  ["https://127.1/", /loopback/],
  ["https://127.0.0.1./", /loopback/],
  ["https://[::1]/", /loopback/],
  ["https://[::ffff:127.0.0.1]/", /loopback/],
  ["https://[::ffff:7f00:1]/", /loopback/],
  ["https://localhost/", /loopback/],
  ["https://app.localhost/", /loopback/],
  ["https://10.1.2.3/", /private network/],
  ["https://172.20.0.1/", /private network/],
  ["https://192.168.0.10/", /private network/],
  ["https://100.64.1.1/", /private network/],
  ["https://[fd00::1]/", /private network/],
  ["https://[64:ff9b::192.168.0.1]/", /private network/],
  ["https://[2002:a00:1::]/", /private network/],
  ["https://169.254.10.10/", /link-local/],
  ["https://[fe80::1]/", /link-local/],
  ["https://169.254.169.254/latest/meta-data/", /metadata/],
  ["https://[fd00:ec2::254]/", /metadata/],
  ["https://metadata.google.internal/", /metadata/],
  ["https://0.0.0.0/", /reserved/],
  ["https://224.0.0.1/", /reserved/],
  ["https://255.255.255.255/", /reserved/],
  ["https://db.internal/", /internal host/],
  ["https://printer.local/", /internal host/],
];

describe("webhook addresses the product must not call: 400 at the url field", () => {
  for (const [url, reason] of REFUSED) {
    it(`refuses ${url}`, async () => {
      const network = fakeNetwork();
      expect(await refusedAt(await postHook("", { ...STANDARD, url }))).toMatch(reason);
      expect(network.received).toEqual([]);
    });
  }

  it("refuses a changed address the same way (PATCH)", async () => {
    fakeNetwork();
    const { endpoint } = await create();
    expect(await refusedAt(await hooks(`/${endpoint.id}`, { method: "PATCH", body: { url: "https://0xa9fea9fe/" } }))).toMatch(/metadata/);
  });

  it("refuses a name whose DNS answers point to a private address (A or AAAA)", async () => {
    fakeNetwork({ "10.0.0.7.nip.io": "10.0.0.7", "sneaky.example.com": "::ffff:192.168.1.1" });
    expect(await refusedAt(await postHook("", { ...STANDARD, url: "https://10.0.0.7.nip.io/hook" }))).toBe(
      "The address's host name resolves to a private network.",
    );
    expect(await refusedAt(await postHook("", { ...STANDARD, url: "https://sneaky.example.com/hook" }))).toMatch(/private network/);
  });

  it("refuses a name that does not resolve (failing closed)", async () => {
    fakeNetwork({ "gone.example.com": "none" });
    expect(await refusedAt(await postHook("", { ...STANDARD, url: "https://gone.example.com/hook" }))).toMatch(/could not be resolved/);
  });

  it("allows http://127.0.0.1:<port> and http://localhost:<port> in development", async () => {
    fakeNetwork();
    for (const url of ["http://127.0.0.1:8787/hook", "http://localhost:3000/hook"])
      expect((await create({ ...STANDARD, url })).endpoint.url).toBe(url);
  });

  it("refuses them in production (ENVIRONMENT=production)", async () => {
    fakeNetwork();
    const deps = createDeps(testEnv({ ENVIRONMENT: "production" }));
    expect(deps.config.isDevelopment).toBe(false);
    expect(await checkWebhookUrl(deps, "http://127.0.0.1:8787/hook")).toEqual({ ok: false, reason: "The address must use https." });
    expect(await checkWebhookUrl(deps, "http://localhost:3000/hook")).toEqual({ ok: false, reason: "The address must use https." });
  });
});

describe("webhook test event", () => {
  it("sends a signed webhook.test event and answers the receiver's status and first bytes; nothing is stored", async () => {
    const network = fakeNetwork();
    const { endpoint } = await create();
    network.answer(STANDARD.url, () => new Response(`teapot ${"x".repeat(2000)}`, { status: 418 }));
    const count = () =>
      env.DB.prepare("select (select count(*) from hwh_webhook_events) + (select count(*) from hwh_webhook_deliveries) as n").first<{
        n: number;
      }>();
    const before = await count();
    const result = (await (await hooks(`/${endpoint.id}/test`, { method: "POST" })).json()) as WebhookTestResult;
    expect(result).toMatchObject({ ok: false, status: 418, error: "HTTP 418" });
    expect(result.answer.startsWith("teapot x")).toBe(true);
    expect(result.answer).toHaveLength(512);
    const sent = network.received.at(-1);
    expect(JSON.parse(String(sent?.body))).toMatchObject({ type: "webhook.test", data: { endpoint: "CRM" } });
    expect(sent?.headers.get("webhook-id")).toMatch(/^msg_/);
    expect(await count()).toEqual(before);
  });

  it("sends a Slack endpoint a short text to its whole (unmasked) address", async () => {
    const network = fakeNetwork();
    const url = "https://hooks.slack.com/services/T01/B02/tokenXYZ";
    const { endpoint } = await create({ name: "Launch", url, kind: "slack", events: ["waitlist.joined"] });
    const result = (await (await hooks(`/${endpoint.id}/test`, { method: "POST" })).json()) as WebhookTestResult;
    expect(result).toMatchObject({ ok: true, status: 200, answer: "ok" });
    expect(network.received.at(-1)?.url).toBe(url);
    expect(JSON.parse(String(network.received.at(-1)?.body))).toEqual({ text: expect.stringContaining("Launch") });
  });

  it("answers why, and sends nothing, when the stored secret cannot be opened (another WEBHOOK_SECRETS_KEY)", async () => {
    const network = fakeNetwork();
    const { endpoint } = await create();
    await env.DB.prepare("update hwh_webhook_endpoints set secret = 'a.b.c.d.e' where id = ?").bind(endpoint.id).run();
    const result = (await (await hooks(`/${endpoint.id}/test`, { method: "POST" })).json()) as WebhookTestResult;
    expect(result).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/cannot be opened/) });
    expect(network.received).toEqual([]);
  });
});

describe("webhook deliveries and dead letters", () => {
  it("reads the recent deliveries newest first, and the dead letters", async () => {
    fakeNetwork();
    const { endpoint } = await create();
    const ids = [
      await storeDelivery(endpoint.id, "delivered"),
      await storeDelivery(endpoint.id, "dead"),
      await storeDelivery(endpoint.id, "pending"),
    ];
    const detail = (await (await hooks(`/${endpoint.id}`)).json()) as WebhookEndpointDetail;
    expect(detail.deliveries.map((d) => d.id)).toEqual([...ids].reverse());
    expect(detail.deliveries[0]).toMatchObject({ event_type: "waitlist.joined", status: "pending" });
    expect(detail.dead.map((d) => d.id)).toEqual([ids[1]]);
    expect(detail.endpoint).toMatchObject({ pending: 1, dead: 1 });
  });

  it("retries one dead letter: pending, no attempts, due now, the queue kicked, audited", async () => {
    fakeNetwork();
    const { endpoint } = await create();
    const [one, two] = [await storeDelivery(endpoint.id, "dead"), await storeDelivery(endpoint.id, "dead")];
    const before = kicks.length;
    const response = await postHook(`/${endpoint.id}/dead-letters/retry`, { ids: [one] });
    expect((await response.json()) as WebhookRetried).toEqual({ retried: 1 });
    expect(await deliveryRow(one)).toMatchObject({ status: "pending", attempts: 0, claim: null });
    expect(Math.abs(Date.parse(String((await deliveryRow(one))?.next_at)) - Date.now())).toBeLessThan(60_000);
    expect((await deliveryRow(two))?.status).toBe("dead");
    expect(kicks.length).toBe(before + 1);
    expect(await auditText()).toContain("webhook.dead_letters_retried");
  });

  it("retries all of an endpoint's dead letters (no body), and none of another endpoint's", async () => {
    fakeNetwork();
    const { endpoint } = await create();
    const { endpoint: other } = await create({ ...STANDARD, name: "Other" });
    const mine = [await storeDelivery(endpoint.id, "dead"), await storeDelivery(endpoint.id, "dead")];
    const theirs = await storeDelivery(other.id, "dead");
    const delivered = await storeDelivery(endpoint.id, "delivered");
    const response = await hooks(`/${endpoint.id}/dead-letters/retry`, { method: "POST" });
    expect((await response.json()) as WebhookRetried).toEqual({ retried: 2 });
    for (const id of mine) expect((await deliveryRow(id))?.status).toBe("pending");
    expect((await deliveryRow(theirs))?.status).toBe("dead");
    expect((await deliveryRow(delivered))?.status).toBe("delivered");
    const named = await postHook(`/${endpoint.id}/dead-letters/retry`, { ids: [theirs] });
    expect((await named.json()) as WebhookRetried).toEqual({ retried: 0 });
  });

  it("refuses ids that are not a list of delivery ids", async () => {
    fakeNetwork();
    const { endpoint } = await create();
    const response = await postHook(`/${endpoint.id}/dead-letters/retry`, { ids: ["all"] });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error).toMatchObject({ code: "validation_failed", field: "ids" });
  });
});
