import type { ListedEntry, PersonData } from "./queries";
import type { PlacedEntry } from "./queries/journey";
import { attributionOf } from "../waitlist";
import type { AuthSession, FormSubmission, WaitlistEntry } from "../../platform/db/schema";
import type {
  AdminListedEntry,
  AdminSession,
  AdminSubmission,
  AdminWaitlistEntry,
  ConsentRecord,
  JourneyFields,
  PersonRecord,
} from "../../shared/admin";
import { formSlugOf } from "../../shared/forms";

/** The operator API's JSON of stored records (worker/shared/admin.ts: snake_case, as the columns). */

const delivery = (row: WaitlistEntry | FormSubmission) => ({
  email_sent: row.emailSent,
  email_sent_at: row.emailSentAt,
  notify_attempts: row.notifyAttempts,
  notify_last_error: row.notifyLastError,
  notify_next_attempt_at: row.emailSent ? null : row.notifyNextAttemptAt,
});

/**
 * An entry's journey. Its keys (mailbox_key, referral_network) and the confirmation's internals
 * (confirm_seq, rank_key, confirm_claim) stay in the database: the place says where it is.
 */
const journey = (row: PlacedEntry): JourneyFields => ({
  status: row.confirmedAt === null ? "pending" : "confirmed",
  confirmed_at: row.confirmedAt,
  place: row.confirmedAt === null ? null : row.place,
  referral_code: row.referralCode,
  referred_by: row.referredBy,
  referrals_confirmed: row.referralsConfirmed,
});

export function waitlistJson(row: PlacedEntry): AdminWaitlistEntry {
  return {
    id: row.id,
    email: row.email,
    source: row.source,
    ...attributionOf(row),
    ...journey(row),
    invited_at: row.invitedAt,
    invited_campaign_id: row.invitedCampaignId,
    age_band: row.ageBand,
    country: row.country,
    on_behalf_of_child: row.onBehalfOfChild,
    ...delivery(row),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    held_at: row.heldAt,
  };
}

/** An entry as the waitlist's list shows it: with its referral credits (issue 22). */
export function listedJson(row: ListedEntry): AdminListedEntry {
  return { ...waitlistJson(row), referral_credit: row.referralCredit, referrals_voided: row.referralsVoided };
}

export function submissionJson(row: FormSubmission): AdminSubmission {
  return { id: row.id, form: formSlugOf(row.formName), fields: row.formData, ...delivery(row), created_at: row.createdAt };
}

function sessionJson(session: AuthSession): AdminSession {
  return {
    id: session.id,
    created_at: session.createdAt,
    updated_at: session.updatedAt,
    refreshed_at: session.refreshedAt,
    user_agent: session.userAgent,
    ip: session.ip,
  };
}

/**
 * An entry's consent record (issue 23 §6): on behalf of a child, the parent's agreement (the
 * entry's address is the parent's); otherwise the person's own confirmation of their address.
 */
export function consentOf(row: WaitlistEntry): ConsentRecord {
  return row.onBehalfOfChild
    ? { at: row.parentalConsentAt, by: row.email, on_behalf_of_child: true }
    : { at: row.confirmedAt, by: row.email, on_behalf_of_child: false };
}

/** Everything stored about one address; of its sign-in code only the times, never the code. */
export function personJson(email: string, found: PersonData, now: Date): PersonRecord {
  const { user, signInCode: code } = found;
  return {
    email,
    waitlist: found.waitlist ? waitlistJson(found.waitlist) : null,
    submissions: found.submissions.map(submissionJson),
    user: user
      ? {
          id: user.id,
          email: user.email,
          email_confirmed_at: user.emailConfirmedAt,
          last_sign_in_at: user.lastSignInAt,
          user_metadata: user.userMetadata,
          created_at: user.createdAt,
          updated_at: user.updatedAt,
          sessions: user.sessions.map(sessionJson),
        }
      : null,
    sign_in_code: code
      ? { sent_at: code.sentAt, expires_at: code.expiresAt, usable: code.live && code.expiresAt > now.toISOString() }
      : null,
    consent: found.waitlist ? consentOf(found.waitlist) : null,
    parental_requests: found.parentalRequests.map((request) => ({
      created_at: request.createdAt,
      age_band: request.ageBand,
      country: request.country,
      sent_at: request.sentAt,
    })),
  };
}
