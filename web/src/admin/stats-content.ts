/**
 * The console's words for its figures: the overview, confirmation and referrals, the sign-ups
 * chart, where sign-ups come from, and the team's notifications. Part of the console's copy
 * (./content.ts gathers it); the numbers in them are written by ./format.ts.
 */
import { type ParentOutcomes, STATS_DAYS } from "@shared/admin";
import type { AgeBandStored } from "@shared/age";
import type { RetentionKind } from "@shared/retention";
import { formatCount, plural } from "./format";

/** A count in a sentence, "none" for 0. */
const countOrNone = (n: number) => (n === 0 ? "none" : formatCount(n));

/** What a retention kind's line names, and the word for what the cron did. */
type KindWords = { label: string; went: string };

/** The age bands as the console names them (an entry's band; for an entry on behalf of a child, the child's). */
export const AGE_BAND_LABELS = {
  under_13: "Under 13",
  "13_15": "13 to 15",
  "16_17": "16 or 17",
  "18_plus": "18 or over",
  unknown: "Not asked (joined before the age question)",
} as const satisfies Record<AgeBandStored, string>;

export const overview = {
  title: "Overview",
  total: "On the waitlist",
  last24h: "Joined in the last 24 hours",
  last7d: "Joined in the last 7 days",
  submissions: "Contact messages",
  undelivered: "Notifications not yet delivered",
  refresh: "Refresh the figures",
  refreshed: "Figures refreshed.",
  /** The joiner's confirmations and welcomes this UTC day against VISITOR_EMAIL_DAILY_BUDGET, and what waits. */
  visitorMail: ({ budget, sentToday, waiting }: { budget: number; sentToday: number; waiting: number }) =>
    `Visitor e-mail today: ${formatCount(sentToday)} of the daily budget of ${formatCount(budget)} sent.` +
    (sentToday < budget
      ? waiting > 0
        ? ` ${plural(waiting, "e-mail")} not sent yet.`
        : ""
      : waiting > 0
        ? ` Budget reached: ${plural(waiting, "e-mail")} ${waiting === 1 ? "waits and goes" : "wait and go"} out, oldest first, as the budget allows.`
        : " Budget reached: the next e-mails wait for the next UTC day."),
  /** The retention schedule (issue 23): per kind, its days and what went today and over the stats' days. */
  retention: {
    title: "Kept only as long as needed",
    kinds: {
      unconfirmed_entries: { label: "Unconfirmed sign-ups", went: "deleted" },
      referral_networks: { label: "Referral network hashes", went: "cleared" },
      contact_messages: { label: "Contact messages", went: "deleted" },
      parental_requests: { label: "Unanswered parental requests", went: "deleted" },
    } satisfies Record<RetentionKind, KindWords>,
    line: ({ label, went }: { label: string; went: string }, days: number, today: number, lastDays: number) =>
      `${label}, kept ${plural(days, "day")}: ${countOrNone(today)} ${went} today, ${countOrNone(lastDays)} in the last ${STATS_DAYS} days.`,
    last: (day: string | null) => (day ? `Last deletion: ${day} (UTC).` : "Nothing has been deleted yet."),
  },
  /** Students and their parents (issue 23): the waitlist by age band, and what became of parental requests. */
  children: {
    title: "Students and their parents",
    bandsTitle: "On the waitlist, by age",
    bands: AGE_BAND_LABELS,
    band: (label: string, n: number) => `${label}: ${formatCount(n)}`,
    /** Under 13 never joins with their own address: shown only if such an entry exists, as something to look at. */
    ownUnder13: (n: number) => `Under 13 with their own address: ${formatCount(n)} (should be none: look at these entries)`,
    onBehalf: (n: number, byBand: Record<AgeBandStored, number>) => {
      const parts = (Object.keys(AGE_BAND_LABELS) as AgeBandStored[])
        .filter((band) => byBand[band] > 0)
        .map((band) => `${AGE_BAND_LABELS[band].toLowerCase()}: ${formatCount(byBand[band])}`);
      return `On behalf of a child (the address is a parent's or guardian's): ${formatCount(n)}${parts.length > 0 ? ` (child ${parts.join(", ")})` : ""}`;
    },
    requestsTitle: "Parental requests",
    pending: (n: number, oldest: string | null) =>
      n === 0
        ? "No request is waiting for a parent's answer."
        : `${plural(n, "request")} waiting for a parent's answer${oldest ? `, the oldest since ${oldest}` : ""}.`,
    answers: (span: "today" | "lastDays", { agreed, declined, expired }: ParentOutcomes) =>
      `${span === "today" ? "Today" : `In the last ${STATS_DAYS} days`}: ${countOrNone(agreed)} agreed, ${countOrNone(declined)} said no, ${countOrNone(expired)} expired without an answer.`,
    note: "A child below the consent age never joins with their own address: until a parent answers, only the parent's address, the age band, the country and the time are kept. Saying no deletes the request at once; a request nobody answers is deleted by the retention schedule. Campaigns never write to a waiting request.",
  },
  /** From joining to an invitation: each step, and the counts that explain its difference to the one before. */
  funnel: {
    title: "From joining to an invitation",
    confirmed: "Confirmed their address",
    inboxes: "Inboxes",
    reachable: "Can be written to",
    invited: "Invited by a wave",
    pending: (joined: number, pending: number) =>
      `Of ${plural(joined, "person", "people")} on the waitlist, ${pending === 0 ? "none is" : `${formatCount(pending)} ${pending === 1 ? "is" : "are"}`} still to confirm.`,
    sharedInbox: (confirmed: number, inboxes: number, shared: number) =>
      `${formatCount(confirmed)} confirmed, ${plural(inboxes, "inbox", "inboxes")}: ${shared === 1 ? "1 shares" : `${countOrNone(shared)} share`} an inbox with an earlier entry.`,
    suppressed: (unsubscribed: number, undeliverable: number) =>
      `${countOrNone(unsubscribed)} unsubscribed, ${countOrNone(undeliverable)} bounced or complained.`,
    notInvited: (reachable: number, waiting: number, held: number) =>
      `Of ${formatCount(reachable)}: ${formatCount(waiting)} waiting for a wave, ${countOrNone(held)} held out of waves.`,
    note: "One e-mail goes to each inbox (name@, name+tag@ and Name@ are one), to its first entry in line. Invite waves draw the waiting in order of place.",
  },
} as const;

export const referrals = {
  title: "Confirmation and referrals",
  pending: "Waiting for confirmation",
  confirmed: "Confirmed",
  rate: "Confirmation rate",
  referrals: "Confirmed referrals",
  viral: "Viral coefficient",
  note: "The confirmation rate is of everyone on the waitlist (confirmed ÷ all entries). The viral coefficient is confirmed referrals per confirmed joiner: 0.50 means every two confirmed joiners brought one more.",
  top: {
    title: "Top referrers, by confirmed referrals",
    email: "Referrer",
    code: "Code",
    count: "Referrals",
    empty: "No confirmed referrals yet.",
  },
  flagged: {
    title: "Flagged networks",
    intro: (flagAt: number) =>
      `Referrers with ${plural(flagAt, "confirmed referral")} or more from one network (one IP address, or one IPv6 /64). A school or a family shares one address, so a flag is a reason to look, not proof of abuse: nothing is blocked, and the network itself is never shown. A voided credit still counts here (“8 (3 voided)”), not in Top referrers.`,
    email: "Referrer",
    code: "Code",
    fromOne: "From one network",
    /** A count the flag or the clusters make, with the credits of it an operator voided (issue 22 review). */
    withVoided: (n: number, voided: number) => (voided > 0 ? `${formatCount(n)} (${formatCount(voided)} voided)` : formatCount(n)),
    empty: (flagAt: number) => `No referrer has ${plural(flagAt, "confirmed referral")} or more from one network.`,
  },
  /** How each flagged referrer's referrals cluster (issue 22): a school reads differently from a ring. */
  clusters: {
    title: "How the flagged referrers' referrals cluster",
    intro:
      "By network (confirmed referrals per network, most first), by time (the most confirmed within one hour, and within one day, of each other; from the first to the last) and by inbox: look-alike inboxes share a domain and a local part once digits and a “+tag” are taken out (kid1@, kid.2@ and kid+3@ look alike; anna@ and ben@ do not). A ring: more than half in one hour and more than half alike. A group such as a school: neither. Voided credits are counted here too, and said: “8 (3 voided)”.",
    referrer: "Referrer",
    networks: "Per network",
    withinHour: "Within 1 hour",
    withinDay: "Within 1 day",
    span: "First to last",
    alike: "Look-alike inboxes",
    reads: "Reads like",
    scrollHint: "Scroll sideways to see every column.",
    /** Per network, most first, then how many of them all had their credit voided (when any). */
    networkCounts: (counts: number[], voided = 0) =>
      (counts.length === 0 ? "–" : counts.map(formatCount).join(" · ")) + (voided > 0 ? ` (${formatCount(voided)} voided)` : ""),
    spanHours: (hours: number) => (hours < 48 ? `${formatCount(hours)} h` : `${formatCount(Math.round(hours / 24))} days`),
    alikeOf: (alike: number, total: number, domains: number) =>
      `${formatCount(alike)} of ${formatCount(total)} (${plural(domains, "domain")})`,
    reading: {
      ring: "A ring: a burst of look-alike inboxes",
      group: "A group (a school?): spread out, varied inboxes",
      mixed: "Mixed: look closer",
    },
  },
} as const;

export const chart = {
  title: "Sign-ups, last 30 days",
  summary: (total: number, days: number, busiest: { date: string; count: number } | null) =>
    `${plural(total, "sign-up")} in the last ${days} days.` +
    (busiest && busiest.count > 0 ? ` The busiest day was ${busiest.date}, with ${plural(busiest.count, "sign-up")}.` : ""),
  empty: "No sign-ups in the last 30 days yet.",
  showTable: "Show the numbers as a table",
  tableCaption: "Sign-ups per day",
  dayColumn: "Day",
  countColumn: "Sign-ups",
  scale: (max: number) => `${formatCount(max)} a day`,
  barTitle: (date: string, count: number) => `${date}: ${plural(count, "sign-up")}`,
} as const;

export const breakdowns = {
  title: "Where sign-ups come from",
  bySource: { title: "By form on the site", key: "Form" },
  byUtmSource: { title: "By campaign source (utm_source)", key: "Source" },
  byUtmMedium: { title: "By campaign medium (utm_medium)", key: "Medium" },
  byUtmCampaign: { title: "By campaign (utm_campaign)", key: "Campaign" },
  byReferrerHost: { title: "By referring site", key: "Site" },
  byForm: { title: "Messages by form", key: "Form" },
  count: "Count",
  share: "Share",
  /** What the shares are of: every entry, so each table's rows add up to 100%. */
  shareNote: (signups: number, messages: number) =>
    `Share is of all ${plural(signups, "sign-up")} (of all ${plural(messages, "message")} for messages by form), the “(no value)” and “Other” rows included, so each table adds up to 100%.`,
  /** The row of the entries without a value (apart from the values, whatever they are). */
  none: "(no value)",
  /** The row that sums the values beyond the API's top ones. */
  other: (values: number) => `Other (${plural(values, "value")})`,
  empty: "Nothing yet.",
} as const;

export const delivery = {
  title: "Notifications",
  intro:
    "The team gets an alert e-mail for every sign-up and message: one each while the hour's allowance lasts, the rest together in a digest at the next run (every 5 minutes). Failed ones are retried on their own; “Retry now” sends every waiting one at the next run instead of waiting for its back-off.",
  allDelivered: "Every notification has been delivered.",
  undelivered: (count: number, oldest: string | null) =>
    `${plural(count, "notification")} not yet delivered${oldest ? `, the oldest since ${oldest}` : ""}.`,
  /** How the undelivered split: waiting for the digest (nothing failed) and failed (retrying). */
  split: (waiting: number, failed: number, nextTry: string | null) =>
    `${formatCount(waiting)} waiting for the digest (no attempt failed); ${formatCount(failed)} failed${failed > 0 ? (nextTry ? `, next try ${nextTry}` : ", retried at the next run") : ""}.`,
  nothingWaits: "Nothing waits, so there is nothing to retry.",
  retry: "Retry now",
  retrying: "Retrying…",
  requeued: (count: number) =>
    count === 0 ? "Nothing was waiting: no notification needed a retry." : `${plural(count, "notification")} queued to be sent again.`,
} as const;
