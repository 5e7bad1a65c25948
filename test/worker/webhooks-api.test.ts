import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WebhookCreated, WebhookEndpointDetail, WebhookEndpointJson, WebhookTestResult } from "../../worker/shared/webhooks";
import { auditText, endpointRow, fakeNetwork, hooks, kicks, postHook } from "../support/webhooks-operator";

type ErrorBody = { error: { code: string; message: string; field?: string } };
const STANDARD = { name: "CRM", url: "https://crm.example.com/hooks", kind: "standard", events: ["waitlist.joined", "person.erased"] };
const SLACK_URL = "https://hooks.slack.com/services/T0123ABCD/B0456EFGH/abcdefSECRETtoken123";

async function create(body: Record<string, unknown> = STANDARD): Promise<WebhookCreated> {
  const response = await postHook("", body);
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json();
}

afterEach(() => vi.restoreAllMocks());

describe("webhook endpoints: create, read, change, delete", () => {
  it("adds a Standard endpoint (201) with its secret shown once, events in the listed order", async () => {
    fakeNetwork();
    const created = await create({ ...STANDARD, events: ["person.erased", "waitlist.joined", "waitlist.joined"] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.endpoint).toMatchObject({ name: "CRM", url: STANDARD.url, kind: "standard", enabled: true, pending: 0, dead: 0 });
    expect(created.endpoint.events).toEqual(["waitlist.joined", "person.erased"]);
  });

  it("lists endpoints and reads one, never with its secret; the stored column is sealed, not the secret", async () => {
    fakeNetwork();
    const { endpoint, secret } = await create();
    const list = (await (await hooks("")).json()) as WebhookEndpointJson[];
    expect(list.find((e) => e.id === endpoint.id)).toMatchObject({ name: "CRM", pending: 0, dead: 0 });
    const detail = (await (await hooks(`/${endpoint.id}`)).json()) as WebhookEndpointDetail;
    expect(detail).toMatchObject({ endpoint: { id: endpoint.id }, deliveries: [], dead: [] });
    const row = await endpointRow(endpoint.id);
    const secretBody = String(secret).slice("whsec_".length);
    for (const text of [JSON.stringify(list), JSON.stringify(detail), await auditText(), String(row?.secret)])
      expect(text).not.toContain(secretBody);
    expect(String(row?.secret).split(".")).toHaveLength(5);
  });

  it("stores a Slack endpoint's whole address sealed, shows it masked, and answers no secret", async () => {
    fakeNetwork();
    const created = await create({ name: "Launch channel", url: SLACK_URL, kind: "slack", events: ["waitlist.joined"] });
    expect(created.secret).toBeNull();
    expect(created.endpoint.url).toBe("https://hooks.slack.com/services/T…/…");
    const row = await endpointRow(created.endpoint.id);
    expect(JSON.stringify(row)).not.toContain("SECRETtoken");
    expect(await auditText()).not.toContain("SECRETtoken");
    expect(JSON.stringify(await (await hooks("")).json())).not.toContain("SECRETtoken");
  });

  it("changes a Slack endpoint's address alone: sealed again, shown masked, never in the audit", async () => {
    fakeNetwork();
    const { endpoint } = await create({ name: "Launch channel", url: SLACK_URL, kind: "slack", events: ["waitlist.joined"] });
    const newUrl = "https://hooks.slack.com/services/TNEW/BNEW/otherSECRETtoken";
    const response = await hooks(`/${endpoint.id}`, { method: "PATCH", body: { url: newUrl } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      name: "Launch channel",
      url: "https://hooks.slack.com/services/T…/…",
      events: ["waitlist.joined"],
    });
    expect(JSON.stringify(await endpointRow(endpoint.id))).not.toContain("otherSECRETtoken");
    expect(await auditText()).not.toContain("otherSECRETtoken");
  });

  it("refuses a bad name, kind or events at their fields", async () => {
    fakeNetwork();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...STANDARD, name: "" }, "name"],
      [{ ...STANDARD, name: "x".repeat(101) }, "name"],
      [{ ...STANDARD, kind: "teams" }, "kind"],
      [{ ...STANDARD, events: [] }, "events"],
      [{ ...STANDARD, events: ["waitlist.left"] }, "events"],
    ];
    for (const [body, field] of cases) {
      const response = await postHook("", body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as ErrorBody).error).toMatchObject({ code: "validation_failed", field });
    }
  });

  it("changes name, url and events (audited), and refuses a change of kind", async () => {
    fakeNetwork();
    const { endpoint } = await create();
    const response = await hooks(`/${endpoint.id}`, {
      method: "PATCH",
      body: { name: "CRM 2", url: "https://crm2.example.com/in", events: ["contact.received"] },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ name: "CRM 2", url: "https://crm2.example.com/in", events: ["contact.received"] });
    const kind = await hooks(`/${endpoint.id}`, { method: "PATCH", body: { kind: "slack" } });
    expect(kind.status).toBe(400);
    expect(await auditText()).toContain("webhook.changed");
  });

  it("disables (the console says why) and enables: the failure run and pause cleared, the queue kicked", async () => {
    fakeNetwork();
    const { endpoint } = await create();
    const disabled = (await (await hooks(`/${endpoint.id}/disable`, { method: "POST" })).json()) as WebhookEndpointJson;
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: "Disabled by an operator." });
    const { env } = await import("cloudflare:workers");
    await env.DB.prepare("update hwh_webhook_endpoints set failure_run = 4, paused_until = '2999-01-01T00:00:00.000Z' where id = ?")
      .bind(endpoint.id)
      .run();
    const before = kicks.length;
    const enabled = (await (await hooks(`/${endpoint.id}/enable`, { method: "POST" })).json()) as WebhookEndpointJson;
    expect(enabled).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null, failure_run: 0 });
    expect((await endpointRow(endpoint.id))?.paused_until).toBeNull();
    expect(kicks.length).toBe(before + 1);
    expect(await auditText()).toMatch(/webhook\.disabled.*webhook\.enabled|webhook\.enabled.*webhook\.disabled/);
  });

  it("deletes an endpoint with its deliveries; then it is 404", async () => {
    fakeNetwork();
    const { endpoint } = await create();
    const { storeDelivery } = await import("../support/webhooks-operator");
    await storeDelivery(endpoint.id, "dead");
    expect((await hooks(`/${endpoint.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await hooks(`/${endpoint.id}`)).status).toBe(404);
    const { env } = await import("cloudflare:workers");
    const left = await env.DB.prepare("select count(*) as n from hwh_webhook_deliveries where endpoint_id = ?")
      .bind(endpoint.id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("answers 404 for an unknown id on every route", async () => {
    fakeNetwork();
    const unknown = "/999999999";
    const calls: [string, string, unknown?][] = [
      ["GET", unknown],
      ["PATCH", unknown, { name: "x" }],
      ["DELETE", unknown],
      ["POST", `${unknown}/disable`],
      ["POST", `${unknown}/enable`],
      ["POST", `${unknown}/rotate`],
      ["POST", `${unknown}/test`],
      ["POST", `${unknown}/dead-letters/retry`],
    ];
    for (const [method, path, body] of calls) {
      const response = await hooks(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(((await response.json()) as ErrorBody).error.code).toBe("webhook_not_found");
    }
  });

  it("answers 503 webhooks_not_configured, naming WEBHOOK_SECRETS_KEY, without the key", async () => {
    fakeNetwork();
    for (const [method, body] of [["GET"], ["POST", STANDARD]] as const) {
      const response = await hooks("", { method, body }, { WEBHOOK_SECRETS_KEY: "" });
      expect(response.status).toBe(503);
      const { error } = (await response.json()) as ErrorBody;
      expect(error.code).toBe("webhooks_not_configured");
      expect(error.message).toContain("WEBHOOK_SECRETS_KEY");
    }
  });

  it("refuses a caller without the operator's key (401)", async () => {
    expect((await hooks("", { token: null })).status).toBe(401);
  });
});

describe("webhook secrets: rotation", () => {
  it("shows the new secret once; old and new both sign the test event for 24 hours, then only the new", async () => {
    const network = fakeNetwork();
    const { endpoint, secret: first } = await create();
    const rotated = (await (await hooks(`/${endpoint.id}/rotate`, { method: "POST" })).json()) as WebhookCreated;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(first);
    const until = Date.parse(String(rotated.endpoint.previous_secret_until));
    expect(Math.abs(until - Date.now() - 24 * 3600_000)).toBeLessThan(60_000);
    expect(await auditText()).not.toContain(String(rotated.secret).slice(6));

    const result = (await (await hooks(`/${endpoint.id}/test`, { method: "POST" })).json()) as WebhookTestResult;
    expect(result).toMatchObject({ ok: true, status: 200 });
    const sent = network.received.at(-1);
    if (!sent) throw new Error("the receiver got nothing");
    const headers = Object.fromEntries(sent.headers.entries());
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    for (const secret of [String(rotated.secret), String(first)])
      expect(new Webhook(secret).verify(sent.body, headers)).toMatchObject({ type: "webhook.test" });

    // The window over: only the new secret signs.
    const { env } = await import("cloudflare:workers");
    await env.DB.prepare("update hwh_webhook_endpoints set previous_secret_until = ? where id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), endpoint.id)
      .run();
    await hooks(`/${endpoint.id}/test`, { method: "POST" });
    const later = network.received.at(-1);
    const laterHeaders = Object.fromEntries(later?.headers.entries() ?? []);
    expect(new Webhook(String(rotated.secret)).verify(String(later?.body), laterHeaders)).toBeTruthy();
    expect(() => new Webhook(String(first)).verify(String(later?.body), laterHeaders)).toThrow();
  });

  it("rotating again within the window replaces the previous secret by the current one", async () => {
    const network = fakeNetwork();
    const { endpoint, secret: first } = await create();
    const second = (await (await hooks(`/${endpoint.id}/rotate`, { method: "POST" })).json()) as WebhookCreated;
    const third = (await (await hooks(`/${endpoint.id}/rotate`, { method: "POST" })).json()) as WebhookCreated;
    await hooks(`/${endpoint.id}/test`, { method: "POST" });
    const sent = network.received.at(-1);
    const headers = Object.fromEntries(sent?.headers.entries() ?? []);
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    for (const secret of [third.secret, second.secret])
      expect(new Webhook(String(secret)).verify(String(sent?.body), headers)).toBeTruthy();
    expect(() => new Webhook(String(first)).verify(String(sent?.body), headers)).toThrow();
  });

  it("never logs a secret or a Slack address (create, rotate, test)", async () => {
    fakeNetwork();
    const lines: string[] = [];
    for (const level of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => lines.push(args.map(String).join(" ")));
    }
    const { endpoint, secret } = await create();
    const rotated = (await (await hooks(`/${endpoint.id}/rotate`, { method: "POST" })).json()) as WebhookCreated;
    await hooks(`/${endpoint.id}/test`, { method: "POST" });
    await create({ name: "Slack", url: SLACK_URL, kind: "slack", events: ["waitlist.joined"] });
    const logged = lines.join("\n");
    for (const text of [String(secret).slice(6), String(rotated.secret).slice(6), "SECRETtoken"]) expect(logged).not.toContain(text);
  });

  it("refuses to rotate a Slack endpoint (it has no signing secret)", async () => {
    fakeNetwork();
    const { endpoint } = await create({ name: "Slack", url: SLACK_URL, kind: "slack", events: ["waitlist.joined"] });
    const response = await hooks(`/${endpoint.id}/rotate`, { method: "POST" });
    expect(response.status).toBe(409);
    expect(((await response.json()) as ErrorBody).error.code).toBe("webhook_has_no_secret");
  });
});
