import type { Deps } from "../../deps";
import type { WaitlistEntry } from "../../platform/db/schema";
import { flagNetwork } from "../referrals";
import { kickWebhooks } from "../webhooks";
import { mailboxKeys, networkKey } from "./keys";
import { ConfirmTokenError, readConfirmationToken } from "./tokens";
import { confirmWrite, withConfirmRetries } from "./writes";

/**
 * Confirming an entry (POST /confirm, confirm-routes.ts): one batch, idempotent. The first
 * confirmation wins (a random claim), and its referral counts once, never for the referrer's own
 * mailbox (worker/features/referrals/queries.ts), and only through the link of the join that
 * carried it (queries/journey.ts ReferralProof): a planted referral is dropped.
 */

/** The entry a confirmation token names, and the join it carries; ConfirmTokenError when the token is invalid or expired, or its entry is gone ("unknown"). */
async function readToken(deps: Deps, token: string): Promise<{ entry: WaitlistEntry; join: string | null }> {
  const { entryId, join } = await readConfirmationToken(deps, token);
  const entry = await deps.repo.waitlist.entryById(entryId);
  if (!entry) throw new ConfirmTokenError("unknown");
  return { entry, join: join ?? null };
}

/** The entry a confirmation token names (ConfirmTokenError as readToken). */
export async function entryOfToken(deps: Deps, token: string): Promise<WaitlistEntry> {
  return (await readToken(deps, token)).entry;
}

/**
 * Confirms the entry of a confirmation token. Opening the link never gets here (the page's
 * button posts). Throws ConfirmTokenError for an invalid, expired or unknown token, which change
 * nothing. `clientNetwork` is the confirming request's clientKey (IPv4, IPv6 /64), kept hashed
 * with a referred entry for the operator's flag.
 */
export async function confirmEntry(
  deps: Deps,
  token: string,
  clientNetwork: string | null,
): Promise<{ outcome: "confirmed" | "already"; entryId: number }> {
  const { entry, join } = await readToken(deps, token);
  const entryId = entry.id;
  if (entry.confirmedAt !== null) return { outcome: "already", entryId };
  const secret = deps.config.auth.jwtSecret;
  const keys = await mailboxKeys(secret, entry.email);
  const [key] = keys;
  const network = clientNetwork ? await networkKey(secret, clientNetwork) : null;
  // Only the referral of the join whose link this is counts (its token carries that join).
  const referral = { link: join };
  let write = confirmWrite(deps, keys, network, referral);
  const after = await withConfirmRetries(() => {
    write = confirmWrite(deps, keys, network, referral);
    return deps.repo.waitlist.confirm(entry, write);
  });
  if (!after) throw new ConfirmTokenError("unknown");
  const won = after.confirmClaim === write.claim;
  // Pressing the link's button proves the mailbox is the joiner's: consent renewed, off the suppression list.
  if (won) await deps.repo.consent.resubscribe({ mailboxKey: key, event: "rejoined", source: "confirm", now: deps.now() });
  if (won && after.referredBy && after.referralNetwork) await flagNetwork(deps, after.referredBy, after.referralNetwork);
  // Its batch may have stored webhook events (waitlist.confirmed, referral.confirmed): a queue message, never a throw.
  if (won) await kickWebhooks(deps);
  return { outcome: won ? "confirmed" : "already", entryId };
}
