/**
 * The words of "My place" (/#/me). They live with the page, not in ../../content.ts, because the
 * page is a chunk of its own: the home page's first-load script must not carry them. What the
 * confirmation page says too (the place, the share box, the rule) comes from the worker's
 * @shared/journey-text, so both pages say it the same way.
 */
import { JOURNEY_TEXT } from "@shared/journey-text";

export const ME_TEXT = {
  signedOut: {
    text: "Sign in to see your place on the waitlist, your referral link and your data.",
    link: "Sign in",
  },
  sessionEnded: "Your sign-in has ended. Please sign in again.",
  /** The answer could not be read or fetched. */
  loadFailed: "We could not load your place. Check your connection and try again.",
  retry: "Try again",
  statusHeading: "Waitlist status",
  statusLabel: "Status",
  status: {
    none: "Not on the waitlist",
    pending: "Waiting for confirmation",
    confirmed: "Confirmed",
  },
  none: {
    text: (email: string) => `${email} is not on the waitlist.`,
    join: "Join the waitlist",
    joining: "Joining…",
    joined: "You're on the waitlist, and your place is confirmed.",
    /** Below the consent age (after AGE_MESSAGES.parentNeeded): where a parent or guardian is asked. */
    parentPath: "Use the waitlist form on the home page: it asks for your parent's or guardian's email address instead of yours.",
    homeLink: "Go to the waitlist form",
    /** Said with the parent path when the server erased a child's sign-in (the address is never shown back). */
    signInDeleted: "We deleted the sign-in we had for this email address, and you're signed out.",
  },
  /** An entry a parent or guardian made for their child (issue 23): no referral link, no share box. */
  onBehalf: "You joined this waitlist on behalf of your child.",
  /** The share box without a reward (REFERRAL_BOOST 0, or a minor's entry): sharing, no line to move up in. */
  noBoost: {
    shareHeading: JOURNEY_TEXT.shareHeadingNoBoost,
    shareRule: JOURNEY_TEXT.shareRuleNoBoost,
  },
  pending: {
    text: (email: string) =>
      `We sent a confirmation e-mail to ${email}. Open its link and press "Confirm my place" to get your place in line.`,
    resend: "Resend the confirmation e-mail",
    resending: "Sending…",
    resent: "Sent. Check your inbox (and the spam folder) for the confirmation e-mail.",
    /** The entry was confirmed meanwhile (another tab, the e-mail's link): the page shows it now. */
    alreadyConfirmed: JOURNEY_TEXT.alreadyConfirmed,
  },
  share: JOURNEY_TEXT,
  joinedAt: "Joined",
  confirmedAt: "Confirmed",
  invitedAt: "Invited",
  /**
   * Once an invite wave drew the entry (issue 17): no place in line, no line to move up in. The
   * invitation e-mail is named so it can be found again in the inbox.
   */
  invited: {
    status: "Invited",
    headline: "You're invited",
    text: "Homework Helper is open to you.",
    /** The wave's e-mail was sent to this address. */
    lookFor: (subject: string, sentOn: string) => `Look for our e-mail "${subject}", sent on ${sentOn}.`,
    /** The referral link stays, as a way to bring friends, not to jump the line. */
    shareHeading: "Bring your friends",
    shareRule: "Friends who join with your link get on the waitlist for their own invitation.",
  },
  friendsHeading: "Friends who joined with your link",
  leave: {
    button: "Leave the waitlist",
    question: "Leave the waitlist? You lose your place in line, and friends who join with your link no longer move you up.",
    /** The same question without a reward for friends (no boost). */
    questionNoBoost: "Leave the waitlist? You lose your place in line.",
    confirm: "Yes, leave the waitlist",
    cancel: "Cancel",
    leaving: "Leaving…",
    left: "You've left the waitlist. You can join again at any time.",
  },
  subscription: {
    heading: "E-mail from us",
    statusLabel: "Launch news and invitations",
    on: "Subscribed",
    off: "Unsubscribed",
    since: "Since",
    subscribedText: "We e-mail you when Homework Helper opens, with your invitation, and the occasional launch news.",
    /** The same block for someone invited already: no invitation to promise. */
    invited: {
      statusLabel: "Launch news and updates",
      subscribedText: "We'll send you launch news and updates.",
      reason: "You unsubscribed, so we send you no launch news or updates.",
      resubscribed: "You're subscribed again: we'll send you launch news and updates.",
    },
    /** Why the address gets no campaign e-mail, by the suppression list's reason. */
    reasons: {
      unsubscribed: "You unsubscribed, so we send you no launch news or invitations.",
      bounced: "Our e-mails to this address could not be delivered, so we stopped sending launch news and invitations.",
      complained: "This address reported our e-mail as spam, so we stopped sending launch news and invitations.",
    },
    stillSent: "Sign-in codes and other e-mails you ask for arrive either way.",
    unsubscribe: "Unsubscribe",
    unsubscribing: "Unsubscribing…",
    subscribe: "Subscribe again",
    subscribing: "Subscribing…",
    unsubscribed: "You're unsubscribed. You can subscribe again at any time.",
    resubscribed: "You're subscribed again: your invitation will reach you.",
  },
  data: {
    heading: "Your data",
    text: "Download everything we store about your address (your waitlist entry, the messages you sent us, your sign-in record) as a JSON file.",
    download: "Download my data",
    downloading: "Preparing…",
    downloaded: "Your data was downloaded.",
  },
  erase: {
    heading: "Delete everything",
    text: "This deletes your waitlist entry, your messages and your account, and signs you out. It cannot be undone.",
    open: "Delete everything…",
    fieldLabel: (email: string) => `Type your e-mail address (${email}) to confirm`,
    confirm: "Delete everything",
    cancel: "Cancel",
    deleting: "Deleting…",
    mismatch: "The address you typed is not the one you're signed in with.",
    doneTitle: "Everything is deleted",
    done: "Your waitlist entry, messages and account are deleted, and you've been signed out.",
    home: "Back to the home page",
  },
  errors: {
    network: "We could not reach the server. Check your connection and try again.",
    server: "Something went wrong on our side. Please try again.",
  },
} as const;
