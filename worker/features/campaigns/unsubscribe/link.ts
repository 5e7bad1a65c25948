import type { Deps } from "../../../deps";
import { log } from "../../../platform/log";
import type { ConsentSource } from "../queries/consent";
import { maskAddress, verifyUnsubscribe } from "./token";

/**
 * The rules of an unsubscribe link (docs/api.md "Campaign e-mail and unsubscribing"; the route is
 * routes.ts): what a token stands for, whether the list knows its mailbox, and the unsubscribe
 * itself. A mailbox the list does not know (no confirmed entry, no suppression, no consent trail:
 * it was erased) is never written back, so an erased person's old link cannot bring data about
 * them back; a test e-mail's link (to an operator, who is not on the list) is the same.
 */

/** A link this server signed, whose mailbox the list knows. */
export type UnsubscribeLink = {
  campaignId: number;
  mailboxKey: string;
  /** The mailbox's address as the pages name it, masked (the link may have been forwarded); null when no entry has it. */
  address: string | null;
  /** Whether the mailbox is on the suppression list already. */
  unsubscribed: boolean;
};

/** Whether the list knows the mailbox: a confirmed entry, or a suppression or consent trail of its own (an erased one has none). */
async function knownMailbox(deps: Deps, mailboxKey: string, address: string | null, onList: boolean): Promise<boolean> {
  if (address !== null || onList) return true;
  return (await deps.repo.consent.events(mailboxKey)).length > 0;
}

/**
 * What a link's token stands for: "invalid" when it is not this server's (changed, cut short),
 * "notListed" when the list does not know its mailbox, else the link. Reading it changes nothing.
 */
export async function readLink(deps: Deps, token: string): Promise<UnsubscribeLink | "invalid" | "notListed"> {
  const valid = await verifyUnsubscribe(deps.config.auth.jwtSecret, token);
  if (!valid) return "invalid";
  const [address, status] = await Promise.all([
    deps.repo.recipients.addressOfMailbox(valid.mailboxKey),
    deps.repo.consent.statusOf(valid.mailboxKey),
  ]);
  if (!(await knownMailbox(deps, valid.mailboxKey, address, status !== null))) return "notListed";
  return { ...valid, address: address ? maskAddress(address) : null, unsubscribed: status !== null };
}

/** Puts the link's mailbox on the suppression list (unsubscribing twice is the same as once); false when it was on it already. */
export async function unsubscribe(deps: Deps, link: UnsubscribeLink, source: ConsentSource): Promise<boolean> {
  const added = await deps.repo.consent.suppress({
    mailboxKey: link.mailboxKey,
    reason: "unsubscribed",
    source,
    campaignId: link.campaignId,
    now: deps.now(),
  });
  // The log names the campaign, never the mailbox.
  log("info", "campaign.unsubscribed", { campaign_id: link.campaignId, source, changed: added });
  return added;
}
