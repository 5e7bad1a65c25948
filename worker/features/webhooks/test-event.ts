import type { Deps } from "../../deps";
import type { WebhookTestResult } from "../../shared/webhooks";
import { callEndpoint } from "./deliver";
import { targetOf } from "./endpoints";
import type { EndpointWithCounts } from "./queries/endpoints";

/** The test event's type (not one of WEBHOOK_EVENT_TYPES: it is never stored, and no endpoint subscribes to it). */
export const TEST_EVENT_TYPE = "webhook.test";

/**
 * "Send a test event" (issue 25 §1): a signed `webhook.test` envelope (a Slack endpoint: a short
 * text) sent once through the engine's callEndpoint (the address re-checked, no redirects, the
 * timeout, the answer capped), whatever the endpoint's state. Nothing is stored.
 */
export async function sendTestEvent(deps: Pick<Deps, "config" | "now">, endpoint: EndpointWithCounts): Promise<WebhookTestResult> {
  const now = deps.now();
  const body =
    endpoint.kind === "slack"
      ? JSON.stringify({ text: `Test message from the waitlist: the integration "${endpoint.name}" is connected.` })
      : JSON.stringify({ type: TEST_EVENT_TYPE, timestamp: now.toISOString(), data: { endpoint: endpoint.name } });
  const id = `msg_test_${crypto.randomUUID().replaceAll("-", "")}`;
  let target: Awaited<ReturnType<typeof targetOf>>;
  try {
    target = await targetOf(deps, endpoint);
  } catch (error) {
    // A secret sealed under another WEBHOOK_SECRETS_KEY: nothing is sent, and the answer says why (never the secret).
    return {
      ok: false,
      status: null,
      error: error instanceof Error ? error.message : "The secret cannot be used.",
      answer: "",
      took_ms: 0,
    };
  }
  const outcome = await callEndpoint(deps, target, { id, timestamp: now, body });
  return { ok: outcome.ok, status: outcome.status, error: outcome.error, answer: outcome.answer, took_ms: outcome.tookMs };
}
