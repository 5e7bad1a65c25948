import type { Deps } from "../../deps";
import type { ParentalRequest } from "../../platform/db/schema";
import type { MailMessage } from "../../platform/mail/transport";
import type { AgeBand } from "../../shared/age";
import { parentEmail, parentLink } from "./emails";
import { expiryOf, parentToken } from "./token";

/**
 * The parental requests' outbox: each request row is its own e-mail's outbox (as joiner_mail):
 * stored in the request's batch claimed for the request that stored it, its job handed to the mail
 * queue after the answer to the child (whose consumer sends it), and, when that fails or never
 * happens, re-queued by the cron with the notifications' backoff (NOTIFY_RETRY_*), until the request is answered or expires (then it is deleted and
 * nothing is left to send). To the parent only; the suppression list does not apply (it is no
 * campaign). Rendered when sent: the token is signed then, expiring with the request.
 */

/**
 * The message of a claimed request, with the row's idempotency key; null when there is nothing
 * left to say (it expired meanwhile). Sent by the mail queue (worker/features/mail-queue).
 */
export async function parentMessage(deps: Deps, request: ParentalRequest): Promise<MailMessage | null> {
  if (expiryOf(deps, request.createdAt).getTime() <= deps.now().getTime()) return null;
  const origin = deps.config.siteUrl || request.origin;
  const link = parentLink(origin, await parentToken(deps, request));
  const facts = { band: request.ageBand as AgeBand, country: request.country, days: deps.config.retention.parentalRequestDays };
  return { receivers: [request.parentEmail], ...parentEmail({ ...facts, origin, link }), idempotencyKey: `parent-request-${request.id}` };
}

/**
 * The cron's share (worker/features/mail-queue requeueDue): claims due request e-mails whose
 * lease lapsed, oldest first, up to the batch size, and hands their jobs to the mail queue. How
 * many it re-queued.
 */
export async function runParentOutbox(deps: Deps): Promise<{ queued: number }> {
  const { notify } = deps.config;
  const rows = await deps.repo.mailQueue.claimDue(
    { joiner: 0, parent: notify.batchSize, waitlist: 0, form: 0 },
    { now: deps.now(), lockMs: notify.lockMs },
  );
  if (rows.length > 0) await deps.queues.mail.enqueue(rows.map((row) => ({ type: "parent", id: row.id, claim: row.claim })));
  return { queued: rows.length };
}
