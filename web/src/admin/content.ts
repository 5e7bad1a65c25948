/**
 * Every word of the operator console (/admin/), in one place. Kept apart from the site's
 * web/src/content.ts on purpose: the console is a bundle of its own, and nothing of it may end up
 * in the marketing pages' JavaScript.
 */
import { BRAND_NAME } from "@shared/brand";
import { CONSOLE_PATH, loginHref } from "../routes";

/** Where the console lives (the operator comes back here after signing in). */
export { CONSOLE_PATH };
/** Where an operator signs in: the site's own login page (an e-mail code, like anyone), which comes back here. */
export const LOGIN_URL = loginHref(CONSOLE_PATH);

/** Rows per page of the waitlist and contact tables. */
export const PAGE_SIZE = 25;

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** A count as the console shows it: 12,345. */
function formatCount(n: number): string {
  return n.toLocaleString("en-GB");
}

/** A ratio as the console shows it, with two decimals: "0.45". */
/** A long text cut to at most `max` characters with an ellipsis, at a word's end where one is near (a subject in a narrow column). */
function shorten(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function formatRatio(value: number): string {
  return value.toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** `count` as a share of `total`, in percent with at most one decimal: "26.7%" (0% of nothing). */
function formatShare(count: number, total: number): string {
  return (total > 0 ? count / total : 0).toLocaleString("en-GB", { style: "percent", maximumFractionDigits: 1 });
}

/**
 * A time of the API (ISO 8601, or SQLite's "YYYY-MM-DD HH:MM:SS", which is UTC) as the console
 * shows it, in UTC so every operator reads the same: "12 Jan 2026, 14:03 UTC". A value that is
 * no time is shown as it came.
 */
function formatTime(value: string): string {
  const date = parseTime(value);
  if (!date) return value;
  return `${date.toLocaleString("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" })} UTC`;
}

/** A UTC date of the stats ("2026-01-12") as "12 Jan"; with `year`, "12 Jan 2026". */
function formatDay(value: string, year = false): string {
  const date = parseTime(`${value}T00:00:00Z`);
  if (!date) return value;
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "short", ...(year ? { year: "numeric" } : {}), timeZone: "UTC" });
}

function parseTime(value: string): Date | null {
  const iso = /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value) ? `${value.replace(" ", "T")}Z` : value;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

export const admin = {
  documentTitle: `Operator console · ${BRAND_NAME}`,
  skipLink: "Skip to the console",
  brand: BRAND_NAME,
  title: "Operator console",
  backToSite: "Back to the site",
  signedInAs: (email: string) => `Signed in as ${email}`,
  signOut: "Sign out",
  signingOut: "Signing out…",
  checking: "Checking who is signed in…",
  loading: "Loading…",
  tryAgain: "Try again",
  /** What an empty cell says to a screen reader (sighted users see a dash). */
  none: "none",

  failed: {
    title: "The console could not start",
  },

  signedOut: {
    title: "Sign in to use the console",
    text: "The console is for the team that runs the site. Sign in with your operator e-mail address: we send you a code.",
    link: "Sign in",
    afterwards: "Signing in brings you back here. If you sign in in another tab, this page carries on by itself.",
    sessionEnded: "Your session has ended. Please sign in again.",
  },

  notAuthorised: {
    title: "Not authorised",
    text: (email: string | null) =>
      `${email ? `You're signed in as ${email}, which is` : "This account is"} not an operator of the site, so the console shows nothing.`,
    help: "If you should have access, ask whoever runs the site to add your address to OPERATOR_EMAILS. Or sign out and sign in with your operator address.",
  },

  nav: {
    label: "Sections",
    overview: "Overview",
    referrals: "Referrals",
    signups: "Sign-ups",
    delivery: "Notifications",
    sources: "Sources",
    waitlist: "Waitlist",
    messages: "Contact messages",
    erasure: "Erase a person",
    campaigns: "Campaigns",
  },

  overview: {
    title: "Overview",
    total: "On the waitlist",
    last24h: "Joined in the last 24 hours",
    last7d: "Joined in the last 7 days",
    submissions: "Contact messages",
    undelivered: "Notifications not yet delivered",
    refresh: "Refresh the figures",
    refreshed: "Figures refreshed.",
  },

  referrals: {
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
        `Referrers with ${plural(flagAt, "confirmed referral")} or more from one network (one IP address, or one IPv6 /64). A school or a family shares one address, so a flag is a reason to look, not proof of abuse: nothing is blocked, and the network itself is never shown.`,
      email: "Referrer",
      code: "Code",
      fromOne: "From one network",
      empty: (flagAt: number) => `No referrer has ${plural(flagAt, "confirmed referral")} or more from one network.`,
    },
  },

  chart: {
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
  },

  breakdowns: {
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
  },

  delivery: {
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
  },

  table: {
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
      const first = (page - 1) * pageSize + 1;
      const range = `${formatCount(first)}-${formatCount(first + count - 1)}`;
      return `${range} ${total === null ? "entries" : `of ${plural(total, "entry", "entries")}`}${matching} on page ${page}.`;
    },
    empty: "Nothing here yet.",
    noMatch: (query: string) => `Nothing matches “${query}”.`,
    download: "Download CSV",
    downloading: "Preparing the file…",
    downloaded: (fileName: string) => `Downloaded ${fileName}.`,
    scrollHint: "Scroll sideways to see every column.",
  },

  waitlist: {
    title: "Waitlist",
    searchLabel: "Search the waitlist by e-mail, utm_campaign or referral code",
    caption: "Waitlist entries, newest first",
    columns: {
      email: "E-mail",
      joined: "Joined",
      source: "Form",
      campaign: "Campaign (source / medium / name)",
      referrer: "Came from",
      status: "Status",
      place: "Place",
      invited: "Invited",
      referralCode: "Referral code",
      referredBy: "Referred by",
      referrals: "Referrals",
      notification: "Team alert",
    },
    /** The joiner's confirmation (the "Status" column). */
    status: { pending: "Pending", confirmed: "Confirmed" },
    place: (place: number) => `#${formatCount(place)}`,
    /** The invite wave that drew the entry (the "Invited" column's note under the time). */
    invitedBy: (campaignId: number) => `By campaign #${campaignId}`,
    /** The same note naming the campaign, as a button that opens it in Campaigns. */
    invitedByNamed: (campaignId: number, subject: string) => `By #${campaignId} “${shorten(subject, 32)}”`,
    openInvitedBy: (campaignId: number, subject: string) => `Open campaign #${campaignId}, “${subject}”`,
    csvName: "waitlist.csv",
  },

  messages: {
    title: "Contact messages",
    searchLabel: "Search the messages by name, e-mail or text",
    caption: "Contact messages, newest first",
    columns: { received: "Received", name: "Name", email: "E-mail", message: "Message", notification: "Team alert" },
    csvName: "contact-messages.csv",
  },

  /** The team's alert e-mail about one record (the "Team alert" column). */
  notification: {
    sent: (when: string | null) => (when ? `Sent ${when}` : "Sent"),
    sentBadge: "Sent",
    /** Undelivered, and no attempt failed: the next run sends it (in a digest past the hour's allowance). */
    waiting: "Waiting for the digest",
    waitingNote: "No attempt failed; sent at the next run",
    failed: "Failed",
    /** A failed one: its attempts, the error, and when it is tried again. */
    failedNote: (attempts: number, error: string, nextTry: string | null) =>
      `${plural(attempts, "attempt")}, last error: ${error}. ${nextTry ? `Next try ${nextTry}` : "Next try at the next run"}.`,
  },

  erasure: {
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
      last_sign_in_at: "Last signed in",
      email_confirmed_at: "Confirmed",
    } as Record<string, string>,
  },

  campaigns: {
    title: "Campaigns",
    intro:
      "E-mail the confirmed people on the waitlist: an announcement to everyone, or an invite wave to the next people in line. Nothing is sent until you confirm, and you see how many people it goes to first.",
    newCampaign: "New campaign",
    back: "Back to the campaigns",
    list: {
      title: "All campaigns",
      caption: "Campaigns, newest first",
      empty: "No campaigns yet. “New campaign” starts one.",
      // The empty box says it already: the status line says nothing then (it would say it twice).
      loaded: (count: number) => (count === 0 ? null : `${plural(count, "campaign")}.`),
      columns: { subject: "Subject", status: "Status", audience: "Audience", sent: "Sent / total", created: "Created" },
      open: (subject: string) => `Open the campaign “${subject}”`,
      sentOfTotal: (sent: number, total: number) => `${formatCount(sent)} / ${formatCount(total)}`,
      notSent: (n: number) => `${formatCount(n)} not sent (cancelled)`,
    },
    status: {
      draft: "Draft",
      scheduled: "Scheduled",
      sending: "Sending",
      paused: "Paused",
      cancelled: "Cancelled",
      sent: "Sent",
    } as Record<string, string>,
    scheduledFor: (when: string) => `For ${when}`,
    /** A campaign's number, as the waitlist's Invited column and the audit name it. */
    number: (id: number) => `#${id}`,
    statusChanged: (status: string) => `The campaign's status is now: ${status}.`,
    audience: {
      legend: "Who gets it",
      all: "Everyone confirmed on the waitlist",
      wave: "An invite wave: the next people in line not yet invited",
      waveSize: "How many people in this wave",
      waveSizeHint: (max: number) => `The first ones by place in line who have not had an invite yet; from 1 to ${formatCount(max)}.`,
      waveSizeInvalid: (max: number) => `Enter how many people, a whole number from 1 to ${formatCount(max)}.`,
      utmSource: "Only people who came from this utm_source (optional)",
      utmSourceHint: "Leave empty for everyone. Any case: matched as stored (lower case), e.g. newsletter.",
      waveNoSize: "Enter how many people to see the audience size.",
      counting: "Counting the audience…",
      size: (n: number) => `This goes to ${plural(n, "person", "people")}.`,
      sizeNone: "Nobody matches this audience yet, so there would be nothing to send.",
      describe: (audience: { kind: "all" | "wave"; size?: number; utm_source?: string | null }) =>
        (audience.kind === "all" ? "Everyone confirmed" : `Invite wave of ${formatCount(audience.size ?? 0)}`) +
        (audience.utm_source ? ` from “${audience.utm_source}”` : ""),
      people: (n: number) => plural(n, "person", "people"),
    },
    composer: {
      newTitle: "New campaign",
      editTitle: (subject: string) => `Draft: ${subject}`,
      subject: "Subject",
      subjectHint: (max: number) => `What recipients see in their inbox; at most ${formatCount(max)} characters.`,
      body: "Message",
      bodyHint:
        "A blank line starts a new paragraph; a single line break stays a line break. Links: [text](https://…) or a bare https:// address.",
      bodyCount: (length: number, max: number) => `${formatCount(length)} of ${formatCount(max)} characters.`,
      subjectRequired: "Please write a subject.",
      subjectTooLong: (max: number) => `The subject is longer than ${formatCount(max)} characters.`,
      bodyRequired: "Please write the message.",
      bodyTooLong: (max: number) => `The message is longer than ${formatCount(max)} characters.`,
      fixFirst: "Please correct the marked fields.",
      save: "Save draft",
      saving: "Saving…",
      saved: "Draft saved.",
      unsaved: "Changes not saved yet: previewing, testing or sending saves them first.",
    },
    preview: {
      check: "Check it before sending",
      /** The heading of the preview of a campaign past its draft. */
      sent: "The e-mail",
      title: "Preview",
      show: "Preview the e-mail",
      again: "Preview again",
      loading: "Preparing the preview…",
      ready: "The preview is below: at a phone's width and at a desktop's.",
      phone: "Phone, 360 px wide",
      desktop: "Desktop, 640 px wide",
      frameTitle: (width: number) => `The e-mail as a recipient sees it, ${width} px wide`,
      text: "Plain-text version",
      headers: "Headers",
      expires: "The preview's address works for 10 minutes; “Preview again” after that, or after changes.",
      scrollInside: "Each frame shows the whole e-mail down to its footer; a longer message scrolls inside its frame.",
    },
    test: {
      send: "Send a test to me",
      sending: "Sending the test…",
      sent: (to: string) => `Test sent to ${to}. Its subject starts with “[Test]”.`,
    },
    send: {
      title: "Send",
      now: "Send now",
      at: "Send at a set time",
      atLabel: "Date and time",
      atHint: (zone: string) => `In your own time zone (${zone}).`,
      atRequired: "Choose the date and time to send at.",
      atPast: "Choose a time in the future.",
      schedule: "Schedule",
      checking: "Counting the audience…",
      confirmNow: (n: number) => `Send to ${plural(n, "person", "people")}?`,
      confirmAt: (n: number, local: string, utc: string) => `Send to ${plural(n, "person", "people")} at ${local} your time (${utc})?`,
      confirmNote: "Once it starts, nobody gets it twice; you can pause or cancel it, but what was sent stays sent.",
      yes: "Yes, send",
      yesSchedule: "Yes, schedule it",
      no: "Don't send",
      sendingNow: "Starting…",
      empty: "Nobody is in this audience, so there is nothing to send.",
      notConfigured: (names: string[]) => `Set ${names.join(" and ")} (wrangler.toml [vars]) before sending.`,
      notConfiguredTitle: "The sender is not set",
      reasonNotConfigured: "Sending needs the sender settings first (see above).",
      reasonEmpty: "Nobody is in this audience yet, so there is nothing to send.",
      started: "Sending has started.",
      scheduled: (when: string) => `Scheduled for ${when}.`,
    },
    warnings: {
      title: "Before you send",
    },
    progress: {
      title: "Progress",
      bar: "Done so far",
      queued: "Queued",
      sent: "Sent",
      failed: "Failed",
      skipped: "Skipped",
      rate: "Rate",
      left: "Time left",
      perSecond: (rate: number) => `${rate.toLocaleString("en-GB", { maximumFractionDigits: 1 })} a second`,
      noRate: "Not known yet",
      /** Seconds left at the current rate, rounded as a person says it. */
      leftIn: (seconds: number) => {
        if (seconds < 60) return "Less than a minute";
        const minutes = Math.round(seconds / 60);
        if (minutes < 90) return `About ${plural(minutes, "minute")}`;
        return `About ${plural(Math.round(minutes / 60), "hour")}`;
      },
      /** Sending started and no one is settled yet: the confirmed audience, never "0 of 0". */
      gettingReady: (total: number) => `Getting ready to send to ${plural(total, "person", "people")}…`,
      pausedPreparing: (total: number) =>
        `Paused while getting ready to send to ${plural(total, "person", "people")}: preparing the list is paused too, and nothing is sent until you resume.`,
      /** The compact line near the title (a phone's first screen): "Sending: 3 of 20". */
      compact: (status: string, done: number, total: number) => `${status}: ${formatCount(done)} of ${formatCount(total)}`,
      summary: (done: number, total: number) => `${formatCount(done)} of ${formatCount(total)} done (${formatShare(done, total)}).`,
      live: (status: string, done: number, total: number) =>
        done === 0
          ? `${status}: getting ready to send to ${plural(total, "person", "people")}.`
          : `${status}: ${formatCount(done)} of ${formatCount(total)} done.`,
      pausedNote: "Paused: nothing more is sent until you resume. Messages already with the provider may still finish.",
      scheduledNote: (when: string) => `Starts at ${when}. Until then you can cancel it.`,
      refreshFailed: (message: string) => `Could not refresh the progress: ${message} Trying again.`,
    },
    controls: {
      pause: "Pause",
      pausing: "Pausing…",
      resume: "Resume",
      resuming: "Resuming…",
      /** After the live line's Pause or Resume (under the title): named apart from the controls' own ("Pause sending"). */
      liveSuffix: "sending",
      cancel: "Cancel the campaign",
      cancelling: "Cancelling…",
      confirmCancel: "Cancel this campaign?",
      confirmCancelNote: (left: number, wave: boolean) =>
        `The ${plural(left, "person", "people")} not yet sent to will not get it${wave ? ", and they stay uninvited, so the next wave includes them" : ""}. This cannot be undone.`,
      confirmCancelNone: "Everyone has been sent it already: cancelling stops nothing more. This cannot be undone.",
      yesCancel: "Yes, cancel it",
      noCancel: "Keep it",
      paused: "Paused.",
      resumed: "Resumed.",
      cancelled: "Cancelled.",
    },
    report: {
      title: "Report",
      audience: "Audience",
      started: "Started",
      finished: "Finished",
      cancelledAt: "Cancelled",
      notSent: "Not sent (cancelled)",
      cancelledSummary: (when: string, sent: number, notSent: number, wave: boolean) =>
        `Cancelled at ${when}: ${formatCount(sent)} sent, ${formatCount(notSent)} not sent${wave ? " (back in line for the next wave)" : ""}.`,
      download: "Download recipients CSV",
      csvName: (id: number) => `campaign-${id}-recipients.csv`,
      skippedNote: "Skipped: unsubscribed, bounced or complained before, or erased. The CSV says which, per recipient.",
    },
    deadLetters: {
      title: "Dead letters",
      intro: "Recipients whose message failed every retry. “Retry” puts them back in the queue.",
      caption: "Recipients whose message failed for good",
      loading: "Loading the dead letters…",
      none: "No dead letters.",
      columns: { email: "E-mail", attempts: "Attempts", error: "Last error", when: "Failed for good" },
      erased: "(erased)",
      retry: "Retry",
      retryOne: (email: string) => `Retry ${email}`,
      retryAll: "Retry all",
      retrying: "Retrying…",
      retried: (n: number) => `${plural(n, "recipient")} back in the queue.`,
    },
    details: {
      subject: "Subject",
      status: "Status",
      audience: "Audience",
      size: "People",
      sizeSoFar: (n: number) => `${formatCount(n)} (the list is still being prepared)`,
      created: "Created",
      createdBy: "By",
      sendAt: "Sends at",
    },
  },

  errors: {
    network: "Could not reach the server. Check your connection and try again.",
    badRequest: "The server could not use that request.",
    forbidden: "This account may not use the console.",
    notFound: "The server has no such record or route.",
    conflict: "That cannot be done now.",
    tooMany: "Too many requests. Wait a minute and try again.",
    unavailable: "The server is not able to answer right now.",
    server: "Something went wrong on the server. Try again in a moment.",
    unexpected: "The server answered in a way the console does not understand.",
    serverSaid: (message: string) => `The server said: ${message}`,
  },
} as const;

export { formatCount, formatDay, formatRatio, formatShare, formatTime, plural };
