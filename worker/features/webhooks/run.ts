import type { Deps } from "../../deps";
import { describeError, log } from "../../platform/log";
import { type Batch, type RunContext, runLane, SUBREQUESTS_PER_DELIVERY } from "./lane";
import type { WebhookRunReport } from "./outcomes";
import { MAX_QUEUE_DELAY_SECONDS } from "./queue";
import { Slots } from "./slots";
import { DNS_TIMEOUT_MS } from "./url-guard";

export type { WebhookRunReport } from "./outcomes";

/**
 * One run of the delivery engine (issue 25 §3; consumer.ts runs it per queue batch):
 * 1. ONE call claims up to WEBHOOK_BATCH_SIZE due deliveries, every endpoint's in turn (at most
 *    one per endpoint and person, so the order per person holds while they go out in parallel;
 *    all of a Slack endpoint's; one probe of an endpoint in a failure run);
 * 2. each endpoint claimed from gets a lane (lane.ts), all running at once: it sends its batch
 *    through the run's six connections (at most its share of them: slots.ts), records its
 *    outcomes in ONE call, and claims its endpoint's next batch (ONE call) until the endpoint has
 *    nothing due, is paused or disabled, or the run's budget is spent (RUN_BUDGET_MS of claiming,
 *    SUBREQUEST_BUDGET subrequests): a slow receiver holds back only its own deliveries;
 * 3. a kick: at once when the budget ended the run with work due or deliveries went out and more
 *    are due, else when the next delivery is due (at most 12 h ahead).
 */

/** Calls in flight at once: workerd allows six open connections per invocation. */
export const CALL_CONCURRENCY = 6;

/** How long a run claims and starts calls; the calls under way then finish (each within its timeout) and are recorded. */
export const RUN_BUDGET_MS = 25_000;

/**
 * Subrequests one run makes at most (Workers allow 1,000 per invocation on the paid plan, D1's
 * queries counted): each claim and record, each delivery's DNS check and call; the kick and the
 * rest keep the margin. A run that reaches it stops claiming and kicks again at once.
 */
export const SUBREQUEST_BUDGET = 900;
/** The first claim's most: its deliveries' DNS checks and calls, and a record for each lane, within the budget. */
const FIRST_CLAIM_MOST = Math.floor((SUBREQUEST_BUDGET - 1) / (SUBREQUESTS_PER_DELIVERY + 1));

/**
 * When a claim made at `at` lapses: after the run's last call can have started (its deadline),
 * answered (the receiver's timeout and the DNS check) and been recorded, with a minute to spare.
 */
export function leaseUntil(config: Deps["config"]["webhooks"], deadline: number, at: Date): Date {
  return new Date(Math.max(at.getTime() + config.lockMs, deadline + config.timeoutMs + DNS_TIMEOUT_MS + 60_000));
}

/** Claims and sends what is due, one lane per endpoint, then kicks the queue; throws only when a database call fails. */
export async function runWebhooks(deps: Deps): Promise<WebhookRunReport> {
  const report: WebhookRunReport = {
    claimed: 0,
    delivered: 0,
    failed: 0,
    dead: 0,
    held: 0,
    released: 0,
    calls: 0,
    dbCalls: 0,
    lanes: 0,
    budgetSpent: false,
  };
  if (!deps.config.webhooks.secretsKey) {
    // No secret can be opened: nothing is claimed, so no endpoint is disabled for it; the
    // deliveries wait, due, until WEBHOOK_SECRETS_KEY is set (the cron kicks them then).
    log("warn", "webhooks.not_configured", { reason: "WEBHOOK_SECRETS_KEY is not set" });
    return report;
  }
  const now = deps.now();
  const deadline = now.getTime() + RUN_BUDGET_MS;
  const claim = crypto.randomUUID();
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const config = deps.config.webhooks;
  const run = await deps.repo.webhooks.claimDue({
    claim,
    now,
    leaseUntil: leaseUntil(config, deadline, now),
    limit: Math.min(config.batchSize, FIRST_CLAIM_MOST),
    dayStart,
  });
  report.dbCalls += 1;
  report.claimed = run.deliveries.length;
  const ctx: RunContext = {
    deps,
    slots: new Slots(CALL_CONCURRENCY),
    report,
    deadline,
    dayStart,
    leaseUntil: () => leaseUntil(config, deadline, deps.now()),
    next: run.next,
    // The first claim, each lane's first record, each claimed delivery's DNS check and call.
    subrequestsLeft: SUBREQUEST_BUDGET - 1 - run.deliveries.length * SUBREQUESTS_PER_DELIVERY,
  };
  const lanes = new Map<number, Batch>();
  for (const delivery of run.deliveries) {
    const batch = lanes.get(delivery.endpointId) ?? { claim, deliveries: [], figures: run.figures };
    batch.deliveries.push(delivery);
    lanes.set(delivery.endpointId, batch);
  }
  report.lanes = lanes.size;
  ctx.subrequestsLeft -= lanes.size;
  // Every lane counts against the connections before any call asks for one.
  for (const endpointId of lanes.keys()) ctx.slots.open(endpointId);
  const ended = await Promise.allSettled([...lanes].map(([endpointId, batch]) => runLane(ctx, endpointId, batch)));
  const failed = ended.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  // At once when deliveries went out (or the budget ended the run) and more are due; a run that
  // delivered nothing never kicks at once (what waits behind a failure waits for its backoff).
  await kickAfter(deps, ctx.next.dueNow && (report.delivered > 0 || report.budgetSpent), ctx.next.at);
  return report;
}

/** Asks the queue for the next run: at once, or when the next delivery is due. Never throws (the cron kicks too). */
async function kickAfter(deps: Deps, atOnce: boolean, nextDueAt: string | null): Promise<void> {
  try {
    if (atOnce) await deps.queues.webhooks.kick();
    else if (nextDueAt) {
      const seconds = Math.ceil((Date.parse(nextDueAt) - deps.now().getTime()) / 1000);
      await deps.queues.webhooks.kick(Math.min(Math.max(1, seconds), MAX_QUEUE_DELAY_SECONDS));
    }
  } catch (error) {
    log("error", "webhooks.enqueue_failed", { error: describeError(error) });
  }
}
