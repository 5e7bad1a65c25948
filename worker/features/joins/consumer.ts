import type { Deps } from "../../deps";
import { isDatabaseUnavailable } from "../../platform/db/errors";
import { describeError, log } from "../../platform/log";
import { handOver } from "../mail-queue";
import { kickWebhooks } from "../webhooks";
import { askParent } from "../parents";
import { mailJobsOfJoin, storeWaitingJoins } from "../waitlist";
import { type WaitingJoinMessage, type WaitingMessage, type WaitingParentMessage, waitingMessageOf } from "./messages";

/**
 * The joins queue's consumers (worker/index.ts; README "When the database cannot take a join").
 *
 * homework-helper-joins: the batch (up to 100 waiting joins) is stored in one database call
 * (worker/features/waitlist/waiting.ts storeWaitingJoins), once each whatever the redelivery: an
 * address already on the list, by an earlier delivery too, is dropped quietly. Then the backlog
 * forgets them and their e-mails go to the mail queue. While the database still cannot take it,
 * the whole batch is retried with a growing delay, up to the queue's max_retries (100); then the
 * dead-letter queue's consumer keeps them for the operator.
 *
 * homework-helper-joins-dlq: the joins the queue gave up on, kept whole in the backlog's dead
 * list (a Durable Object, so a database outage cannot lose them), which the console lists with
 * "retry" (worker/features/joins/routes.ts).
 */

/** The first retry's delay and the longest: 10 s, 20 s, 40 s ... then every 15 min (100 retries: about a day). */
const FIRST_DELAY_SECONDS = 10;
const MAX_DELAY_SECONDS = 900;

/** The delay before a batch's next try, after `attempts` tries (Message.attempts: 1 on the first delivery). */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(MAX_DELAY_SECONDS, FIRST_DELAY_SECONDS * 2 ** Math.max(0, Math.min(attempts - 1, 16)));
}

type Delivered<M extends WaitingMessage = WaitingMessage> = { message: Message; join: M };

/** The valid messages of a batch; anything else is logged and acknowledged (it can never be stored). */
function readBatch(batch: MessageBatch): Delivered[] {
  const valid: Delivered[] = [];
  for (const message of batch.messages) {
    const join = waitingMessageOf(message.body);
    if (join) valid.push({ message, join });
    else {
      log("error", "joins.bad_message", { queue: batch.queue, id: message.id });
      message.ack();
    }
  }
  return valid;
}

/** Retries messages whole with the delay their attempts call for, logging why. */
function retry(valid: readonly Delivered[], event: string, error: unknown): void {
  const attempts = Math.max(...valid.map(({ message }) => message.attempts));
  const delaySeconds = retryDelaySeconds(attempts);
  const unavailable = isDatabaseUnavailable(error);
  // Still unavailable, or something else (then it is retried all the same: a join is never
  // thrown away for an error nobody has read; after the retries the operator has it).
  log(unavailable ? "warn" : "error", event, {
    joins: valid.length,
    attempts,
    retry_in_seconds: delaySeconds,
    unavailable,
    error: describeError(error),
  });
  for (const { message } of valid) message.retry({ delaySeconds });
}

/** homework-helper-joins: stores the batch's joins in one database call, asks the parents of its children's joins. */
export async function consumeJoinBatch(deps: Deps, batch: MessageBatch): Promise<void> {
  const valid = readBatch(batch);
  const joins = valid.filter((one): one is Delivered<WaitingJoinMessage> => one.join.type === "join");
  const parents = valid.filter((one): one is Delivered<WaitingParentMessage> => one.join.type === "parent");
  await Promise.all([storeJoins(deps, joins), ...parents.map((one) => askWaitingParent(deps, one))]);
}

/** The joins: one database call, or the whole lot retried with a growing delay. */
async function storeJoins(deps: Deps, valid: readonly Delivered<WaitingJoinMessage>[]): Promise<void> {
  if (valid.length === 0) return;
  let stored: Awaited<ReturnType<typeof storeWaitingJoins>>;
  try {
    stored = await storeWaitingJoins(
      deps,
      valid.map(({ join }) => join),
    );
  } catch (error) {
    retry(valid, "joins.store_failed", error);
    return;
  }
  for (const { message } of valid) message.ack();
  log("info", "joins.stored", { joins: valid.length, stored: stored.length, dropped: valid.length - stored.length });
  await deps.joinBacklog.remove(valid.map(({ join }) => join.id));
  // The e-mails are stored claimed for a lease: if the mail queue refuses them, the cron's re-queue sends them when it lapses.
  await handOver(deps, stored.flatMap(mailJobsOfJoin));
  // Their batch may have stored webhook events (waitlist.joined, and confirmations with double opt-in off).
  if (stored.length > 0) await kickWebhooks(deps);
}

/**
 * A child's join whose parental request waited: asked once (the backlog remembers which
 * messages were asked, so a redelivery asks nothing again), its e-mail sent as askParent sends
 * it. A backlog that cannot tell retries the message rather than risk asking twice.
 */
async function askWaitingParent(deps: Deps, one: Delivered<WaitingParentMessage>): Promise<void> {
  const { id, origin, parent } = one.join;
  try {
    if (!(await deps.joinBacklog.wasAsked(id))) {
      const asked = await askParent(deps, { parentEmail: parent.parentEmail, band: parent.band, country: parent.country, origin });
      await deps.joinBacklog.markAsked(id, deps.now());
      await asked.after?.();
    }
  } catch (error) {
    retry([one], "joins.parent_ask_failed", error);
    return;
  }
  one.message.ack();
  await deps.joinBacklog.remove([id]);
}

/**
 * homework-helper-joins-dlq: keeps the dead joins in the backlog for the operator; retried (the
 * DLQ's own retries) while the backlog cannot take them, so none is lost.
 */
export async function consumeDeadJoins(deps: Deps, batch: MessageBatch): Promise<void> {
  const valid = readBatch(batch);
  if (valid.length === 0) return;
  try {
    await deps.joinBacklog.keepDead(
      valid.map(({ join }) => join),
      deps.now(),
    );
  } catch (error) {
    log("error", "joins.dead_keep_failed", { joins: valid.length, error: describeError(error) });
    for (const { message } of valid) message.retry({ delaySeconds: 60 });
    return;
  }
  log("error", "joins.dead", { joins: valid.length, ids: valid.map(({ join }) => join.id) });
  for (const { message } of valid) message.ack();
}
