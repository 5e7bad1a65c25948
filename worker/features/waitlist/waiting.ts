import type { Deps } from "../../deps";
import type { SubmissionRequest } from "../../platform/http/submission";
import { describeError, log } from "../../platform/log";
import { firstClaim } from "../notifications";
import type { WaitingJoinMessage, WaitingMessage, WaitingParentMessage } from "../joins/messages";
import { mailboxKeys, networkKey } from "./keys";
import type { JoinResult, WaitingJoin } from "./queries/join";
import { confirmCap, newReferralJoin, queueMail } from "./writes";

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
async function wait(deps: Deps, message: WaitingMessage, cause: unknown): Promise<void> {
  try {
    await deps.queues.joins.enqueue(message);
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
  const claim = firstClaim(deps);
  const { origin: _origin, ...mail } = queueMail(deps, "");
  const joins: WaitingJoin[] = await Promise.all(
    messages.map(async ({ at, origin, join }) => {
      const [key] = await mailboxKeys(deps.config.auth.jwtSecret, join.email);
      return {
        ...join,
        at: new Date(at),
        mailboxKey: key,
        capKey: confirmCap(deps, key).key,
        referralJoin: newReferralJoin(),
        origin: deps.config.siteUrl || origin,
      };
    }),
  );
  const { window, max } = confirmCap(deps, "");
  return deps.repo.waitlist.joinWaiting(joins, { claim, mail, cap: { window, max } });
}
