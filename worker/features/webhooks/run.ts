import type { Deps } from "../../deps";
import { describeError, log } from "../../platform/log";
import { type CallOutcome, type CallTarget, callEndpoint } from "./deliver";
import { endpointOutcomes, refusedForGood, type Sent } from "./outcomes";
import type { ClaimedDelivery, DeliveryOutcome } from "./queries/deliveries";
import { MAX_QUEUE_DELAY_SECONDS } from "./queue";
import { nextAttemptAt } from "./schedule";
import { openSecret } from "./secrets";
import { slackBody, slackText } from "./slack";
import { DNS_TIMEOUT_MS } from "./url-guard";

/**
 * One run of the delivery engine (issue 25 §3; consumer.ts runs it per queue batch):
 * 1. ONE call claims up to WEBHOOK_BATCH_SIZE due deliveries (at most one per endpoint and person,
 *    so the order per person holds while they go out in parallel; all of a Slack endpoint's);
 * 2. the calls, at most CALL_CONCURRENCY at a time (workerd's open connections per invocation):
 *    one signed POST per Standard delivery, one text per Slack endpoint for all its deliveries;
 * 3. ONE call records every outcome (deliveries, endpoints' runs, pauses and disabling);
 * 4. a kick: at once after a full batch or when what it delivered let more become due, else when
 *    the next delivery is due (at most 12 h ahead).
 */

/** Calls in flight at once: workerd allows six open connections per invocation. */
export const CALL_CONCURRENCY = 6;

export type WebhookRunReport = {
  claimed: number;
  delivered: number;
  failed: number;
  dead: number;
  held: number;
  released: number;
  calls: number;
};

/** One call to make: a Standard delivery, or all of one Slack endpoint's claimed deliveries. */
type Unit = {
  endpointId: number;
  deliveries: ClaimedDelivery[];
  target: CallTarget | null;
  /** Why the endpoint cannot be called (its secret); it is disabled. */
  problem: string | null;
  /** Why this delivery can never be sent (its event's stored data is not JSON): a dead letter at once, the endpoint untouched. */
  unsendable: string | null;
  body: string;
};

/** Runs `work` over `items`, at most `limit` at a time. */
async function bounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

/** How long a run holds its claims: every call of a full batch, six at a time, each with its DNS check and timeout, and a minute to spare. */
export function leaseMs(config: Deps["config"]["webhooks"]): number {
  const rounds = Math.ceil(config.batchSize / CALL_CONCURRENCY);
  return Math.max(config.lockMs, rounds * (config.timeoutMs + DNS_TIMEOUT_MS) + 60_000);
}

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

/** The calls of a run: one per Standard delivery, one per Slack endpoint. */
async function unitsOf(deps: Deps, claimed: ClaimedDelivery[], figures: Parameters<typeof slackText>[1], now: Date): Promise<Unit[]> {
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

/** Claims, sends and records one batch of due deliveries, then kicks the queue; throws only when a database call fails. */
export async function runWebhooks(deps: Deps): Promise<WebhookRunReport> {
  const report: WebhookRunReport = { claimed: 0, delivered: 0, failed: 0, dead: 0, held: 0, released: 0, calls: 0 };
  if (!deps.config.webhooks.secretsKey) {
    // No secret can be opened: nothing is claimed, so no endpoint is disabled for it; the
    // deliveries wait, due, until WEBHOOK_SECRETS_KEY is set (the cron kicks them then).
    log("warn", "webhooks.not_configured", { reason: "WEBHOOK_SECRETS_KEY is not set" });
    return report;
  }
  const now = deps.now();
  const claim = crypto.randomUUID();
  const limit = deps.config.webhooks.batchSize;
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const leaseUntil = new Date(now.getTime() + leaseMs(deps.config.webhooks));
  const run = await deps.repo.webhooks.claimDue({ claim, now, leaseUntil, limit, dayStart });
  report.claimed = run.deliveries.length;
  let next = run.next;
  if (run.deliveries.length > 0) {
    const units = await unitsOf(deps, run.deliveries, run.figures, now);
    let order = 0;
    // Endpoints whose call failed in this run: their other deliveries are released unattempted
    // (a receiver that is down gets one probe per step of the schedule, not one call per event).
    const failing = new Set<number>();
    const sent = await bounded(units, CALL_CONCURRENCY, async (unit): Promise<Sent> => {
      if (failing.has(unit.endpointId)) return { unit, outcome: null, at: deps.now(), order: order++, skipped: true };
      if (!unit.target || unit.problem) return { unit, outcome: null, at: deps.now(), order: order++ };
      if (unit.unsendable) {
        const outcome = { ok: false, status: null, error: unit.unsendable, answer: "", retryAfterSeconds: null, tookMs: 0 };
        return { unit, outcome, at: deps.now(), order: order++ };
      }
      const first = unit.deliveries[0]!;
      report.calls += 1;
      const outcome: CallOutcome = await callEndpoint(deps, unit.target, { id: first.webhookId, timestamp: deps.now(), body: unit.body });
      if (!outcome.ok) failing.add(unit.endpointId);
      return { unit, outcome, at: deps.now(), order: order++ };
    });
    const deliveries: DeliveryOutcome[] = sent.flatMap(({ unit, outcome, at, skipped }) =>
      unit.deliveries.map(
        (delivery): DeliveryOutcome => (skipped ? released(delivery, at, report) : deliveryOutcome(delivery, outcome, at, report)),
      ),
    );
    const nextAts = new Map(deliveries.map((o) => [o.id, o.nextAt]));
    const endpoints = endpointOutcomes(
      sent.filter((item) => !item.skipped),
      deps.config.webhooks.slackIntervalMs,
      (id) => nextAts.get(id) ?? null,
    );
    for (const d of deliveries.filter((o) => o.result === "failed" && o.nextAt === null))
      log("warn", "webhooks.dead", { delivery: d.id, status: d.status, error: d.error });
    for (const e of endpoints.filter((o) => o.disable)) log("warn", "webhooks.endpoint_disabled", { endpoint: e.id, reason: e.disable });
    next = await deps.repo.webhooks.recordRun({ claim, now: deps.now(), deliveries, endpoints });
  }
  // At once after a full batch, or when deliveries went out and more are due (a person's next
  // event waited behind the one just delivered); a run that delivered nothing never kicks at once.
  await kickAfter(deps, report.claimed >= limit || (report.delivered > 0 && next.dueNow), next.at);
  return report;
}

/** A delivery not attempted (its endpoint failed earlier in the run): its claim let go, nothing else changed. */
function released(delivery: ClaimedDelivery, at: Date, report: WebhookRunReport): DeliveryOutcome {
  report.released += 1;
  return { id: delivery.id, result: "released", status: null, error: null, answer: "", at, nextAt: null };
}

function deliveryOutcome(delivery: ClaimedDelivery, outcome: CallOutcome | null, at: Date, report: WebhookRunReport): DeliveryOutcome {
  const base = { id: delivery.id, status: outcome?.status ?? null, error: outcome?.error ?? null, answer: outcome?.answer ?? "", at };
  if (outcome?.ok) {
    report.delivered += 1;
    return { ...base, result: "delivered", error: null, nextAt: null };
  }
  if (!outcome || outcome.status === 410 || refusedForGood(outcome.error) || outcome.error?.startsWith("not signed: ")) {
    report.held += 1;
    return { ...base, error: base.error ?? "not sent: the endpoint's secret cannot be opened", result: "held", nextAt: null };
  }
  const nextAt = outcome.error?.startsWith("not sent: ") ? null : nextAttemptAt(delivery.attempts + 1, at, outcome.retryAfterSeconds);
  if (nextAt) report.failed += 1;
  else report.dead += 1;
  return { ...base, result: "failed", nextAt };
}

/** Asks the queue for the next run: at once after a full batch, else when the next delivery is due. Never throws (the cron kicks too). */
async function kickAfter(deps: Deps, full: boolean, nextDueAt: string | null): Promise<void> {
  try {
    if (full) await deps.queues.webhooks.kick();
    else if (nextDueAt) {
      const seconds = Math.ceil((Date.parse(nextDueAt) - deps.now().getTime()) / 1000);
      await deps.queues.webhooks.kick(Math.min(Math.max(1, seconds), MAX_QUEUE_DELAY_SECONDS));
    }
  } catch (error) {
    log("error", "webhooks.enqueue_failed", { error: describeError(error) });
  }
}
