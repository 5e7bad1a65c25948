/**
 * The console's words for campaigns: the list, the composer, the preview and test, sending,
 * progress and its controls, the report and the dead letters. Part of the console's copy
 * (./content.ts gathers it); the numbers in them are written by ./format.ts.
 */
import { formatCount, formatRate, formatShare, plural, roughDuration } from "./format";

export const campaigns = {
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
  },
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
    /** Issue 23: of the audience, those who joined before the age question (nobody knows if they are children). */
    ageUnknown: (n: number, size: number) =>
      `${n === size ? (n === 1 ? "This person" : `All ${formatCount(n)}`) : `${formatCount(n)} of them`} joined before we asked for a birth month and year, so we don't know whether ${n === 1 ? "this is a child" : "any of them is a child"}. Our rule: no campaign e-mail to them until they have answered (they answer by joining again with the same address). Wait, or erase those entries (Erase a person), before sending.`,
    describe: (audience: { kind: "all" | "wave"; size?: number; utm_source?: string | null }) =>
      (audience.kind === "all" ? "Everyone confirmed" : `Invite wave of ${formatCount(audience.size ?? 0)}`) +
      (audience.utm_source ? ` from “${audience.utm_source}”` : ""),
    people: (n: number) => plural(n, "person", "people"),
    /** Who a wave invites first (issue 22), flagged referrers and their friends marked. */
    first: {
      caption: (n: number) => `The first ${formatCount(n)} of this wave, in the order it invites them`,
      columns: { place: "Place", email: "E-mail", referrals: "Referrals", flag: "Flag" },
      flaggedReferrer: (n: number) => `Flagged referrer: ${formatCount(n)} referrals from one network`,
      flaggedFriend: "Joined through a flagged referrer",
      /** Of the whole wave: flagged referrers, and entries that joined through one (the rows' two marks). */
      flaggedInWave: (referrers: number, friends: number) => {
        if (referrers === 0 && friends === 0) return "No flagged referrer in this wave, and nobody who joined through one.";
        const who =
          referrers === 0
            ? `No flagged referrer in this wave, but ${plural(friends, "entry", "entries")} that joined through one`
            : `${plural(referrers, "flagged referrer")} in this wave` +
              (friends === 0 ? "" : `, and ${plural(friends, "entry", "entries")} that joined through one`);
        return `${who}: see Referrals, and hold any out of waves in the Waitlist before sending.`;
      },
      held: (n: number) => `${plural(n, "entry", "entries")} held out of waves ${n === 1 ? "is" : "are"} skipped.`,
    },
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
    perSecond: (rate: number) => `${formatRate(rate)} a second`,
    noRate: "Not known yet",
    /** Seconds left at the current rate, rounded as a person says it. */
    leftIn: (seconds: number) => {
      const left = roughDuration(seconds);
      return left === null ? "Less than a minute" : `About ${plural(left.count, left.unit)}`;
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
} as const;
