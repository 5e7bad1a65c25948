import { homeButton, pageCard, problemPage, type SitePage } from "../../../platform/http/site-page";
import { escapeHtml } from "../../../platform/html";
import { BRAND_NAME } from "../../../shared/brand";

/**
 * The unsubscribe link's page (GET and the button's POST /unsubscribe, worker/features/campaigns/unsubscribe/routes.ts)
 * in the site's look (site-page.ts) and the confirmation page's classes: the button, the
 * outcome, and a link that cannot be used. Every value is escaped; the page runs no script.
 */

export const UNSUBSCRIBE_TEXT = {
  promptTitle: `Unsubscribe from ${BRAND_NAME} e-mails`,
  promptIntro: `Press the button and this address gets no more ${BRAND_NAME} launch news or invitations.`,
  button: "Unsubscribe",
  doneTitle: "You're unsubscribed",
  doneText: `We won't send ${BRAND_NAME} launch news or invitations to this address any more.`,
  already: "This address was already unsubscribed: nothing changed.",
  /** The same with the address named (masked: maskAddress), when the link's mailbox is on the waitlist. */
  named: {
    promptIntro: (address: string) => `Press the button and ${address} gets no more ${BRAND_NAME} launch news or invitations.`,
    doneText: (address: string) => `We won't send ${BRAND_NAME} launch news or invitations to ${address} any more.`,
    already: (address: string) => `${address} was already unsubscribed: nothing changed.`,
  },
  /** What still arrives: e-mails the person asks for are not campaigns. */
  stillSent: "Sign-in codes and other e-mails you ask for still arrive.",
  // Not "join again": a join only renews consent once the mailbox confirms it (a 409 duplicate never does).
  again: 'Changed your mind? Sign in and choose "Subscribe again" on My place.',
  myPlace: "Go to My place",
  home: "Back to the home page",
  /** The one-click POST's answer (RFC 8058: a mail provider reads it, not a person), as plain text. */
  oneClickDone: "You're unsubscribed.",
  oneClickInvalid: "This unsubscribe link is not valid: nothing changed.",
  oneClickFailed: "Unsubscribing failed, so nothing changed. Please try again.",
} as const;

export const UNSUBSCRIBE_PROBLEMS = {
  invalid: {
    title: "This link doesn't work",
    text: "The unsubscribe link is incomplete or was changed, so nothing changed. Open it again from the e-mail, or copy the whole address from it into your browser.",
  },
  otherSite: {
    title: "Unsubscribe on our own page",
    text: "Nothing changed: an address can only be unsubscribed from our own page. Open the link in the e-mail and press the button there.",
  },
  /** The link's mailbox has no entry and no consent trail (it was erased): nothing to unsubscribe, nothing written. */
  notListed: {
    title: "You're not on our list",
    text: `This address isn't on the ${BRAND_NAME} waitlist, so there is nothing to unsubscribe and nothing changed. We don't send it launch news or invitations.`,
  },
  failed: {
    title: "Something went wrong",
    text: "You could not be unsubscribed just now. Nothing changed: please open the link again in a minute.",
  },
} as const;

export type UnsubscribeProblem = keyof typeof UNSUBSCRIBE_PROBLEMS;

const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;

const homeLink = (kind: "button--link" | "button--primary") => homeButton(UNSUBSCRIBE_TEXT.home, kind);

/**
 * Where the link lands: nothing changes until the button is pressed (mail scanners open links).
 * `address`: the link's mailbox, masked (maskAddress); null when no waitlist entry has it (a
 * test e-mail to an operator), and then the page names no address.
 */
export function unsubscribePromptPage(token: string, address: string | null = null): SitePage {
  const t = UNSUBSCRIBE_TEXT;
  return {
    title: t.promptTitle,
    main: pageCard(`<h1>${escapeHtml(t.promptTitle)}</h1>
${paragraph(address ? t.named.promptIntro(address) : t.promptIntro)}
${paragraph(t.stillSent)}
<form method="post" action="/unsubscribe">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button class="button button--primary" type="submit">${escapeHtml(t.button)}</button>
</form>
${homeLink("button--link")}`),
  };
}

/** The outcome: unsubscribed now, or (`already`) before this press or visit; `address` as on the prompt. */
export function unsubscribedPage(already: boolean, address: string | null = null): SitePage {
  const t = UNSUBSCRIBE_TEXT;
  const news = already
    ? `<p class="message message--info" role="status">${escapeHtml(address ? t.named.already(address) : t.already)}</p>`
    : `<p class="message message--success" role="status">${escapeHtml(address ? t.named.doneText(address) : t.doneText)}</p>`;
  return {
    title: t.doneTitle,
    main: pageCard(`<h1>${escapeHtml(t.doneTitle)}</h1>
${news}
${paragraph(t.stillSent)}
${paragraph(t.again)}
<p class="login__home"><a class="button button--primary" href="/#/me">${escapeHtml(t.myPlace)}</a></p>
${homeLink("button--link")}`),
  };
}

/** A link or request that cannot be used: what happened (nothing changed) and the way back. */
export function unsubscribeProblemPage(problem: UnsubscribeProblem): SitePage {
  return problemPage(UNSUBSCRIBE_PROBLEMS[problem], UNSUBSCRIBE_TEXT.home);
}
