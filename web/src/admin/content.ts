/**
 * Every word of the operator console (/admin/), gathered into one `admin` object: the page's own
 * words here, each part's in a module of its own (stats-content.ts, records-content.ts,
 * campaigns-content.ts). Kept apart from the site's web/src/content.ts on purpose: the console
 * is a bundle of its own, and nothing of it may end up in the marketing pages' JavaScript. How
 * numbers and times are written is ./format.ts's.
 */
import { BRAND_NAME } from "@shared/brand";
import { campaigns } from "./campaigns-content";
import { erasure, messages, notification, table, waitlist } from "./records-content";
import { breakdowns, chart, delivery, overview, referrals } from "./stats-content";

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
    integrations: "Integrations",
  },

  overview,
  referrals,
  chart,
  breakdowns,
  delivery,
  table,
  waitlist,
  messages,
  notification,
  erasure,
  campaigns,

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
