import type { Deps } from "../../deps";
import type { WaitlistEntry } from "../../platform/db/schema";
import type { MeAnswer } from "../../shared/me";
import type { ShareBoxData } from "./confirm-page";
import { referralLink } from "./emails";
import { referralBoostOf } from "./boost";
import { ConfirmTokenError } from "./tokens";

/**
 * Where an address stands, as GET /api/me and the confirmation page's share box show it. A place is two
 * indexed counts (queries/journey.ts placeOf) over the referrals' order key.
 */

/** The journey part of GET /api/me's answer. */
export type Journey = Pick<
  MeAnswer,
  | "status"
  | "position"
  | "referral_code"
  | "referral_link"
  | "referrals_pending"
  | "referrals_confirmed"
  | "joined_at"
  | "confirmed_at"
  | "referral_boost"
  | "age_band"
  | "on_behalf_of_child"
>;

/** Where an address stands: status, place, referral code and link, friends pending and confirmed, times, and its invitation. */
export async function journeyOf(deps: Deps, email: string, origin = ""): Promise<Journey & Pick<MeAnswer, "invited_at" | "invited_by">> {
  const entry = await deps.repo.waitlist.entryByEmail(email);
  const [journey, sent] = await Promise.all([
    journeyOfRecord(deps, entry, origin),
    entry?.invitedAt ? deps.repo.recipients.invitationOf(entry) : null,
  ]);
  const invited_by = sent ? { subject: sent.subject, sent_at: sent.sentAt } : null;
  return { ...journey, invited_at: entry?.invitedAt ?? null, invited_by };
}

/** The confirmation page's share box for the entry `entryId`, as it is now; ConfirmTokenError "unknown" when it is gone. */
export async function shareBoxOf(deps: Deps, entryId: number, origin: string): Promise<ShareBoxData> {
  const entry = await deps.repo.waitlist.entryById(entryId);
  if (!entry) throw new ConfirmTokenError("unknown");
  return journeyOf(deps, entry.email, origin);
}

async function journeyOfRecord(deps: Deps, entry: WaitlistEntry | null, origin: string): Promise<Journey> {
  if (!entry) {
    const none = { referral_code: null, referral_link: null, referrals_pending: 0, referrals_confirmed: 0 };
    const age = { age_band: null, on_behalf_of_child: false };
    return {
      status: "none",
      position: null,
      ...none,
      joined_at: null,
      confirmed_at: null,
      referral_boost: referralBoostOf(deps, null),
      ...age,
    };
  }
  const [position, pending] = await Promise.all([deps.repo.waitlist.placeOf(entry), deps.repo.referrals.pending(entry)]);
  const code = entry.confirmedAt ? entry.referralCode : null;
  return {
    status: entry.confirmedAt ? "confirmed" : "pending",
    position,
    referral_code: code,
    referral_link: code ? referralLink(deps.config.siteUrl || origin, code) : null,
    referrals_pending: pending,
    referrals_confirmed: entry.referralsConfirmed,
    joined_at: entry.createdAt,
    confirmed_at: entry.confirmedAt,
    referral_boost: referralBoostOf(deps, entry),
    age_band: entry.ageBand,
    on_behalf_of_child: entry.onBehalfOfChild,
  };
}
