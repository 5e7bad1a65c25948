import type { Deps } from "../../deps";
import type { SubmissionRequest } from "../../platform/http/submission";
import { DatabaseDeadlineError } from "../../platform/db/errors";
import { describeError, log } from "../../platform/log";
import { firstClaim } from "../notifications";
import type { WaitingJoinMessage, WaitingMessage, WaitingParentMessage } from "../joins/messages";
import { mailboxKeys, networkKey } from "./keys";
import type { JoinResult, WaitingJoin } from "./queries/join";
import { confirmCap, confirmWrite, newReferralJoin, queueMail, withConfirmRetries } from "./writes";

/**
 * A join that waits for the database (issue 24 §3; README "When the database cannot take a
 * join"): the public join's write was refused for load or unavailability, so its validated input
 * goes on the joins queue (worker/features/joins) and the visitor gets the spec's success; the
 * queue's consumer stores it later with the same entry a join stores (storeWaitingJoins).
 */

/** What the public join validated, as a waiting join keeps it (never a birth month or year: the band only). */
export type WaitingInput = WaitingJoinMessage["join"];

/**
 * Puts a join the database refused on the joins queue, and counts it in the backlog (best
 * effort: logged when it fails, the join waits anyway). The time the visitor is answered with
 * (the 201's joined_at), which the entry keeps. Throws when the queue refuses too: then, and only
 * then, the visitor gets the spec's failure.
 */
export async function waitForDatabase(
  deps: Deps,
  input: WaitingInput,
  request: SubmissionRequest,
  at: Date,
  cause: unknown,
): Promise<Date> {
  const network = request.network ? await networkKey(deps.config.auth.jwtSecret, request.network) : null;
  const message: WaitingJoinMessage = {
    type: "join",
    id: crypto.randomUUID(),
    at: at.toISOString(),
    origin: request.origin,
    network,
    join: input,
  };
  await wait(deps, message, cause);
  return at;
}

/**
 * Puts a child's parental request the database refused on the joins queue (the parent's address,
 * the band, the country: never the child's address), counted like a join. Throws when the queue
 * refuses too.
 */
export async function waitParentForDatabase(
  deps: Deps,
  parent: WaitingParentMessage["parent"] & { origin: string },
  at: Date,
  cause: unknown,
) {
  const { origin, parentEmail, band, country } = parent;
  await wait(
    deps,
    { type: "parent", id: crypto.randomUUID(), at: at.toISOString(), origin, parent: { parentEmail, band, country } },
    cause,
  );
}

/** On the queue (or the database's error rethrown when the queue refuses), then counted (best effort). */
/** How long a join that missed its database deadline waits before the queue delivers it: longer than a late call takes to land or fail. */
const LATE_CALL_GRACE_SECONDS = 30;

async function wait(deps: Deps, message: WaitingMessage, cause: unknown): Promise<void> {
  try {
    // A call that missed its deadline may still finish: the waiting copy comes after it (and then
    // finds the address listed), so the late call does not also queue a second confirmation.
    await deps.queues.joins.enqueue(message, cause instanceof DatabaseDeadlineError ? LATE_CALL_GRACE_SECONDS : undefined);
  } catch (error) {
    log("error", "join.queue_refused", { type: message.type, error: describeError(error), database_error: describeError(cause) });
    throw cause;
  }
  log("warn", "join.waiting", { type: message.type, id: message.id, database_error: describeError(cause) });
  await deps.joinBacklog.add(message);
}

/**
 * Stores waiting joins (the joins queue's batch, up to 100) in one database call, each an entry
 * as the public join stores it with double opt-in (its notification claimed, its confirmation
 * e-mail queued within its mailbox's daily cap, its referral kept when the code is known, its
 * age band and country). An address already on the list, including by an earlier delivery of the
 * same message, is dropped quietly. The joins this call stored, as the join's results (their
 * e-mails go to the mail queue: mailJobsOfJoin).
 */
export async function storeWaitingJoins(deps: Deps, messages: readonly WaitingJoinMessage[]): Promise<JoinResult[]> {
  if (messages.length === 0) return [];
  const atOnce = !deps.config.waitlist.doubleOptIn;
  const keyed = await Promise.all(
    messages.map(async (message) => ({ message, keys: await mailboxKeys(deps.config.auth.jwtSecret, message.join.email) })),
  );
  // A confirmation's unique values (its seq, its code) taken by another write meanwhile: the batch
  // (one transaction, undone whole) is tried again with new ones, as a join is.
  const stored = await withConfirmRetries(() => {
    const claim = firstClaim(deps);
    const { origin: _origin, ...mail } = queueMail(deps, "");
    const joins: WaitingJoin[] = keyed.map(({ message: { at, origin, join, network }, keys }) => ({
      ...join,
      at: new Date(at),
      mailboxKey: keys[0],
      capKey: confirmCap(deps, keys[0]).key,
      referralJoin: newReferralJoin(),
      origin: deps.config.siteUrl || origin,
      // Double opt-in off: confirmed at once, counting the referral it carries, keeping its network (as join.ts does).
      ...(atOnce ? { confirm: confirmWrite(deps, keys, network, "join") } : {}),
    }));
    const { window, max } = confirmCap(deps, "");
    return deps.repo.waitlist.joinWaiting(joins, { claim, mail, cap: { window, max } });
  });
  // Joining again is consent again when the join confirmed the entry itself (as join.ts: only with double opt-in off).
  // Logged when it fails, never thrown: the joins are stored, and a retry of the batch would drop them.
  for (const result of stored) {
    if (!atOnce || result.entry.confirmedAt === null) continue;
    try {
      await deps.repo.consent.resubscribe({ mailboxKey: result.entry.mailboxKey, event: "rejoined", source: "join", now: deps.now() });
    } catch (error) {
      log("error", "joins.resubscribe_failed", { entry_id: result.entry.id, error: describeError(error) });
    }
  }
  return stored;
}
