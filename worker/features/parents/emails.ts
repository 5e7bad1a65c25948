import { escapeHtml } from "../../platform/html";
import { mailLayout, mailLink, mailNote } from "../../platform/mail/layout";
import { FOR_PARENTS_PATH } from "../../shared/for-parents";
import { BRAND_NAME } from "../../shared/brand";
import { type NoticeFacts, noticeLines, PARENT_TEXT } from "./words";

/**
 * The e-mail to the parent: the direct notice (words.ts), a link to "My place" where they would
 * review or delete it, the children's part of the privacy policy, and one button to the page
 * (/parent?token=…) where they answer. It asks nothing by itself: opening it or its link agrees to
 * nothing. The joiner e-mails' layout (platform/mail/layout.ts), readable at 360 px.
 */

export type ParentContent = { title: string; bodyHtml: string; bodyText: string };

/** The button's link: the parent's page with the signed token. */
export function parentLink(origin: string, token: string): string {
  return `${origin}/parent?token=${encodeURIComponent(token)}`;
}

/** "My place" as the site's router reads it (a hash route), and the privacy policy's part for parents. */
export const myPlaceLink = (origin: string) => `${origin}/#/me`;
export const forParentsLink = (origin: string) => `${origin}${FOR_PARENTS_PATH}`;

export function parentEmail(input: NoticeFacts & { origin: string; link: string }): ParentContent {
  const [who, keep, why, review, expiry] = noticeLines(input);
  const me = myPlaceLink(input.origin);
  const policy = forParentsLink(input.origin);
  return {
    title: PARENT_TEXT.emailTitle,
    bodyHtml: mailLayout({
      heading: PARENT_TEXT.heading,
      lines: [
        escapeHtml(who!),
        escapeHtml(keep!),
        escapeHtml(why!),
        `${escapeHtml(review!)} ${mailLink(me, me)}`,
        `${escapeHtml(`${PARENT_TEXT.privacyLink}:`)} ${mailLink(policy, policy)}`,
      ],
      button: { label: PARENT_TEXT.reviewButton, href: input.link },
      after: [mailNote(escapeHtml(expiry!)), mailNote(escapeHtml(PARENT_TEXT.ignore))],
    }),
    bodyText: [
      BRAND_NAME,
      "",
      PARENT_TEXT.heading,
      "",
      who,
      "",
      keep,
      "",
      why,
      "",
      `${review} ${me}`,
      "",
      `${PARENT_TEXT.privacyLink}: ${policy}`,
      "",
      `${PARENT_TEXT.reviewButton}: ${input.link}`,
      "",
      expiry,
      PARENT_TEXT.ignore,
      "",
    ].join("\n"),
  };
}
