/**
 * The console's Integrations view (web/src/admin/sections/Integrations*.tsx, issue 25 §1) with the
 * console's API over a mocked fetch standing in for /api/admin/webhooks: the list, adding an
 * endpoint (the console's checks, and the server's refusal of the address at the URL field), the
 * secret shown once and gone after leaving, a test event's answer, rotation, disable and enable,
 * delete, the deliveries and the dead letters' Retry (one, all), and the missing WEBHOOK_SECRETS_KEY.
 */
import type { WebhookDeliveryJson, WebhookEndpointJson } from "@shared/webhooks";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createAdminApi } from "../../web/src/admin/api";
import { ConsoleContext } from "../../web/src/admin/context";
import { integrations as text } from "../../web/src/admin/integrations-content";
import { Integrations } from "../../web/src/admin/sections/Integrations";
import { apiError, jsonResponse } from "./helpers";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const NEW_SECRET = "whsec_c2Vjb25kIHNlY3JldCBmb3Igcm90YXRpb24=";

function endpoint(id: number, overrides: Partial<WebhookEndpointJson> = {}): WebhookEndpointJson {
  return {
    id,
    name: `Endpoint ${id}`,
    url: `https://crm.example.com/hooks/${id}`,
    kind: "standard",
    events: ["waitlist.joined", "person.erased"],
    enabled: true,
    disabled_reason: null,
    disabled_at: null,
    failure_run: 0,
    failing_since: null,
    last_success_at: null,
    previous_secret_until: null,
    pending: 0,
    dead: 0,
    created_at: "2026-12-04T10:00:00.000Z",
    updated_at: "2026-12-04T10:00:00.000Z",
    ...overrides,
  };
}

function delivery(id: number, overrides: Partial<WebhookDeliveryJson> = {}): WebhookDeliveryJson {
  return {
    id,
    webhook_id: `msg_evt${id}_1`,
    event_type: "waitlist.joined",
    status: "delivered",
    attempts: 1,
    last_status: 200,
    last_error: null,
    last_answer: "ok",
    last_at: "2026-12-05T01:00:00.000Z",
    next_at: null,
    delivered_at: "2026-12-05T01:00:00.000Z",
    created_at: "2026-12-05T01:00:00.000Z",
    ...overrides,
  };
}

let endpoints: WebhookEndpointJson[];
let deliveries: WebhookDeliveryJson[];
let dead: WebhookDeliveryJson[];
let calls: { method: string; path: string; body: unknown }[];
/** Answers the test sets for one route ("POST /api/admin/webhooks"), taken before the stand-in's own. */
let overrides: Map<string, () => Response>;

beforeEach(() => {
  endpoints = [
    endpoint(1),
    endpoint(2, {
      name: "Launch channel",
      kind: "slack",
      url: "https://hooks.slack.com/services/T000/B000/••••",
      enabled: false,
      disabled_reason: "The receiver answered 410 Gone.",
      disabled_at: "2026-12-05T00:00:00.000Z",
      pending: 3,
      dead: 1,
    }),
  ];
  deliveries = [delivery(11), delivery(10, { status: "pending", attempts: 2, last_status: 503, next_at: "2026-12-05T02:00:00.000Z" })];
  dead = [
    delivery(7, { status: "dead", attempts: 10, last_status: null, last_error: "Timed out after 15 s." }),
    delivery(8, { status: "dead", attempts: 10, last_status: 500, event_type: "waitlist.confirmed" }),
  ];
  calls = [];
  overrides = new Map();
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(String(input), "http://localhost");
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : null;
    calls.push({ method, path: url.pathname, body });
    const override = overrides.get(`${method} ${url.pathname}`);
    if (override) return override();
    const match = /^\/api\/admin\/webhooks(?:\/(\d+))?(\/.*)?$/.exec(url.pathname);
    if (!match) return jsonResponse(404, { error: { code: "not_found", message: "No." } });
    const id = match[1] ? Number(match[1]) : null;
    const rest = match[2] ?? "";
    const found = endpoints.find((e) => e.id === id);
    if (id === null && method === "GET") return jsonResponse(200, endpoints);
    if (id === null && method === "POST") {
      const created = endpoint(3, { name: body.name, url: body.url, kind: body.kind, events: body.events });
      endpoints = [...endpoints, created];
      return jsonResponse(201, { endpoint: created, secret: body.kind === "slack" ? null : SECRET });
    }
    if (!found) return jsonResponse(404, { error: { code: "not_found", message: "No such endpoint." } });
    const replace = (next: WebhookEndpointJson) => {
      endpoints = endpoints.map((e) => (e.id === next.id ? next : e));
      return next;
    };
    if (method === "GET") return jsonResponse(200, { endpoint: found, deliveries, dead });
    if (method === "DELETE") {
      endpoints = endpoints.filter((e) => e.id !== id);
      return new Response(null, { status: 204 });
    }
    if (rest === "/disable")
      return jsonResponse(
        200,
        replace({
          ...found,
          enabled: false,
          disabled_reason: "Disabled by operator@example.com.",
          disabled_at: "2026-12-05T02:00:00.000Z",
        }),
      );
    if (rest === "/enable") return jsonResponse(200, replace({ ...found, enabled: true, disabled_reason: null, disabled_at: null }));
    if (rest === "/rotate") {
      const next = replace({ ...found, previous_secret_until: "2026-12-06T02:00:00.000Z" });
      return jsonResponse(200, { endpoint: next, secret: NEW_SECRET });
    }
    if (rest === "/test") return jsonResponse(200, { ok: true, status: 204, error: null, answer: "thanks, got it", took_ms: 42 });
    if (rest === "/dead-letters/retry") {
      const ids: number[] | undefined = body?.ids;
      const retried = ids ? dead.filter((d) => ids.includes(d.id)).length : dead.length;
      dead = ids ? dead.filter((d) => !ids.includes(d.id)) : [];
      return jsonResponse(200, { retried });
    }
    if (method === "PATCH") return jsonResponse(200, replace({ ...found, ...body }));
    return jsonResponse(404, { error: { code: "not_found", message: "No." } });
  });
});

function renderSection() {
  const api = createAdminApi({ token: async () => "token", refreshedToken: async () => null });
  return render(
    <ConsoleContext.Provider value={{ api, report: (error) => String(error) }}>
      <Integrations id="integrations" />
    </ConsoleContext.Provider>,
  );
}

const user = () => userEvent.setup();

/** The n-th of a list, which the test expects to be there. */
function nth<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`No item ${index} in a list of ${list.length}.`);
  return item;
}

async function openEndpoint(u: ReturnType<typeof user>, name: string) {
  await u.click(await screen.findByRole("button", { name: text.list.open(name) }));
  return screen.findByRole("heading", { name, level: 3 });
}

describe("the console's integrations", () => {
  it("lists the endpoints: name, kind, address, events, state with the reason, waiting and dead", async () => {
    renderSection();
    const table = await screen.findByRole("table", { name: text.list.caption });
    const rows = within(table).getAllByRole("row");
    expect(rows).toHaveLength(3);
    expect(within(nth(rows, 1)).getByText("https://crm.example.com/hooks/1")).toBeTruthy();
    expect(within(nth(rows, 1)).getByText(text.kinds.standard)).toBeTruthy();
    expect(within(nth(rows, 1)).getByText("person.erased")).toBeTruthy();
    expect(within(nth(rows, 1)).getByText(text.state.enabled)).toBeTruthy();
    expect(within(nth(rows, 2)).getByText(text.kinds.slack)).toBeTruthy();
    expect(within(nth(rows, 2)).getByText(text.state.disabled)).toBeTruthy();
    expect(within(nth(rows, 2)).getByText(/The receiver answered 410 Gone\./)).toBeTruthy();
    expect(within(nth(rows, 2)).getByText(text.list.queue(3, 1))).toBeTruthy();
    expect(screen.getByText(text.list.loaded(2)).getAttribute("role")).toBe("status");
  });

  it("says the WEBHOOK_SECRETS_KEY setting is missing when the API answers webhooks_not_configured", async () => {
    overrides.set("GET /api/admin/webhooks", () => apiError(503, "webhooks_not_configured", "Integrations are not configured."));
    renderSection();
    expect((await screen.findByText(text.notConfigured)).getAttribute("role")).toBe("alert");
    expect(text.notConfigured).toContain("WEBHOOK_SECRETS_KEY");
  });

  it("adding checks the fields, shows the server's refusal of the address at the URL field, then adds it", async () => {
    const u = user();
    renderSection();
    await u.click(await screen.findByRole("button", { name: text.add }));
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: text.form.addTitle }));
    // Six events, each with its line; Slack's note only for Slack.
    for (const type of Object.keys(text.events))
      expect(screen.getByRole("checkbox", { name: new RegExp(type.replace(".", "\\.")) })).toBeTruthy();
    expect(screen.queryByText(text.form.slackNote)).toBeNull();
    await u.click(screen.getByRole("button", { name: text.form.create }));
    const name = screen.getByRole("textbox", { name: text.form.name });
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(name);
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);

    overrides.set("POST /api/admin/webhooks", () =>
      jsonResponse(400, { error: { code: "invalid_url", message: "The address points to a private network.", field: "url" } }),
    );
    await u.type(name, "CRM");
    const url = screen.getByRole("textbox", { name: text.form.url });
    await u.type(url, "https://10.0.0.7/hook");
    await u.click(screen.getByRole("button", { name: text.form.create }));
    await waitFor(() => expect(url.getAttribute("aria-invalid")).toBe("true"));
    const describedBy = url.getAttribute("aria-describedby")?.split(" ") ?? [];
    const said = describedBy.map((id) => document.getElementById(id)?.textContent);
    expect(said).toContain("The address points to a private network.");
    expect(document.activeElement).toBe(url);
    expect(calls.at(-1)).toEqual({
      method: "POST",
      path: "/api/admin/webhooks",
      body: { name: "CRM", url: "https://10.0.0.7/hook", kind: "standard", events: ["waitlist.joined"] },
    });

    overrides.clear();
    await u.clear(url);
    await u.type(url, "https://crm.example.com/in");
    await u.click(screen.getByRole("checkbox", { name: /person\.erased/ }));
    await u.click(screen.getByRole("button", { name: text.form.create }));
    expect(await screen.findByRole("heading", { name: "CRM", level: 3 })).toBeTruthy();
    expect(calls.at(-2)?.body).toEqual({
      name: "CRM",
      url: "https://crm.example.com/in",
      kind: "standard",
      events: ["waitlist.joined", "person.erased"],
    });
  });

  it("the secret is shown once after adding, with its copy button and the receiver's hint, and is gone after leaving", async () => {
    const u = user();
    renderSection();
    await u.click(await screen.findByRole("button", { name: text.add }));
    await u.type(screen.getByRole("textbox", { name: text.form.name }), "CRM");
    await u.type(screen.getByRole("textbox", { name: text.form.url }), "https://crm.example.com/in");
    await u.click(screen.getByRole("button", { name: text.form.create }));
    const field = (await screen.findByRole("textbox", { name: text.secret.label })) as HTMLInputElement;
    expect(field.value).toBe(SECRET);
    expect(field.readOnly).toBe(true);
    expect(screen.getByText(text.secret.once)).toBeTruthy();
    expect(screen.getByText(/standardwebhooks/)).toBeTruthy();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    await u.click(screen.getByRole("button", { name: text.secret.copy }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    await waitFor(() => expect(screen.getByText(text.secret.copied)).toBeTruthy());

    await u.click(screen.getByRole("button", { name: text.back }));
    await openEndpoint(u, "CRM");
    expect(screen.queryByRole("textbox", { name: text.secret.label })).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it("a Slack endpoint: the note that its messages carry no personal data, and no secret", async () => {
    const u = user();
    renderSection();
    await u.click(await screen.findByRole("button", { name: text.add }));
    await u.click(screen.getByRole("radio", { name: text.kinds.slack }));
    expect(screen.getByText(text.form.slackNote)).toBeTruthy();
    await u.type(screen.getByRole("textbox", { name: text.form.name }), "Launch");
    await u.type(screen.getByRole("textbox", { name: text.form.url }), "https://hooks.slack.com/services/T1/B1/xyz");
    await u.click(screen.getByRole("button", { name: text.form.create }));
    expect(await screen.findByText(text.secret.slack)).toBeTruthy();
    expect(calls.at(-2)?.body).toMatchObject({ kind: "slack" });
  });

  it("Send a test event shows the receiver's status and the first bytes of its answer; a refusal is an alert", async () => {
    const u = user();
    renderSection();
    await openEndpoint(u, "Endpoint 1");
    await u.click(screen.getByRole("button", { name: text.actions.test }));
    await waitFor(() => expect(screen.getByText(text.actions.testOk(204, 42))).toBeTruthy());
    expect(screen.getByText("thanks, got it")).toBeTruthy();
    overrides.set("POST /api/admin/webhooks/1/test", () =>
      jsonResponse(200, { ok: false, status: 401, error: null, answer: "bad signature", took_ms: 9 }),
    );
    await u.click(screen.getByRole("button", { name: text.actions.test }));
    await waitFor(() => expect(screen.getByText(text.actions.testFailed(401, null, 9)).getAttribute("role")).toBe("alert"));
    expect(screen.getByText("bad signature")).toBeTruthy();
  });

  it("Rotate asks first, then shows the new secret once and until when the previous one signs", async () => {
    const u = user();
    renderSection();
    await openEndpoint(u, "Endpoint 1");
    await u.click(screen.getByRole("button", { name: text.actions.rotate }));
    expect(document.activeElement?.textContent).toBe(text.actions.confirmRotate);
    await u.click(screen.getByRole("button", { name: text.actions.keep }));
    expect(document.activeElement).toBe(screen.getByRole("button", { name: text.actions.rotate }));
    expect(calls.some((c) => c.path.endsWith("/rotate"))).toBe(false);
    await u.click(screen.getByRole("button", { name: text.actions.rotate }));
    await u.click(screen.getByRole("button", { name: text.actions.yesRotate }));
    const field = (await screen.findByRole("textbox", { name: text.secret.label })) as HTMLInputElement;
    expect(field.value).toBe(NEW_SECRET);
    expect(screen.getByText(text.state.rotation("2026-12-06T02:00:00.000Z"))).toBeTruthy();
    expect(screen.getByText(text.actions.rotated)).toBeTruthy();
  });

  it("Disable pauses the endpoint and says why; Enable turns it back on", async () => {
    const u = user();
    renderSection();
    await openEndpoint(u, "Endpoint 1");
    await u.click(screen.getByRole("button", { name: text.actions.disable }));
    await waitFor(() => expect(screen.getByText(text.actions.disabled)).toBeTruthy());
    expect(screen.getByText(/Disabled by operator@example\.com\./)).toBeTruthy();
    await u.click(screen.getByRole("button", { name: text.actions.enable }));
    await waitFor(() => expect(screen.getByText(text.actions.enabled)).toBeTruthy());
    expect(calls.filter((c) => c.method === "POST").map((c) => c.path)).toEqual([
      "/api/admin/webhooks/1/disable",
      "/api/admin/webhooks/1/enable",
    ]);
  });

  it("Edit changes the name, address and events (PATCH), focus back on Edit", async () => {
    const u = user();
    renderSection();
    await openEndpoint(u, "Endpoint 1");
    await u.click(screen.getByRole("button", { name: text.actions.edit }));
    const name = screen.getByRole("textbox", { name: text.form.name });
    await u.clear(name);
    await u.type(name, "CRM (prod)");
    await u.click(screen.getByRole("checkbox", { name: /contact\.received/ }));
    await u.click(screen.getByRole("button", { name: text.form.save }));
    expect(await screen.findByRole("heading", { name: "CRM (prod)", level: 3 })).toBeTruthy();
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual({
      name: "CRM (prod)",
      url: "https://crm.example.com/hooks/1",
      events: ["waitlist.joined", "contact.received", "person.erased"],
    });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: text.actions.edit })));
  });

  it("Delete asks first, then deletes and goes back to the list, saying so", async () => {
    const u = user();
    renderSection();
    await openEndpoint(u, "Endpoint 1");
    await u.click(screen.getByRole("button", { name: text.actions.delete }));
    expect(document.activeElement?.textContent).toBe(text.actions.confirmDelete("Endpoint 1"));
    await u.click(screen.getByRole("button", { name: text.actions.yesDelete }));
    await waitFor(() => expect(nth(screen.getAllByRole("status"), 0).textContent).toBe(text.actions.deleted("Endpoint 1")));
    const table = await screen.findByRole("table", { name: text.list.caption });
    expect(within(table).queryByText("Endpoint 1")).toBeNull();
    expect(calls.some((c) => c.method === "DELETE" && c.path === "/api/admin/webhooks/1")).toBe(true);
  });

  it("shows the recent deliveries, and the dead letters' Retry (one, then all)", async () => {
    const u = user();
    renderSection();
    await openEndpoint(u, "Endpoint 1");
    const recent = await screen.findByRole("table", { name: text.deliveries.caption });
    const rows = within(recent).getAllByRole("row");
    expect(within(nth(rows, 1)).getByText("msg_evt11_1")).toBeTruthy();
    expect(within(nth(rows, 1)).getByText("200")).toBeTruthy();
    expect(within(nth(rows, 2)).getByText("503")).toBeTruthy();
    expect(within(nth(rows, 2)).getByText(text.deliveries.status.pending)).toBeTruthy();

    const deadTable = screen.getByRole("table", { name: text.dead.caption });
    expect(within(deadTable).getByText("Timed out after 15 s.")).toBeTruthy();
    await u.click(within(deadTable).getByRole("button", { name: text.dead.retryOne("waitlist.joined", "msg_evt7_1") }));
    await waitFor(() => expect(screen.getByText(text.dead.retried(1))).toBeTruthy());
    expect(calls.find((c) => c.path.endsWith("/dead-letters/retry"))?.body).toEqual({ ids: [7] });
    expect(within(screen.getByRole("table", { name: text.dead.caption })).queryByText("msg_evt7_1")).toBeNull();
    await u.click(screen.getByRole("button", { name: text.dead.retryAll }));
    await waitFor(() => expect(screen.getByText(text.dead.retried(1))).toBeTruthy());
    expect(calls.filter((c) => c.path.endsWith("/dead-letters/retry")).at(-1)?.body).toEqual({});
    await waitFor(() => expect(screen.queryByRole("table", { name: text.dead.caption })).toBeNull());
    expect(screen.getByText(text.dead.none)).toBeTruthy();
  });
});
