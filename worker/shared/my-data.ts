/**
 * GET /api/me/data's download, "Download my data" on My place (issue 22): everything stored about
 * the signed-in address, as an indented JSON file a student can read. Its names are plain words
 * (not the database's columns), "about this file" at its top explains each part, and it ends
 * with what an erasure keeps (erasure.ts). The operator's look-up (POST /api/admin/people/lookup)
 * keeps the full record under the API's own names (admin.ts PersonRecord); this file holds the
 * same facts, plus the e-mails sent to the person and their e-mail choices. Times are ISO 8601
 * in UTC; null means "not (yet)".
 */

import type { AgeBandStored } from "./age";

/** The team's e-mail about a signup or a message (not an e-mail to the student). */
export type MyDataTeamNotice = {
  sent: boolean;
  "sent at": string | null;
  tries: number;
  "last error": string | null;
  "next try at": string | null;
};

export type MyDataWaitlist = {
  "record number": number;
  status: "waiting for you to confirm your email address" | "confirmed";
  "joined at": string;
  "confirmed at": string | null;
  /** 1 is first; null until confirmed. */
  "your place in line": number | null;
  "your referral code": string | null;
  "the referral code you joined with": string | null;
  "friends who joined with your link and confirmed": number;
  "how you found us": {
    "signup form": string | null;
    "campaign source (utm_source)": string | null;
    "campaign medium (utm_medium)": string | null;
    "campaign name (utm_campaign)": string | null;
    "website that linked to us": string | null;
  };
  // Issue 23 (the API contract's age_band, country and consent {at, by}, in this file's plain words).
  /** The age group the age question gave (never the birth month or year): "unknown" for entries of before it was asked. */
  "your age group": AgeBandStored;
  /** The country the join came from (two letters, as Cloudflare read it), if known. */
  "the country you joined from": string | null;
  /**
   * A place a parent or guardian holds on behalf of a child: when they agreed, and the address
   * that agreed (the entry's own); null for everyone else's place.
   */
  "a parent's or guardian's consent": { "agreed at": string; "agreed by": string } | null;
  "invited at": string | null;
  "invited by launch email number": number | null;
  "our team's notice of your signup": MyDataTeamNotice;
  "last changed at": string;
};

export type MyDataMessage = {
  "record number": number;
  form: string;
  "sent at": string;
  "what you wrote": Record<string, unknown>;
  "our team's notice of your message": MyDataTeamNotice;
};

export type MyDataSignIn = {
  "account id": string;
  "email address": string;
  "email address confirmed at": string | null;
  "last signed in at": string | null;
  "created at": string;
  "last changed at": string;
  "details saved with your sign-in": Record<string, unknown>;
  "devices you signed in on": {
    "session id": string;
    "signed in at": string;
    "last used at": string;
    "last renewed at": string | null;
    "browser (as it describes itself)": string | null;
    "IP address": string | null;
  }[];
};

export type MyData = {
  "about this file": { "what this is": string; times: string; parts: Record<string, string> };
  "your email address": string;
  "your place on the waitlist": MyDataWaitlist | null;
  "emails we sent you": {
    "confirmation and welcome emails": {
      email: "confirm your address" | "welcome";
      "queued at": string;
      "sent at": string | null;
      tries: number;
    }[];
    "launch emails": { "launch email number": number; subject: string; "what happened": string; "sent at": string | null }[];
  };
  "messages you sent us": MyDataMessage[];
  "your sign-in": MyDataSignIn | null;
  "your latest sign-in code": { "sent at": string; "expires at": string; "can still be used": boolean } | null;
  "launch news and invitations": {
    "you get them": boolean;
    "stopped at": string | null;
    why: string | null;
    history: { "what happened": string; how: string; "from launch email number": number | null; when: string }[];
  };
  "what we keep if you delete everything": readonly string[];
};
