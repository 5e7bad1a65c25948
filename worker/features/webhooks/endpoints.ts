import type { Deps } from "../../deps";
import { ApiError } from "../../platform/http/errors";
import {
  ROTATION_OVERLAP_HOURS,
  WEBHOOK_EVENT_TYPES,
  type WebhookDeliveryJson,
  type WebhookEndpointJson,
  type WebhookEventType,
} from "../../shared/webhooks";
import type { EndpointDelivery, EndpointWithCounts } from "./queries/endpoints";
import { newSigningSecret, openSecret, sealSecret } from "./secrets";
import { checkWebhookUrl } from "./url-guard";

/**
 * The operator API's rules for endpoints (routes.ts): addresses checked by url-guard.ts (a refusal
 * is a 400 at the field), secrets sealed (secrets.ts) and shown only when made, a Slack address
 * stored sealed with only its masked form on display, rotation's overlap, and the JSON shapes.
 */

export const WEBHOOK_ERRORS = {
  notConfigured: "webhooks_not_configured",
  notFound: "webhook_not_found",
  noSecret: "webhook_has_no_secret",
} as const;

/** The recent deliveries an endpoint's detail lists, and the most dead letters it lists. */
export const RECENT_DELIVERIES = 50;
export const DEAD_LETTERS_LISTED = 200;

export const notFound = () => new ApiError(404, WEBHOOK_ERRORS.notFound, "There is no webhook endpoint with that id.");

/** Integrations need WEBHOOK_SECRETS_KEY: without it every webhook route answers 503, naming the setting. */
export function requireConfigured(deps: Pick<Deps, "config">): void {
  if (!deps.config.webhooks.secretsKey) {
    throw new ApiError(
      503,
      WEBHOOK_ERRORS.notConfigured,
      "Integrations are not configured: set WEBHOOK_SECRETS_KEY (at least 32 characters) in the worker's secrets.",
    );
  }
}

/** A Slack incoming webhook's address with its token hidden: https://hooks.slack.com/services/T…/… */
export function maskSlackUrl(url: URL): string {
  const [first, second] = url.pathname.split("/").filter(Boolean);
  if (!first) return `${url.origin}/…`;
  return second ? `${url.origin}/${first}/${second.slice(0, 1)}…/…` : `${url.origin}/${first.slice(0, 1)}…`;
}

/** What an address is stored as: the checked address (Standard), or the masked display and the sealed whole address (Slack). A refused address is a 400 at `url`. */
export async function storedAddress(
  deps: Pick<Deps, "config">,
  kind: "standard" | "slack",
  raw: string,
): Promise<{ url: string; sealedUrl: string | null }> {
  const verdict = await checkWebhookUrl(deps, raw);
  if (!verdict.ok) throw new ApiError(400, "validation_failed", verdict.reason, { field: "url", fields: { url: verdict.reason } });
  const url = verdict.url.toString();
  if (kind === "standard") return { url, sealedUrl: null };
  return { url: maskSlackUrl(verdict.url), sealedUrl: await sealSecret(deps.config.webhooks, url) };
}

/** A new signing secret: the plain one (shown once) and its sealed form (stored). */
export async function freshSecret(deps: Pick<Deps, "config">): Promise<{ plain: string; sealed: string }> {
  const plain = newSigningSecret();
  return { plain, sealed: await sealSecret(deps.config.webhooks, plain) };
}

/** Until when a secret rotated now keeps signing. */
export function overlapUntil(now: Date): Date {
  return new Date(now.getTime() + ROTATION_OVERLAP_HOURS * 3600_000);
}

/** Where and with what an endpoint is called: a Standard one's address and its secrets (the current, then a rotated one still in its window), or a Slack one's whole address. */
export async function targetOf(
  deps: Pick<Deps, "config" | "now">,
  endpoint: EndpointWithCounts,
): Promise<{ url: string; kind: "standard" | "slack"; secrets: string[] }> {
  const config = deps.config.webhooks;
  if (endpoint.kind === "slack") return { url: await openSecret(config, endpoint.secret), kind: "slack", secrets: [] };
  const secrets = [await openSecret(config, endpoint.secret)];
  const until = endpoint.previousSecretUntil ? Date.parse(endpoint.previousSecretUntil) : Number.NaN;
  if (endpoint.previousSecret && until > deps.now().getTime()) secrets.push(await openSecret(config, endpoint.previousSecret));
  return { url: endpoint.url, kind: "standard", secrets };
}

function eventsOf(stored: string): WebhookEventType[] {
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? WEBHOOK_EVENT_TYPES.filter((type) => parsed.includes(type)) : [];
  } catch {
    return [];
  }
}

/** An endpoint as the API answers it: never a secret, never a Slack address unmasked. */
export function endpointJson(row: EndpointWithCounts, now: Date): WebhookEndpointJson {
  const rotating = row.previousSecret && row.previousSecretUntil && Date.parse(row.previousSecretUntil) > now.getTime();
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    kind: row.kind,
    events: eventsOf(row.events),
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    disabled_at: row.disabledAt,
    failure_run: row.failureRun,
    failing_since: row.failingSince,
    last_success_at: row.lastSuccessAt,
    previous_secret_until: rotating ? row.previousSecretUntil : null,
    pending: row.pending,
    dead: row.dead,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export function deliveryJson(row: EndpointDelivery): WebhookDeliveryJson {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event_type: row.eventType as WebhookEventType,
    status: row.status,
    attempts: row.attempts,
    last_status: row.lastStatus,
    last_error: row.lastError,
    last_answer: row.lastAnswer,
    last_at: row.lastAt,
    next_at: row.nextAt,
    delivered_at: row.deliveredAt,
    created_at: row.createdAt,
  };
}
