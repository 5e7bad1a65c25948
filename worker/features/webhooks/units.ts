import type { Deps } from "../../deps";
import { describeError, log } from "../../platform/log";
import type { CallTarget } from "./deliver";
import type { ClaimedDelivery, ListFigures } from "./queries/deliveries";
import { openSecret } from "./secrets";
import { slackBody, slackText } from "./slack";

/**
 * The calls a batch of claimed deliveries makes (lane.ts): one signed POST per Standard delivery,
 * one text per Slack endpoint for all its claimed deliveries, each with its endpoint's opened
 * secrets, or why it cannot be sent.
 */

/** One call to make: a Standard delivery, or all of one Slack endpoint's claimed deliveries. */
export type Unit = {
  endpointId: number;
  deliveries: ClaimedDelivery[];
  target: CallTarget | null;
  /** Why the endpoint cannot be called (its secret); it is disabled. */
  problem: string | null;
  /** Why this delivery can never be sent (its event's stored data is not JSON): a dead letter at once, the endpoint untouched. */
  unsendable: string | null;
  body: string;
};

/** The JSON body of a Standard delivery: the envelope `{type, timestamp, data}` with the event's stored data. */
export function envelopeBody(delivery: Pick<ClaimedDelivery, "eventType" | "eventAt" | "payload">): string {
  return JSON.stringify({ type: delivery.eventType, timestamp: delivery.eventAt, data: JSON.parse(delivery.payload) as unknown });
}

/** The endpoint's target: its secrets opened (the rotated one while it still signs), or why they cannot be. */
async function targetOf(deps: Deps, first: ClaimedDelivery, now: Date): Promise<{ target: CallTarget | null; problem: string | null }> {
  try {
    const current = await openSecret(deps.config.webhooks, first.secret);
    if (first.kind === "slack") return { target: { url: current, kind: "slack", secrets: [] }, problem: null };
    const secrets = [current];
    if (first.previousSecret && first.previousSecretUntil && first.previousSecretUntil > now.toISOString())
      secrets.push(await openSecret(deps.config.webhooks, first.previousSecret));
    return { target: { url: first.url, kind: "standard", secrets }, problem: null };
  } catch (error) {
    log("error", "webhooks.secret_unusable", { endpoint: first.endpointId, error: describeError(error) });
    const why = deps.config.webhooks.secretsKey
      ? "was sealed under another WEBHOOK_SECRETS_KEY or is damaged"
      : "WEBHOOK_SECRETS_KEY is not set";
    return { target: null, problem: `The endpoint's secret cannot be opened (${why}); set it again, then enable the endpoint.` };
  }
}

/** The calls of a batch: one per Standard delivery, one per Slack endpoint. */
export async function unitsOf(deps: Deps, claimed: ClaimedDelivery[], figures: ListFigures | null, now: Date): Promise<Unit[]> {
  const byEndpoint = new Map<number, ClaimedDelivery[]>();
  for (const delivery of claimed) byEndpoint.set(delivery.endpointId, [...(byEndpoint.get(delivery.endpointId) ?? []), delivery]);
  const units: Unit[] = [];
  for (const [endpointId, deliveries] of byEndpoint) {
    const first = deliveries[0]!;
    const { target, problem } = await targetOf(deps, first, now);
    if (first.kind === "slack") {
      units.push({
        endpointId,
        deliveries,
        target,
        problem,
        unsendable: null,
        body: slackBody(
          slackText(
            deliveries.map((d) => ({ type: d.eventType, payload: d.payload })),
            figures,
          ),
        ),
      });
      continue;
    }
    for (const delivery of deliveries) {
      let body = "";
      let unsendable: string | null = null;
      try {
        body = envelopeBody(delivery);
      } catch {
        unsendable = "not sent: the event's stored data is not JSON";
      }
      units.push({ endpointId, deliveries: [delivery], target, problem, unsendable, body });
    }
  }
  return units;
}
