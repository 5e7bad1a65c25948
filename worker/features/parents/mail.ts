import type { Deps } from "../../deps";
import type { ParentalRequest } from "../../platform/db/schema";
import { describeError, log } from "../../platform/log";
import { nextAttemptAt, sendRecorded } from "../../platform/mail/outbox";
import type { MailMessage } from "../../platform/mail/transport";
import type { AgeBand } from "../../shared/age";
import { parentEmail, parentLink } from "./emails";
import { expiryOf, parentToken } from "./token";

/**
 * The parental requests' outbox: each request row is its own e-mail's outbox (as joiner_mail):
 * stored in the request's batch claimed for the request that stored it, sent after the answer to
 * the child, and, when that fails or never happens, retried by the cron with the notifications'
 * backoff (NOTIFY_RETRY_*), until the request is answered or expires (then it is deleted and
 * nothing is left to send). To the parent only; the suppression list does not apply (it is no
 * campaign). Rendered when sent: the token is signed then, expiring with the request.
 */

/** The message of a claimed request; null when there is nothing left to say (it expired meanwhile). */
async function messageFor(deps: Deps, request: ParentalRequest): Promise<MailMessage | null> {
  if (expiryOf(deps, request.createdAt).getTime() <= deps.now().getTime()) return null;
  const origin = deps.config.siteUrl || request.origin;
  const link = parentLink(origin, await parentToken(deps, request));
  const facts = { band: request.ageBand as AgeBand, country: request.country, days: deps.config.retention.parentalRequestDays };
  return { receivers: [request.parentEmail], ...parentEmail({ ...facts, origin, link }) };
}

/** Sends one claimed request's e-mail and records the outcome; never throws. Whether it was sent. */
export async function deliverParentMail(deps: Deps, request: ParentalRequest): Promise<boolean> {
  const context = { id: request.id, transport: deps.visitorTransport.name };
  return sendRecorded(
    () => messageFor(deps, request),
    (message) => deps.visitorTransport.send(message),
    {
      sent: (receipt) => deps.repo.parents.markRequestSent(request, deps.now(), receipt.devMail),
      async failed(error) {
        const next = nextAttemptAt(request.attempts, deps.now(), deps.config.notify);
        log("error", "parent_mail.failed", {
          ...context,
          attempt: request.attempts,
          next_attempt_at: next.toISOString(),
          error: describeError(error),
        });
        await deps.repo.parents.markRequestFailed(request, describeError(error), next);
      },
      notRecorded: (error) => log("error", "parent_mail.not_recorded", { ...context, error: describeError(error) }),
    },
  );
}

export type ParentOutboxReport = { attempted: number; sent: number; failed: number };

/** The cron's share, beside the joiner mails': claims due request e-mails, oldest first, up to the batch size, and sends each. */
export async function runParentOutbox(deps: Deps): Promise<ParentOutboxReport> {
  const { notify } = deps.config;
  const requests = await deps.repo.parents.claimDueRequests({
    claim: crypto.randomUUID(),
    now: deps.now(),
    lockMs: notify.lockMs,
    limit: notify.batchSize,
  });
  const report: ParentOutboxReport = { attempted: requests.length, sent: 0, failed: 0 };
  for (const request of requests) {
    if (await deliverParentMail(deps, request)) report.sent += 1;
    else report.failed += 1;
  }
  if (requests.length > 0)
    log(report.failed > 0 ? "warn" : "info", "parent_mail.outbox_run", { ...report, transport: deps.visitorTransport.name });
  return report;
}
