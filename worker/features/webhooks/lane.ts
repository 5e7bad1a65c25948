import type { Deps } from "../../deps";
import { log } from "../../platform/log";
import { type CallOutcome, callEndpoint } from "./deliver";
import { deliveryOutcome, endpointOutcomes, released, type Sent, type WebhookRunReport } from "./outcomes";
import type { ClaimedDelivery, DeliveryOutcome, EndpointOutcome, ListFigures } from "./queries/deliveries";
import type { NextDue } from "./queries/due";
import type { Slots } from "./slots";
import { unitsOf } from "./units";

/**
 * One endpoint's lane in a consumer run (run.ts; issue 25 §3): its claimed batch is sent through
 * the run's shared connections (slots.ts: at most its share at once), its outcomes recorded in
 * ONE database call, then, while its endpoint has more due and the run's time budget lasts, it
 * claims its next batch (ONE call) and goes on. A lane never waits for another: a slow or failing
 * receiver holds back only its own deliveries. A lane stops when its endpoint has nothing due, is
 * paused (a failure's backoff, Slack's one message a second) or disabled, or the run's budget (time,
 * subrequests) is spent.
 */

/** What a lane shares with the run and the other lanes. */
export type RunContext = {
  deps: Deps;
  slots: Slots;
  report: WebhookRunReport;
  /** No call starts and no batch is claimed at or after this (ms, on deps.now()'s clock). */
  deadline: number;
  dayStart: Date;
  /** How long a claim made now is held: past everything the run can still do. */
  leaseUntil: () => Date;
  /** The latest read of what is due (the last database call to answer). */
  next: NextDue;
  /** Subrequests the run may still make (database calls, DNS checks, calls): see SUBREQUEST_BUDGET. */
  subrequestsLeft: number;
};

/** Subrequests a claimed delivery may take: its DNS check and its call. */
export const SUBREQUESTS_PER_DELIVERY = 2;

/** A claimed batch: its claim, its deliveries (all of one endpoint for a lane), the list's figures for Slack. */
export type Batch = { claim: string; deliveries: ClaimedDelivery[]; figures: ListFigures | null };

/** Sends a batch: each call through a shared connection; once one fails (or the time is up) the rest are let go unattempted. */
async function sendBatch(
  ctx: RunContext,
  lane: number,
  batch: Batch,
): Promise<{ deliveries: DeliveryOutcome[]; endpoints: EndpointOutcome[] }> {
  const { deps, report } = ctx;
  const units = await unitsOf(deps, batch.deliveries, batch.figures, deps.now());
  let order = 0;
  // Once a call fails, the batch's other deliveries are released (a receiver that is down gets
  // one probe per step of the schedule, not one call per event).
  let failing = false;
  const skip = (unit: (typeof units)[number]): Sent => ({ unit, outcome: null, at: deps.now(), order: order++, skipped: true });
  const sent = await Promise.all(
    units.map(async (unit): Promise<Sent> => {
      if (failing) return skip(unit);
      if (!unit.target || unit.problem) return { unit, outcome: null, at: deps.now(), order: order++ };
      if (unit.unsendable) {
        const outcome = { ok: false, status: null, error: unit.unsendable, answer: "", retryAfterSeconds: null, tookMs: 0 };
        return { unit, outcome, at: deps.now(), order: order++ };
      }
      const release = await ctx.slots.acquire(lane);
      try {
        if (failing) return skip(unit);
        if (deps.now().getTime() >= ctx.deadline) {
          report.budgetSpent = true;
          return skip(unit);
        }
        const first = unit.deliveries[0]!;
        report.calls += 1;
        const outcome: CallOutcome = await callEndpoint(deps, unit.target, { id: first.webhookId, timestamp: deps.now(), body: unit.body });
        if (!outcome.ok) failing = true;
        return { unit, outcome, at: deps.now(), order: order++ };
      } finally {
        release();
      }
    }),
  );
  const deliveries: DeliveryOutcome[] = sent.flatMap(({ unit, outcome, at, skipped }) =>
    unit.deliveries.map((delivery) => (skipped ? released(delivery, at, report) : deliveryOutcome(delivery, outcome, at, report))),
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
  return { deliveries, endpoints };
}

/** Runs endpoint `lane`'s lane from its first claimed batch; throws only when a database call fails. */
export async function runLane(ctx: RunContext, lane: number, first: Batch): Promise<void> {
  const { deps, report } = ctx;
  const webhooks = deps.repo.webhooks;
  try {
    let batch = first;
    for (;;) {
      const { deliveries, endpoints } = await sendBatch(ctx, lane, batch);
      const next = await webhooks.recordRun({ claim: batch.claim, now: deps.now(), deliveries, endpoints, endpointId: lane });
      report.dbCalls += 1;
      ctx.next = next;
      const pausedUntil = endpoints.find((o) => o.id === lane)?.pausedUntil ?? null;
      const paused = !!pausedUntil && pausedUntil > deps.now();
      const disabled = endpoints.some((o) => o.id === lane && o.disable);
      const letGo = deliveries.some((o) => o.result === "released");
      if (!next.endpointDueNow || paused || disabled || letGo) return;
      // The claim and its record, then each delivery's DNS check and call.
      const limit = Math.min(deps.config.webhooks.batchSize, Math.floor((ctx.subrequestsLeft - 2) / SUBREQUESTS_PER_DELIVERY));
      if (deps.now().getTime() >= ctx.deadline || limit < 1) {
        report.budgetSpent = true;
        return;
      }
      const claim = crypto.randomUUID();
      ctx.subrequestsLeft -= 2 + limit * SUBREQUESTS_PER_DELIVERY;
      const claimed = await webhooks.claimDue({
        claim,
        now: deps.now(),
        leaseUntil: ctx.leaseUntil(),
        limit,
        dayStart: ctx.dayStart,
        endpointId: lane,
      });
      report.dbCalls += 1;
      ctx.next = claimed.next;
      report.claimed += claimed.deliveries.length;
      ctx.subrequestsLeft += (limit - claimed.deliveries.length) * SUBREQUESTS_PER_DELIVERY;
      if (claimed.deliveries.length === 0) return;
      batch = { claim, deliveries: claimed.deliveries, figures: claimed.figures };
    }
  } finally {
    ctx.slots.close(lane);
  }
}
