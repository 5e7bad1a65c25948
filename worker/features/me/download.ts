import type { Deps } from "../../deps";
import type { WaitlistEntry } from "../../platform/db/schema";
import type { DeliveryStatus, PersonRecord } from "../../shared/admin";
import { KEPT_AFTER_ERASURE } from "../../shared/erasure";
import type { MeConsentTrail } from "../../shared/me";
import type { MyData, MyDataTeamNotice } from "../../shared/my-data";

/**
 * "Download my data" (GET /api/me/data) in words a student reads (worker/shared/my-data.ts): the
 * operator's look-up of the address (its record, worker/features/operator/json.ts, where the
 * place and a code's usability are decided; the same batch, audited as "self"), the e-mails the
 * look-up found sent to the entry, and the consent trail, each part renamed and explained at the
 * file's top.
 */

/** The e-mails to the entry that the look-up read besides the operator's record. */
type Mails = Pick<Awaited<ReturnType<Deps["repo"]["operator"]["person"]>>, "joinerMails" | "campaignMails"> & {
  /** The stored entry as it is (its age band, country and consent record: issue 23). */
  waitlist?: Pick<WaitlistEntry, "ageBand" | "country" | "onBehalfOfChild" | "parentalConsentAt" | "email"> | null;
};

/** What each part of the file holds, in the order the file gives them. */
const PARTS: Record<Exclude<keyof MyData, "about this file">, string> = {
  "your email address": "The address you signed in with. Everything below is stored under it.",
  "your place on the waitlist":
    "Your waitlist entry: when you joined and confirmed, your place in line, your referral code and the one you " +
    "joined with, how you found us, your age group (from the birth month and year you gave, which we do not keep), " +
    "the country you joined from, the consent record of a place a parent or guardian holds for a child (when, and the address that agreed), " +
    "and our team's notice of your signup (an email to our team, not to you). " +
    "Empty if you are not on the waitlist.",
  "emails we sent you":
    "The confirmation or welcome emails of your waitlist entry, and the launch emails (news, invitations) meant for you, " +
    "with what became of each.",
  "messages you sent us": "What you sent through our contact form, with our team's notice of it.",
  "your sign-in": "Your sign-in account, and each device you signed in on: when, its IP address and what its browser says it is.",
  "your latest sign-in code":
    "When we last emailed you a sign-in code and until when it works. We keep the code only as a keyed hash, so it is not here.",
  "launch news and invitations": "Whether you get our launch emails, and every time you (or your email provider) turned them off or on.",
  "what we keep if you delete everything": 'What stays after you press "Delete everything" on My place, and why.',
};

const WHO: Record<MeConsentTrail["events"][number]["event"], string> = {
  unsubscribed: "you unsubscribed",
  resubscribed: "you subscribed again",
  rejoined: "you joined the waitlist again, which turned them back on",
  bounced: "your email provider refused our email",
  complained: "you marked our email as spam",
};
const HOW: Record<string, string> = {
  "one-click": "the unsubscribe button of your email app",
  page: "the unsubscribe link in our email",
  me: "your My place page",
  transport: "a report from our email provider",
  join: "a join of the waitlist",
  confirm: "the confirmation link in our email",
};
const WHY: Record<MeConsentTrail["subscription"]["reason"] & string, string> = {
  unsubscribed: "you unsubscribed",
  bounced: "your email provider refused our email",
  complained: "you marked our email as spam",
};
const SKIPPED: Record<string, string> = {
  unsubscribed: "not sent: you had unsubscribed",
  bounced: "not sent: your email provider had refused our email",
  complained: "not sent: you had marked our email as spam",
  erased: "not sent",
  cancelled: "not sent: we cancelled it",
};

function outcome(status: string, skipReason: string | null): string {
  if (status === "sent") return "sent";
  if (status === "skipped") return SKIPPED[skipReason ?? ""] ?? "not sent";
  if (status === "failed") return "not sent: it failed";
  return "waiting to be sent";
}

function notice(row: DeliveryStatus): MyDataTeamNotice {
  return {
    sent: row.email_sent,
    "sent at": row.email_sent_at,
    tries: row.notify_attempts,
    "last error": row.notify_last_error,
    "next try at": row.notify_next_attempt_at,
  };
}

/** The readable file of everything found about the address (`record`, `mails`, `consent`), as of `now`. */
export function readableData(record: PersonRecord, mails: Mails, consent: MeConsentTrail, now: Date): MyData {
  const { email, waitlist: entry, user, sign_in_code: code } = record;
  return {
    "about this file": {
      "what this is": `Everything Homework Helper stores about ${email}, as it was on ${now.toISOString()}.`,
      times:
        'Every time is in UTC (Coordinated Universal Time), written as year-month-day "T" hour:minute:second. null means it has not happened (yet).',
      parts: PARTS,
    },
    "your email address": email,
    "your place on the waitlist": entry && {
      "record number": entry.id,
      status: entry.status === "pending" ? "waiting for you to confirm your email address" : "confirmed",
      "joined at": entry.created_at,
      "confirmed at": entry.confirmed_at,
      "your place in line": entry.place,
      "your referral code": entry.referral_code,
      "the referral code you joined with": entry.referred_by,
      "friends who joined with your link and confirmed": entry.referrals_confirmed,
      "how you found us": {
        "signup form": entry.source,
        "campaign source (utm_source)": entry.utm_source,
        "campaign medium (utm_medium)": entry.utm_medium,
        "campaign name (utm_campaign)": entry.utm_campaign,
        "website that linked to us": entry.referrer_host,
      },
      "your age group": mails.waitlist?.ageBand ?? "unknown",
      "the country you joined from": mails.waitlist?.country ?? null,
      "a parent's or guardian's consent":
        mails.waitlist?.onBehalfOfChild && mails.waitlist.parentalConsentAt
          ? { "agreed at": mails.waitlist.parentalConsentAt, "agreed by": mails.waitlist.email }
          : null,
      "invited at": entry.invited_at,
      "invited by launch email number": entry.invited_campaign_id,
      "our team's notice of your signup": notice(entry),
      "last changed at": entry.updated_at,
    },
    "emails we sent you": {
      "confirmation and welcome emails": mails.joinerMails.map((mail) => ({
        email: mail.kind === "confirm" ? "confirm your address" : "welcome",
        "queued at": mail.createdAt,
        "sent at": mail.sentAt,
        tries: mail.attempts,
      })),
      "launch emails": mails.campaignMails.map((mail) => ({
        "launch email number": mail.campaignId,
        subject: mail.subject,
        "what happened": outcome(mail.status, mail.skipReason),
        "sent at": mail.sentAt,
      })),
    },
    "messages you sent us": record.submissions.map((row) => ({
      "record number": row.id,
      form: row.form,
      "sent at": row.created_at,
      "what you wrote": row.fields,
      "our team's notice of your message": notice(row),
    })),
    "your sign-in": user && {
      "account id": user.id,
      "email address": user.email,
      "email address confirmed at": user.email_confirmed_at,
      "last signed in at": user.last_sign_in_at,
      "created at": user.created_at,
      "last changed at": user.updated_at,
      "details saved with your sign-in": user.user_metadata,
      "devices you signed in on": user.sessions.map((session) => ({
        "session id": session.id,
        "signed in at": session.created_at,
        "last used at": session.updated_at,
        "last renewed at": session.refreshed_at,
        "browser (as it describes itself)": session.user_agent,
        "IP address": session.ip,
      })),
    },
    "your latest sign-in code": code && {
      "sent at": code.sent_at,
      "expires at": code.expires_at,
      "can still be used": code.usable,
    },
    "launch news and invitations": {
      "you get them": consent.subscription.subscribed,
      "stopped at": consent.subscription.unsubscribed_at,
      why: consent.subscription.reason && WHY[consent.subscription.reason],
      history: consent.events.map((event) => ({
        "what happened": WHO[event.event],
        how: HOW[event.source] ?? event.source,
        "from launch email number": event.campaign_id,
        when: event.created_at,
      })),
    },
    "what we keep if you delete everything": KEPT_AFTER_ERASURE,
  };
}
