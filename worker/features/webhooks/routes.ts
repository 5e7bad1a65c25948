import { Hono, type MiddlewareHandler } from "hono";
import type { Deps } from "../../deps";
import { jsonBody, validJson } from "../../platform/http/body";
import { API_BODY_ERRORS, ApiError } from "../../platform/http/errors";
import {
  type WebhookCreated,
  type WebhookEndpointDetail,
  type WebhookEndpointJson,
  type WebhookRetried,
  webhookCreateSchema,
  webhookRetrySchema,
  webhookUpdateSchema,
} from "../../shared/webhooks";
import { type OperatorEnv, recordAction } from "../operator";
import {
  DEAD_LETTERS_LISTED,
  deliveryJson,
  endpointJson,
  freshSecret,
  notFound,
  overlapUntil,
  RECENT_DELIVERIES,
  requireConfigured,
  storedAddress,
  WEBHOOK_ERRORS,
} from "./endpoints";
import { kickWebhooks } from "./hand-over";
import type { EndpointChange } from "./queries/endpoints";
import { sendTestEvent } from "./test-event";

/**
 * The operator API's webhook endpoints, /api/admin/webhooks (issue 25 §1; mounted by
 * worker/features/operator/routes.ts: the operator's rate limit and sign-in apply): list, add,
 * read (recent deliveries and dead letters), change, disable and enable, delete, rotate the
 * secret, send a test event, retry dead letters. Every change is audited (never a secret, never a
 * Slack address: only its masked form). A secret is in an answer once: when it is made.
 */

const ID = "/:id{[1-9][0-9]{0,14}}";

type BodyEnv = { Variables: { requestBody?: Record<string, unknown> } };

/** Like jsonBody, but a request with no body at all is `{}` (retry all). */
const optionalJsonBody: MiddlewareHandler<BodyEnv> = async (c, next) => {
  if (c.req.raw.body === null && !c.req.header("content-type")) {
    c.set("requestBody", {});
    return next();
  }
  return jsonBody(API_BODY_ERRORS)(c, next);
};

const configured: MiddlewareHandler<OperatorEnv> = async (c, next) => {
  requireConfigured(c.get("deps"));
  return next();
};

/** The endpoint with its counts, or 404. */
async function endpointOr404(deps: Deps, id: number) {
  const endpoint = await deps.repo.webhooks.endpoint(id);
  if (!endpoint) throw notFound();
  return endpoint;
}

async function changed(deps: Deps, id: number, change: EndpointChange): Promise<WebhookEndpointJson> {
  if (!(await deps.repo.webhooks.changeEndpoint(id, change, deps.now()))) throw notFound();
  return endpointJson(await endpointOr404(deps, id), deps.now());
}

/** What the audit trail says of an endpoint: never its secret; a Slack one's address only masked (as stored for display). */
const audited = (endpoint: { id: number; name: string; kind: string; url: string }) => ({
  id: endpoint.id,
  name: endpoint.name,
  kind: endpoint.kind,
  url: endpoint.url,
});

export const webhookRoutes = new Hono<OperatorEnv>()
  .use("*", configured)

  .get("/", async (c) => {
    const deps = c.get("deps");
    const now = deps.now();
    return c.json((await deps.repo.webhooks.endpoints()).map((row) => endpointJson(row, now)) satisfies WebhookEndpointJson[]);
  })

  .post("/", jsonBody(API_BODY_ERRORS), validJson(webhookCreateSchema, API_BODY_ERRORS), async (c) => {
    const deps = c.get("deps");
    const body = c.req.valid("json");
    const address = await storedAddress(deps, body.kind, body.url);
    const signing = body.kind === "standard" ? await freshSecret(deps) : null;
    const secret = signing?.sealed ?? address.sealedUrl;
    if (!secret) throw new Error("A webhook endpoint needs a sealed secret.");
    const row = await deps.repo.webhooks.addEndpoint(
      { name: body.name, url: address.url, kind: body.kind, events: body.events, secret },
      deps.now(),
    );
    await recordAction(deps, c.get("operator"), "webhook.created", { ...audited(row), events: body.events });
    const endpoint = endpointJson(await endpointOr404(deps, row.id), deps.now());
    return c.json({ endpoint, secret: signing?.plain ?? null } satisfies WebhookCreated, 201);
  })

  .get(ID, async (c) => {
    const deps = c.get("deps");
    const id = Number(c.req.param("id"));
    const endpoint = await endpointOr404(deps, id);
    const { recent, dead } = await deps.repo.webhooks.endpointDeliveries(id, RECENT_DELIVERIES, DEAD_LETTERS_LISTED);
    return c.json({
      endpoint: endpointJson(endpoint, deps.now()),
      deliveries: recent.map(deliveryJson),
      dead: dead.map(deliveryJson),
    } satisfies WebhookEndpointDetail);
  })

  .patch(ID, jsonBody(API_BODY_ERRORS), validJson(webhookUpdateSchema, API_BODY_ERRORS), async (c) => {
    const deps = c.get("deps");
    const id = Number(c.req.param("id"));
    const body = c.req.valid("json");
    const before = await endpointOr404(deps, id);
    const change: EndpointChange = { name: body.name, events: body.events };
    if (body.url !== undefined) {
      const address = await storedAddress(deps, before.kind, body.url);
      change.url = address.url;
      if (address.sealedUrl) change.secret = address.sealedUrl;
    }
    const endpoint = await changed(deps, id, change);
    const fields = Object.keys(body).filter((key) => body[key as keyof typeof body] !== undefined);
    await recordAction(deps, c.get("operator"), "webhook.changed", { ...audited(endpoint), fields, events: endpoint.events });
    return c.json(endpoint satisfies WebhookEndpointJson);
  })

  .post(`${ID}/disable`, async (c) => {
    const deps = c.get("deps");
    const now = deps.now();
    const endpoint = await changed(deps, Number(c.req.param("id")), {
      enabled: false,
      disabledReason: "Disabled by an operator.",
      disabledAt: now.toISOString(),
    });
    await recordAction(deps, c.get("operator"), "webhook.disabled", audited(endpoint));
    return c.json(endpoint satisfies WebhookEndpointJson);
  })

  .post(`${ID}/enable`, async (c) => {
    const deps = c.get("deps");
    const endpoint = await changed(deps, Number(c.req.param("id")), {
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      failureRun: 0,
      failingSince: null,
      pausedUntil: null,
    });
    await recordAction(deps, c.get("operator"), "webhook.enabled", audited(endpoint));
    await kickWebhooks(deps);
    return c.json(endpoint satisfies WebhookEndpointJson);
  })

  .delete(ID, async (c) => {
    const deps = c.get("deps");
    const id = Number(c.req.param("id"));
    const endpoint = await endpointOr404(deps, id);
    if (!(await deps.repo.webhooks.removeEndpoint(id))) throw notFound();
    await recordAction(deps, c.get("operator"), "webhook.deleted", audited(endpoint));
    return c.json({ deleted: true, id });
  })

  .post(`${ID}/rotate`, async (c) => {
    const deps = c.get("deps");
    const id = Number(c.req.param("id"));
    const before = await endpointOr404(deps, id);
    if (before.kind === "slack") {
      throw new ApiError(409, WEBHOOK_ERRORS.noSecret, "A Slack endpoint has no signing secret to rotate: change its address instead.");
    }
    const now = deps.now();
    const signing = await freshSecret(deps);
    const endpoint = await changed(deps, id, {
      secret: signing.sealed,
      previousSecret: before.secret,
      previousSecretUntil: overlapUntil(now).toISOString(),
    });
    await recordAction(deps, c.get("operator"), "webhook.secret_rotated", {
      ...audited(endpoint),
      previous_until: endpoint.previous_secret_until,
    });
    return c.json({ endpoint, secret: signing.plain } satisfies WebhookCreated);
  })

  .post(`${ID}/test`, async (c) => {
    const deps = c.get("deps");
    const endpoint = await endpointOr404(deps, Number(c.req.param("id")));
    const result = await sendTestEvent(deps, endpoint);
    await recordAction(deps, c.get("operator"), "webhook.tested", { ...audited(endpoint), ok: result.ok, status: result.status });
    return c.json(result);
  })

  .post(`${ID}/dead-letters/retry`, optionalJsonBody, validJson(webhookRetrySchema, API_BODY_ERRORS), async (c) => {
    const deps = c.get("deps");
    const id = Number(c.req.param("id"));
    const endpoint = await endpointOr404(deps, id);
    const ids = c.req.valid("json").ids;
    const retried = await deps.repo.webhooks.retryEndpointDeadLetters(id, ids ?? "all", deps.now());
    await recordAction(deps, c.get("operator"), "webhook.dead_letters_retried", { ...audited(endpoint), ids: ids ?? "all", retried });
    if (retried > 0) await kickWebhooks(deps);
    return c.json({ retried } satisfies WebhookRetried);
  });
