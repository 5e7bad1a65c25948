import type { WebhookDeliveryJson, WebhookEndpointJson } from "@shared/webhooks";
import { useCallback } from "react";
import { AdminApiError } from "../api";
import { useConsole } from "../context";
import { integrations as text } from "../integrations-content";

/** The API's answer when WEBHOOK_SECRETS_KEY is not set (503). */
export const NOT_CONFIGURED = "webhooks_not_configured";

/**
 * The console's `report`, which also names the missing WEBHOOK_SECRETS_KEY when the API says
 * integrations are not set up (a 503 the console would otherwise call "not able to answer").
 */
export function useIntegrationsReport(): (failure: unknown) => string | null {
  const { report } = useConsole();
  return useCallback(
    (failure: unknown) => (failure instanceof AdminApiError && failure.code === NOT_CONFIGURED ? text.notConfigured : report(failure)),
    [report],
  );
}

/** An endpoint's state: enabled, disabled (why and when), or failing since when. */
export function EndpointState({ endpoint }: { endpoint: WebhookEndpointJson }) {
  if (!endpoint.enabled) {
    return (
      <>
        <span className="badge badge--failed">{text.state.disabled}</span>
        <span className="cell-note">{text.state.disabledWhy(endpoint.disabled_reason, endpoint.disabled_at)}</span>
      </>
    );
  }
  if (endpoint.failing_since) {
    return (
      <>
        <span className="badge badge--waiting">{text.state.failing}</span>
        <span className="cell-note">{text.state.failingSince(endpoint.failing_since, endpoint.failure_run)}</span>
      </>
    );
  }
  return (
    <>
      <span className="badge badge--sent">{text.state.enabled}</span>
      {endpoint.last_success_at && <span className="cell-note">{text.state.lastSuccess(endpoint.last_success_at)}</span>}
    </>
  );
}

/** The events an endpoint wants, one a line (their names are the API's: receivers switch on them). */
export function EventNames({ events }: { events: readonly string[] }) {
  return (
    <ul className="integration__events">
      {events.map((event) => (
        <li key={event}>
          <code>{event}</code>
        </li>
      ))}
    </ul>
  );
}

/** A delivery's last result: its HTTP status, or the error when no answer came (a dash when not tried yet). */
export function resultOf(delivery: Pick<WebhookDeliveryJson, "last_status" | "last_error">): string | null {
  if (delivery.last_status !== null && delivery.last_error) return `${delivery.last_status}: ${delivery.last_error}`;
  if (delivery.last_status !== null) return String(delivery.last_status);
  return delivery.last_error;
}
