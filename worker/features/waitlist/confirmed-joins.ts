import type { Deps } from "../../deps";
import type { AgeBandStored } from "../../shared/age";
import type { AgeDecision } from "../age";
import { firstClaim } from "../notifications";
import { isDisposableAddress } from "./disposable";
import { type Defer, run } from "./writes";
import { afterJoin, disposable, joinWithJourney } from "./join";

/**
 * The joins that are confirmed at once (worker/features/waitlist/join.ts holds the public join and
 * the journey they share): a signed-in address's one-click join, and a parent's entry on behalf of
 * a child once the parent agreed.
 */

/**
 * Joins a signed-in address with one click, confirmed at once (signing in proved the address),
 * or confirms its pending entry: the company is notified as for any join, the joiner gets the
 * welcome. "already": it was confirmed before. The same disposable rule as the public join:
 * signing in proves an address works, not that it lasts. `age`: the age question's band and
 * country (the route decided them: worker/features/me/routes.ts), stored with a new entry.
 */
export async function joinConfirmed(
  deps: Deps,
  email: string,
  options: { origin?: string; defer?: Defer; network?: string | null; age?: Pick<AgeDecision, "band" | "country"> } = {},
): Promise<"joined" | "already"> {
  if (isDisposableAddress(email)) throw disposable();
  const age = options.age ? { ageBand: options.age.band, country: options.age.country } : {};
  const result = await joinWithJourney(deps, { email, source: "me", ...age }, firstClaim(deps), {
    origin: options.origin ?? "",
    signedIn: true,
    network: options.network ?? null,
  });
  await run(afterJoin(deps, result)(), options.defer);
  // An entry of before the age question takes its owner's answer (signing in proved the address;
  // a stranger's public join never gets here).
  if (options.age && result.current?.ageBand === "unknown") {
    await deps.repo.waitlist.fillAge(email, { ageBand: options.age.band, country: options.age.country });
  }
  // Whether the welcome fit the mailbox's daily cap or not, the join confirmed it.
  return result.confirmedHere ? "joined" : "already";
}

/**
 * A parent's or guardian's agreement to a child's join (issue 23; worker/features/parents calls
 * this when the parent presses "agree"): the parent's own address joins, confirmed at once (the
 * e-mailed link the parent followed proved the address), on behalf of the child, with the child's
 * band, the country and when the parent agreed; it never gets a referral code, never counts a
 * referral, and its welcome has no referral link. An address already on the list keeps its entry
 * as it is and nothing else is recorded ("already").
 */
export async function joinOnBehalfOfChild(
  deps: Deps,
  parentEmail: string,
  options: { band: AgeBandStored; country: string | null; consentAt: Date; origin: string; defer?: Defer },
): Promise<"joined" | "already"> {
  if (await deps.repo.waitlist.entryByEmail(parentEmail)) return "already";
  const input = {
    email: parentEmail,
    source: ON_BEHALF_SOURCE,
    ageBand: options.band,
    country: options.country,
    onBehalfOfChild: true,
    parentalConsentAt: options.consentAt,
  };
  // "signedIn": confirmed at once without counting any referral (it carries none).
  const result = await joinWithJourney(deps, input, firstClaim(deps), { origin: options.origin, signedIn: true });
  await run(afterJoin(deps, result)(), options.defer);
  return result.confirmedHere && result.current?.onBehalfOfChild ? "joined" : "already";
}

/** The source of an entry a parent made on behalf of a child (the console's breakdowns show it). */
export const ON_BEHALF_SOURCE = "parent";
