/**
 * The joiner's words after the join, in one home: the confirmation page the worker renders
 * (worker/features/waitlist/confirm-page.ts) and the web app's "My place" (/#/me, which imports this as
 * @shared/journey-text) say the same things the same way, and the share links are built once.
 */

/** The confirmation page's words (GET /confirm, POST /confirm) and the share box's. */
export const JOURNEY_TEXT = {
  confirmTitle: "Confirm your place",
  confirmIntro: "One last step: press the button to confirm your place on the waitlist.",
  confirmButton: "Confirm my place",
  /** The heading once confirmed (the place itself is the page's headline: placeLine). */
  confirmedTitle: "You're on the list",
  alreadyConfirmed: "Your place is already confirmed.",
  shareHeading: "Move up the line",
  /**
   * The share box without a reward (issue 23 §3: minors, unless MINOR_REFERRAL_REWARDS): no
   * "move up" heading or rule, sharing still offered. The confirmation page and My place say these.
   */
  shareHeadingNoBoost: "Bring your friends",
  shareRuleNoBoost: "Friends who join with your link get their own place on the waitlist.",
  linkLabel: "Your referral link",
  copy: "Copy",
  copied: "Copied!",
  /** When the browser refuses to copy: the link is selected for the visitor to copy. */
  copyFailed: "Press Ctrl+C (or long-press) to copy the selected link.",
  shareButton: "Share",
  shareVia: "Or share it on",
  friendsPending: "Friends waiting to confirm",
  friendsConfirmed: "Friends confirmed",
  /** What the share links and the Web Share API send, before the link. */
  shareText: "I'm on the Homework Helper waitlist. Join with my link:",
  shareSubject: "Join me on the Homework Helper waitlist",
  backLink: "Back to the site",
  /**
   * The end of the place page (issue 22): the place moves, and the page is gone once closed, so
   * it says where to see it again and how one gets in there (the e-mail code: there is no password).
   */
  seeLater: "To see your place again later, sign in on My place with this e-mail address: we e-mail you a code, no password needed.",
  myPlaceLink: "Go to My place",
} as const;

/**
 * The pages of a confirmation that cannot be done: a link that cannot be used (410 expired, 400
 * invalid, 404 unknown), a press sent by another site's page (403), the server failing (500).
 * Each a heading and what to do; nothing changed in any of them.
 */
export const CONFIRM_LINK_PROBLEMS = {
  expired: {
    title: "This link has expired",
    text: "This confirmation link is too old to use. Join the waitlist again with the same address and we'll e-mail you a new link.",
  },
  invalid: {
    title: "This link doesn't work",
    text: "The link is incomplete or was changed. Open it again from the e-mail, or copy the whole address from it into your browser.",
  },
  unknown: {
    title: "This place no longer exists",
    text: "The address this link was sent to is no longer on the waitlist. Join again from the site to get a new link.",
  },
  otherSite: {
    title: "Confirm on our own page",
    text: "A place can only be confirmed from our own page. Nothing changed: open the link in your e-mail and press the button there.",
  },
  failed: {
    title: "Something went wrong",
    text: "Your place could not be confirmed just now. Nothing changed: please open the link again in a minute.",
  },
} as const;

export type ConfirmLinkProblem = keyof typeof CONFIRM_LINK_PROBLEMS;

/** "You're #1,234 in line" (the place in the site's number format). */
export function placeLine(place: number): string {
  return `You're #${place.toLocaleString("en-US")} in line`;
}

/** The referral rule in one sentence, with the boost in force (REFERRAL_BOOST). */
export function referralRule(boost: number): string {
  return `Each friend who joins with your link and confirms moves you up ${boost} ${boost === 1 ? "place" : "places"}.`;
}

/** Where each share button goes; every value is a complete address (escape it as an attribute). */
export type ShareLinks = { whatsapp: string; telegram: string; x: string; email: string };

/** The share buttons' addresses for a referral link, with the share text (WhatsApp and e-mail carry the link in their text). */
export function shareLinks(link: string, text: string = JOURNEY_TEXT.shareText): ShareLinks {
  const q = encodeURIComponent;
  return {
    whatsapp: `https://wa.me/?text=${q(`${text} ${link}`)}`,
    telegram: `https://t.me/share/url?url=${q(link)}&text=${q(text)}`,
    x: `https://x.com/intent/post?text=${q(text)}&url=${q(link)}`,
    email: `mailto:?subject=${q(JOURNEY_TEXT.shareSubject)}&body=${q(`${text}\n\n${link}`)}`,
  };
}

/** The share buttons in the order shown, with their names. */
export const SHARE_TARGETS: readonly { key: keyof ShareLinks; name: string }[] = [
  { key: "whatsapp", name: "WhatsApp" },
  { key: "telegram", name: "Telegram" },
  { key: "x", name: "X" },
  { key: "email", name: "E-mail" },
];
