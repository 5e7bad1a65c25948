import { WEBHOOK_RETRY_SCHEDULE_SECONDS } from "../../shared/webhooks";
import type { CallOutcome } from "./deliver";
import type { ClaimedDelivery, DeliveryOutcome, EndpointOutcome } from "./queries/deliveries";
import { nextAttemptAt } from "./schedule";

/**
 * What a run's calls do to their endpoints (issue 25 §3): a success ends a failure run; each failed
 * call lengthens it and pauses the endpoint until the failed delivery's next attempt (so a receiver
 * that is down gets one probe per step of the schedule, not one call per event); 410 Gone, an
 * address refused at delivery time, or a secret that cannot be opened disables it, with the reason
 * the console shows. A Slack endpoint rests WEBHOOK_SLACK_INTERVAL_MS after each message.
 */

/** One call of a run (or a call not made: outcome null, the endpoint's secret cannot be opened) and when it ended. */
export type Sent = {
  unit: { endpointId: number; deliveries: ClaimedDelivery[]; problem: string | null };
  outcome: CallOutcome | null;
  at: Date;
  order: number;
  /** Not attempted: its endpoint's call failed earlier in the batch, or the run's time was up. */
  skipped?: boolean;
};

const LAST_STEP_SECONDS = WEBHOOK_RETRY_SCHEDULE_SECONDS[WEBHOOK_RETRY_SCHEDULE_SECONDS.length - 1]!;

/** "2026-12-05 14:03 UTC". */
const dateText = (at: Date) => `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * Whether a refusal is the address's own (it names or resolves to a place the product must not
 * call): that disables the endpoint. A resolver that failed or found nothing may be passing (a
 * DNS outage, a change of records): that is an ordinary failure, retried on the schedule.
 */
export function refusedForGood(error: string | null | undefined): boolean {
  return !!error?.startsWith("refused: ") && !/could not be resolved/.test(error);
}

/** Why a call disables its endpoint, or null. */
export function disableReason(sent: Sent): string | null {
  const { outcome, at, unit } = sent;
  if (!outcome) return unit.problem ?? "The endpoint's secret cannot be opened.";
  if (outcome.ok) return null;
  if (outcome.status === 410) return `The receiver answered 410 Gone on ${dateText(at)}.`;
  if (refusedForGood(outcome.error)) return `The address was refused when calling it on ${dateText(at)}: ${(outcome.error ?? "").slice(9)}`;
  if (outcome.error?.startsWith("not signed: ")) return `The signing secret cannot be used (${outcome.error.slice(12)}); rotate it.`;
  return null;
}

/** The endpoints' outcomes of a run's calls, in the order the calls ended; `nextAt` is each failed delivery's next attempt. */
export function endpointOutcomes(sent: Sent[], slackIntervalMs: number, nextAtOf: (id: number) => Date | null): EndpointOutcome[] {
  const byEndpoint = new Map<number, Sent[]>();
  for (const item of [...sent].sort((a, b) => a.order - b.order))
    byEndpoint.set(item.unit.endpointId, [...(byEndpoint.get(item.unit.endpointId) ?? []), item]);
  const outcomes: EndpointOutcome[] = [];
  for (const [id, calls] of byEndpoint) {
    const slack = calls[0]!.unit.deliveries[0]!.kind === "slack";
    const disable = calls.map(disableReason).find((reason) => reason !== null) ?? null;
    let successAt: Date | null = null;
    let failures: Sent[] = [];
    for (const call of calls) {
      if (call.outcome?.ok) {
        successAt = call.at;
        failures = [];
      } else if (call.outcome && !disableReason(call) && !call.outcome.error?.startsWith("not sent: ")) failures.push(call);
    }
    let pausedUntil: Date | null = successAt && slack ? new Date(successAt.getTime() + slackIntervalMs) : null;
    for (const failure of failures) {
      const at = new Date(
        Math.max(
          ...failure.unit.deliveries.map((d) => (nextAtOf(d.id) ?? new Date(failure.at.getTime() + LAST_STEP_SECONDS * 1000)).getTime()),
        ),
      );
      if (!pausedUntil || at > pausedUntil) pausedUntil = at;
    }
    // A receiver that asked for time (a 429's Retry-After) gets it, whatever else the run's
    // calls to it did: a later success in the same run must not send the next call sooner.
    for (const call of calls) {
      const wait = call.outcome && !call.outcome.ok ? call.outcome.retryAfterSeconds : null;
      if (!wait) continue;
      const until = new Date(call.at.getTime() + Math.min(wait, LAST_STEP_SECONDS) * 1000);
      if (!pausedUntil || until > pausedUntil) pausedUntil = until;
    }
    const last = failures[failures.length - 1];
    outcomes.push({
      id,
      successAt,
      failures: failures.length,
      firstFailureAt: failures[0]?.at ?? null,
      pausedUntil,
      lastError: last ? (last.outcome?.error ?? null) : null,
      disable,
    });
  }
  return outcomes;
}

/** What one consumer run did (run.ts; its lanes add to it): deliveries claimed and their fates, calls made, database calls. */
export type WebhookRunReport = {
  claimed: number;
  delivered: number;
  failed: number;
  dead: number;
  held: number;
  released: number;
  calls: number;
  /** Claims and records the run made (each ONE database call). */
  dbCalls: number;
  /** Endpoints that got a lane. */
  lanes: number;
  /** The run stopped claiming (or left calls unmade) because its time budget was spent. */
  budgetSpent: boolean;
};

/** A delivery not attempted (its endpoint failed earlier in the batch, or the run's time was up): its claim let go, nothing else changed. */
export function released(delivery: ClaimedDelivery, at: Date, report: WebhookRunReport): DeliveryOutcome {
  report.released += 1;
  return { id: delivery.id, result: "released", status: null, error: null, answer: "", at, nextAt: null };
}

/** What a call's outcome (null: not made, the endpoint's secret cannot be opened) makes of one of its deliveries. */
export function deliveryOutcome(
  delivery: ClaimedDelivery,
  outcome: CallOutcome | null,
  at: Date,
  report: WebhookRunReport,
): DeliveryOutcome {
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
