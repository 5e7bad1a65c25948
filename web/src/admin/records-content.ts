/**
 * The console's words for its records: the paged tables, the waitlist and the contact messages,
 * the team's alert about each record, and erasing a person. Part of the console's copy
 * (./content.ts gathers it); the numbers and times in them are written by ./format.ts.
 */
import { entryRange, formatCount, plural, shorten } from "./format";
import { AGE_BAND_LABELS } from "./stats-content";

export const table = {
  search: "Search",
  searchButton: "Search",
  clear: "Clear",
  previous: "Previous page",
  next: "Next page",
  page: (n: number) => `Page ${n}`,
  pages: (title: string) => `${title}: pages`,
  /** The status of a loaded page: "26-50 of 60 entries on page 2." (the range from the page's place and size). */
  showing: (count: number, page: number, query: string, total: number | null, pageSize: number) => {
    const matching = query ? ` matching “${query}”` : "";
    if (count === 0) return `No entries on page ${page}${matching}.`;
    return `${entryRange(page, pageSize, count)} ${total === null ? "entries" : `of ${plural(total, "entry", "entries")}`}${matching} on page ${page}.`;
  },
  empty: "Nothing here yet.",
  noMatch: (query: string) => `Nothing matches “${query}”.`,
  download: "Download CSV",
  downloading: "Preparing the file…",
  downloaded: (fileName: string) => `Downloaded ${fileName}.`,
  scrollHint: "Scroll sideways to see every column.",
} as const;

export const waitlist = {
  title: "Waitlist",
  searchLabel: "Search the waitlist by e-mail, utm_campaign or referral code",
  caption: "Waitlist entries, newest first",
  columns: {
    email: "E-mail",
    joined: "Joined",
    source: "Form",
    campaign: "Campaign (source / medium / name)",
    referrer: "Came from",
    ageBand: "Age band",
    country: "Country",
    onBehalf: "For a child",
    status: "Status",
    place: "Place",
    invited: "Invited",
    referralCode: "Referral code",
    referredBy: "Referred by",
    referrals: "Referrals",
    waves: "Invite waves",
    notification: "Team alert",
  },
  /** The entry's age band (issue 23): for an entry on behalf of a child, the child's. */
  ageBands: AGE_BAND_LABELS,
  /** The "For a child" column: an entry a parent or guardian agreed to, under their own address. */
  onBehalf: "Parent's entry",
  onBehalfNote: "The address is a parent's or guardian's; no referral link",
  /** The joiner's confirmation (the "Status" column). */
  status: { pending: "Pending", confirmed: "Confirmed" },
  place: (place: number) => `#${formatCount(place)}`,
  /** The invite wave that drew the entry (the "Invited" column's note under the time). */
  invitedBy: (campaignId: number) => `By campaign #${campaignId}`,
  /** The same note naming the campaign, as a button that opens it in Campaigns. */
  invitedByNamed: (campaignId: number, subject: string) => `By #${campaignId} “${shorten(subject, 32)}”`,
  /** Its name starts with its visible words (axe: label-content-name-mismatch), then says what it does. */
  openInvitedBy: (campaignId: number, subject: string) => `By #${campaignId} “${shorten(subject, 32)}”: open it in Campaigns`,
  csvName: "waitlist.csv",
  /** Holding an entry out of invite waves (issue 22): its place is kept, no wave draws it. */
  hold: "Hold out of waves",
  /** Each button's name starts with its visible words (axe: label-content-name-mismatch), then names the entry. */
  holdLabel: (email: string) => `Hold out of waves: ${email}`,
  release: "Let back into waves",
  releaseLabel: (email: string) => `Let back into waves: ${email}`,
  /** Each action first asks, with the operator's reason, which the audit trail keeps. */
  holdConfirm: (email: string) => `Hold ${email} out of invite waves? Its place is kept; no wave draws it until it is let back.`,
  releaseConfirm: (email: string) => `Let ${email} back into invite waves? The next wave may draw it at its place.`,
  holdYes: "Hold it",
  releaseYes: "Let it back",
  cancel: "Cancel",
  reason: "Why (kept in the audit trail)",
  reasonMissing: "Say why, for the audit trail.",
  saving: "Saving…",
  held: "Held",
  heldSince: (time: string) => `Since ${time}`,
  heldDone: (email: string) => `${email} is held out of invite waves: no wave draws it until it is let back. Its place is kept.`,
  released: (email: string) => `${email} is back in invite waves, at its place in line.`,
  /** The Referrals column's note: credits an operator voided. */
  referralsVoided: (n: number) => `${formatCount(n)} voided`,
  /** The referral credit an entry gave the referrer it joined through (the "Referred by" column). */
  credit: {
    counted: "Credit counts",
    voided: "Credit voided",
    void: "Void credit",
    voidLabel: (email: string) => `Void credit of ${email}`,
    confirm: (code: string) =>
      `Void this referral credit? ${code} loses the referral and the places it gave, for good: the same friend never credits it again.`,
    yes: "Void it",
    keep: "Keep it",
    voiding: "Voiding…",
    // The boost is the order key's; the place shown moves less when nobody stood between (issue 22 review).
    done: (email: string, code: string, places: number, placeNow: number | null) =>
      `The referral credit of ${email} is void: ${code} lost the referral and ${plural(places, "place")}${placeNow === null ? "" : ` (now #${formatCount(placeNow)})`}.`,
  },
} as const;

export const messages = {
  title: "Contact messages",
  searchLabel: "Search the messages by name, e-mail or text",
  caption: "Contact messages, newest first",
  columns: { received: "Received", name: "Name", email: "E-mail", message: "Message", notification: "Team alert" },
  csvName: "contact-messages.csv",
} as const;

/** The team's alert e-mail about one record (the "Team alert" column). */
export const notification = {
  sent: (when: string | null) => (when ? `Sent ${when}` : "Sent"),
  sentBadge: "Sent",
  /** Undelivered, and no attempt failed: the next run sends it (in a digest past the hour's allowance). */
  waiting: "Waiting for the digest",
  waitingNote: "No attempt failed; sent at the next run",
  failed: "Failed",
  /** A failed one: its attempts, the error, and when it is tried again. */
  failedNote: (attempts: number, error: string, nextTry: string | null) =>
    `${plural(attempts, "attempt")}, last error: ${error}. ${nextTry ? `Next try ${nextTry}` : "Next try at the next run"}.`,
} as const;

export const erasure = {
  title: "Erase a person's data",
  intro:
    "Look up an e-mail address to see everything stored about it: waitlist entry, contact messages and sign-in account. You can then erase all of it (for a deletion request under data protection law). Erasing cannot be undone.",
  lookupLabel: "E-mail address",
  lookup: "Look up",
  lookingUp: "Looking up…",
  addressRequired: "Please enter the e-mail address to look up.",
  storedTitle: (email: string) => `Stored about ${email}`,
  nothingStored: (email: string) => `Nothing is stored about ${email}.`,
  waitlistEntry: "Waitlist entry",
  noWaitlistEntry: "No waitlist entry.",
  submissions: (n: number) => (n === 0 ? "No contact messages." : `Contact messages (${n})`),
  account: "Sign-in account",
  noAccount: "No sign-in account.",
  otherRecords: "Other records",
  sessions: (n: number) => (n === 0 ? "No sign-in sessions." : `Sign-in sessions (${n})`),
  session: (created: string, lastUsed: string | null) => `Started ${created}${lastUsed ? `, last used ${lastUsed}` : ""}`,
  signInCode: (sent: string, expires: string, usable: boolean) =>
    usable
      ? `A sign-in code sent ${sent}, not used yet (valid until ${expires}).`
      : `The record of the last sign-in code, sent ${sent} (used or no longer valid).`,
  submission: (when: string) => `Sent ${when}`,
  /** Children's requests waiting for the address as their parent (issue 23): erasing deletes them too. */
  parentalRequests: (n: number) => `Children's requests waiting for this address as their parent (${n})`,
  parentalRequest: (when: string, band: string, country: string | null, sent: string | null) =>
    `Made ${when}: a child aged ${band.toLowerCase()}${country ? `, in ${country}` : ""}; ${sent ? `the e-mail went ${sent}` : "the e-mail has not gone yet"}. The child's address is not kept.`,
  /** The entry's age band and whether a parent agreed on behalf of a child (issue 23). */
  onBehalf: (yes: boolean) => (yes ? "Yes: a parent's or guardian's entry for a child" : "No"),
  /** The consent record: who agreed (an address) and when, or that the address is not confirmed yet. */
  consent: ({ at, by, on_behalf_of_child }: { at: string | null; by: string; on_behalf_of_child: boolean }) =>
    on_behalf_of_child
      ? at
        ? `A parent or guardian agreed on ${at}, from ${by}.`
        : `A parent or guardian agreed from ${by} (no time recorded).`
      : at
        ? `The person joined and confirmed ${by} on ${at}.`
        : `The person joined with ${by} and has not confirmed it yet.`,
  confirmLabel: (email: string) => `To erase, type the address again: ${email}`,
  confirmHint: "The button works once the address matches.",
  erase: "Erase everything about this address",
  erasing: "Erasing…",
  erased: (email: string, counts: { waitlist: number; submissions: number; users: number }) =>
    `Erased everything about ${email}: ${plural(counts.waitlist, "waitlist entry", "waitlist entries")}, ` +
    `${plural(counts.submissions, "contact message")} and ${plural(counts.users, "sign-in account")}.`,
  fields: {
    email: "E-mail",
    source: "Form",
    created_at: "Created",
    updated_at: "Updated",
    email_sent: "Notification",
    utm_source: "Campaign source",
    utm_medium: "Campaign medium",
    utm_campaign: "Campaign",
    referrer_host: "Came from",
    status: "Status",
    confirmed_at: "Place confirmed",
    place: "Place in line",
    referral_code: "Referral code",
    referred_by: "Referred by",
    referrals_confirmed: "Confirmed referrals",
    age_band: "Age band",
    country: "Country",
    on_behalf_of_child: "On behalf of a child",
    consent: "Consent",
    last_sign_in_at: "Last signed in",
    email_confirmed_at: "Confirmed",
  },
} as const;
