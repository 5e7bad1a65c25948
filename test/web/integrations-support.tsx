/**
 * The console's Integrations view under test (test/web/admin-integrations*.test.tsx): fixtures of
 * the operator API's shapes, a stand-in for /api/admin/webhooks over a mocked fetch (reset before
 * each test of a file that imports this), and the section rendered with the console's API.
 */
import type { WebhookDeliveryJson, WebhookEndpointJson } from "@shared/webhooks";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, vi } from "vitest";
import { createAdminApi } from "../../web/src/admin/api";
import { ConsoleContext } from "../../web/src/admin/context";
import { integrations as text } from "../../web/src/admin/integrations-content";
import { Integrations } from "../../web/src/admin/sections/Integrations";
import { jsonResponse } from "./helpers";

export const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
export const NEW_SECRET = "whsec_c2Vjb25kIHNlY3JldCBmb3Igcm90YXRpb24=";

export function endpoint(id: number, overrides: Partial<WebhookEndpointJson> = {}): WebhookEndpointJson {
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

export function delivery(id: number, overrides: Partial<WebhookDeliveryJson> = {}): WebhookDeliveryJson {
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

export let endpoints: WebhookEndpointJson[];
export let deliveries: WebhookDeliveryJson[];
export let dead: WebhookDeliveryJson[];
export let calls: { method: string; path: string; body: unknown }[];
/** Answers the test sets for one route ("POST /api/admin/webhooks"), taken before the stand-in's own. */
export let overrides: Map<string, () => Response>;

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

export function renderSection() {
  const api = createAdminApi({ token: async () => "token", refreshedToken: async () => null });
  return render(
    <ConsoleContext.Provider value={{ api, report: (error) => String(error) }}>
      <Integrations id="integrations" />
    </ConsoleContext.Provider>,
  );
}

export const user = () => userEvent.setup();

/** The n-th of a list, which the test expects to be there. */
export function nth<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`No item ${index} in a list of ${list.length}.`);
  return item;
}

export async function openEndpoint(u: ReturnType<typeof user>, name: string) {
  await u.click(await screen.findByRole("button", { name: text.list.open(name) }));
  return screen.findByRole("heading", { name, level: 3 });
}
