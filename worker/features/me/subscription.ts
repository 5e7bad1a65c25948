import type { Deps } from "../../deps";
import type { MeConsentTrail, MeSubscription } from "../../shared/me";
import { mailboxKey } from "../waitlist";

/**
 * A person's consent to campaign e-mail, by the mailbox their address reaches (the suppression
 * list is keyed like the waitlist, worker/features/waitlist/keys.ts): what /api/me shows, and its
 * "Unsubscribe" / "Subscribe again" (docs/api.md "Campaign e-mail and unsubscribing").
 */

const keyOf = (deps: Deps, email: string) => mailboxKey(deps.config.auth.jwtSecret, email);

/** Whether the address's mailbox gets campaigns, and since when and why not. */
export async function subscriptionOf(deps: Deps, email: string): Promise<MeSubscription> {
  const suppressed = await deps.repo.consent.statusOf(await keyOf(deps, email));
  if (!suppressed) return { subscribed: true, unsubscribed_at: null, reason: null };
  return { subscribed: false, unsubscribed_at: suppressed.createdAt, reason: suppressed.reason };
}

/** Unsubscribes the signed-in address (source "me"), or subscribes it again (a `resubscribed` event); a no-op when already so. */
export async function setSubscribed(deps: Deps, email: string, subscribed: boolean): Promise<void> {
  const key = await keyOf(deps, email);
  const now = deps.now();
  if (subscribed) await deps.repo.consent.resubscribe({ mailboxKey: key, event: "resubscribed", source: "me", now });
  else await deps.repo.consent.suppress({ mailboxKey: key, reason: "unsubscribed", source: "me", campaignId: null, now });
}

/** The mailbox's consent for the person's data download: where it stands and every event behind it, oldest first. */
export async function consentTrailOf(deps: Deps, email: string): Promise<MeConsentTrail> {
  const [subscription, events] = await Promise.all([subscriptionOf(deps, email), deps.repo.consent.events(await keyOf(deps, email))]);
  return {
    subscription,
    events: events.map(({ event, source, campaignId, createdAt }) => ({ event, source, campaign_id: campaignId, created_at: createdAt })),
  };
}
