import type {
  WebhookCreated,
  WebhookEndpointDetail,
  WebhookEndpointJson,
  WebhookEventType,
  WebhookKind,
  WebhookRetried,
  WebhookTestResult,
} from "@shared/webhooks";
import type { Request } from "./api";

/** The webhook routes below the operator API (/api/admin/webhooks, worker/features/webhooks/routes.ts). */
export const WEBHOOKS = "/webhooks";

/** What "Add an endpoint" sends. */
export type WebhookInput = { name: string; url: string; kind: WebhookKind; events: WebhookEventType[] };
/** What Edit sends (the kind of an endpoint never changes). */
export type WebhookChange = Partial<Pick<WebhookInput, "name" | "url" | "events">>;

/** The console's API calls (./api.ts's, with the operator's token and its failures): one that reads JSON, one that reads nothing. */
type Calls = { json: <T>(path: string, init?: Request) => Promise<T>; send: (path: string, init?: Request) => Promise<Response> };

const withJson = (method: "POST" | "PATCH", body: unknown): Request => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/**
 * The console's calls of the integrations (issue 25 §1): the endpoints, each one's deliveries and
 * dead letters, and what an operator does to one. ./api.ts adds them to the console's API. A change
 * (edit, disable, enable, delete) is followed by reading the endpoint again, so its answer's body
 * is not read.
 */
export function webhookCalls({ json, send }: Calls) {
  const one = (id: number) => `${WEBHOOKS}/${id}`;
  const done = async (path: string, init: Request) => {
    await send(path, init);
  };
  return {
    // The list: an array (or, as other lists of the API, {endpoints: [...]}).
    webhooks: async () => {
      const answer = await json<WebhookEndpointJson[] | { endpoints: WebhookEndpointJson[] }>(WEBHOOKS);
      return Array.isArray(answer) ? answer : answer.endpoints;
    },
    webhook: (id: number) => json<WebhookEndpointDetail>(one(id)),
    createWebhook: (input: WebhookInput) => json<WebhookCreated>(WEBHOOKS, withJson("POST", input)),
    updateWebhook: (id: number, change: WebhookChange) => done(one(id), withJson("PATCH", change)),
    disableWebhook: (id: number) => done(`${one(id)}/disable`, { method: "POST" }),
    enableWebhook: (id: number) => done(`${one(id)}/enable`, { method: "POST" }),
    deleteWebhook: (id: number) => done(one(id), { method: "DELETE" }),
    rotateWebhook: (id: number) => json<WebhookCreated>(`${one(id)}/rotate`, { method: "POST" }),
    testWebhook: (id: number) => json<WebhookTestResult>(`${one(id)}/test`, { method: "POST" }),
    retryWebhookDeadLetters: (id: number, ids?: number[]) =>
      json<WebhookRetried>(`${one(id)}/dead-letters/retry`, withJson("POST", ids ? { ids } : {})),
  };
}
