import type { Deps } from "../../deps";
import { kickWebhooks } from "../webhooks";
import { deliverJoinerMail } from "./joiner-mail";
import { mailboxKey } from "./keys";
import { confirmCap, type Defer, queueMail, run } from "./writes";

/** What a joiner does to their own entry besides joining (GET /api/me's buttons): leave the list, or get the confirmation again. */

/**
 * Leaves the waitlist: the entry and its joiner mails are deleted, and the deletion is carried
 * downstream in the same batch (person.erased to the endpoints its data reached, the rest
 * cancelled and redacted); the webhooks queue is kicked after. False when it was not on it.
 */
export async function leaveWaitlist(deps: Deps, email: string): Promise<boolean> {
  const left = await deps.repo.waitlist.leave(email, deps.now());
  if (left) await kickWebhooks(deps);
  return left;
}

/**
 * Sends the confirmation again (pending entries only), within the mailbox's daily cap:
 * {sent: false, retryAfterSeconds} over it (until the UTC day ends); {sent: false} when the
 * address is not pending.
 */
export async function resendConfirmation(
  deps: Deps,
  email: string,
  options: { origin?: string; defer?: Defer } = {},
): Promise<{ sent: boolean; retryAfterSeconds?: number }> {
  const entry = await deps.repo.waitlist.entryByEmail(email);
  if (!entry || entry.confirmedAt !== null) return { sent: false };
  const cap = confirmCap(deps, await mailboxKey(deps.config.auth.jwtSecret, email));
  const mail = await deps.repo.waitlist.queueConfirmation(email, cap, queueMail(deps, options.origin ?? ""));
  if (!mail) return { sent: false, retryAfterSeconds: Math.max(1, cap.window.end - Math.floor(deps.now().getTime() / 1000)) };
  await run(deliverJoinerMail(deps, mail, entry), options.defer);
  return { sent: true };
}
