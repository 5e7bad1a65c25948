import type { Deps } from "../../deps";
import { toBase64Url } from "../../platform/crypto";
import { API_BODY_ERRORS } from "../../platform/http/errors";
import type { Stored } from "../../platform/http/submission";
import { AGE_MESSAGES, type AgeBand } from "../../shared/age";
import { canonicalEmail } from "../../shared/text";
import { WAITLIST_MESSAGES } from "../../shared/waitlist";
import { confirmCap, isDisposableAddress, mailboxKeys } from "../waitlist";
import { handOver } from "../mail-queue";

/**
 * A child below the consent age asks a parent (issue 23 §2; docs/api.md "Parents"): what the join
 * routes (worker/features/waitlist) call with the parent's address instead of storing the child's.
 *
 * - The parent's address is refused at its field when it is no address or a disposable one.
 * - The request (the parent's canonical address and its mailbox key, the band, the country, the
 *   request's time; never the child's address) is stored with its e-mail claimed, and counted
 *   against the parent's mailbox's daily cap on the joiner e-mails (WAITLIST_CONFIRM_DAILY_LIMIT,
 *   the confirmations' own counter), in one batch: a child cannot make the product mail a
 *   stranger more than the confirmations could.
 * - Over the cap nothing is stored and nothing is sent, and the child is answered as ever (the
 *   answer says nothing about the parent's address, nor whether a request was made before).
 * - The e-mail's job goes to the mail queue after the answer (no database call: its consumer sends
 *   parentMessage, mail.ts); the cron re-queues it when that fails.
 * The request's id and token never reach the child: only the e-mail carries them.
 */
export type ParentAsk = { parentEmail: string; band: AgeBand; country: string | null; origin: string };

const invalid = (message: string) => API_BODY_ERRORS.invalid({ parent_email: message });

/**
 * The parent's address as a request keeps it (canonical), or its 400 at parent_email: no address,
 * or a disposable one. The public join checks it before its flood limit counts the request.
 */
export function parentAddress(address: string): string {
  const parentEmail = canonicalEmail(address);
  if (parentEmail === null) throw invalid(AGE_MESSAGES.parentEmailInvalid);
  if (isDisposableAddress(parentEmail)) throw invalid(WAITLIST_MESSAGES.emailDisposable);
  return parentEmail;
}

export async function askParent(deps: Deps, ask: ParentAsk): Promise<Stored> {
  const parentEmail = parentAddress(ask.parentEmail);
  const [mailboxKey] = await mailboxKeys(deps.config.auth.jwtSecret, parentEmail);
  const now = deps.now();
  const request = await deps.repo.parents.ask(
    {
      parentEmail,
      mailboxKey,
      ageBand: ask.band,
      country: ask.country,
      nonce: toBase64Url(crypto.getRandomValues(new Uint8Array(16))),
      origin: deps.config.siteUrl || ask.origin,
    },
    confirmCap(deps, mailboxKey),
    { claim: crypto.randomUUID(), now, lockMs: deps.config.notify.lockMs },
  );
  if (!request) return { at: now };
  const job = { type: "parent", id: request.id, claim: request.claim ?? "" } as const;
  return { at: now, after: () => handOver(deps, [job]) };
}
