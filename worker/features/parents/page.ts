import { escapeHtml } from "../../platform/html";
import { homeButton, pageCard, problemPage, type SitePage } from "../../platform/http/site-page";
import { FOR_PARENTS_PATH } from "../../shared/for-parents";
import { type NoticeFacts, noticeLines, PARENT_TEXT, type ParentProblem } from "./words";

/**
 * The parent's page's faces (GET and POST /parent, routes.ts), in the site's look (site-page.ts)
 * and working without JavaScript: the notice with the two answers (each a form that posts the
 * token: opening the link answers nothing), the agreed page with the place, the declined page,
 * and a link that cannot be used. Every value is escaped; no script.
 */

/** "My place" as the site's router reads it (a hash route). */
const MY_PLACE_HREF = "/#/me";

const e = escapeHtml;

/**
 * One of the two answers: a form posting the token and the answer, its one button, as wide as the
 * card. Both are buttons of the same size, one under the other: saying no is as easy as saying yes.
 */
const answerForm = (
  token: string,
  answer: "agree" | "decline",
  label: string,
  kind: string,
) => `<form class="confirm-page__me login__home" method="post" action="/parent">
<input type="hidden" name="token" value="${e(token)}">
<input type="hidden" name="answer" value="${answer}">
<button class="${kind ? `button ${kind}` : "button"}" type="submit">${e(label)}</button>
</form>`;

/** The notice again, and the two answers. */
export function requestPage(facts: NoticeFacts, token: string): SitePage {
  const [who, keep, why, review, expiry] = noticeLines(facts);
  return {
    title: PARENT_TEXT.pageTitle,
    main: pageCard(`<h1>${e(PARENT_TEXT.heading)}</h1>
<p>${e(who!)}</p>
<p>${e(keep!)}</p>
<p>${e(why!)}</p>
<p>${e(review!)} <a href="${MY_PLACE_HREF}">${e(PARENT_TEXT.myPlaceLink)}</a></p>
<p><a href="${e(FOR_PARENTS_PATH)}">${e(PARENT_TEXT.privacyLink)}</a></p>
<p>${e(expiry!)}</p>
${answerForm(token, "agree", PARENT_TEXT.agreeButton, "button--primary")}
${answerForm(token, "decline", PARENT_TEXT.declineButton, "")}`),
  };
}

/** After "yes": done, the place (null: none to show), and the way to "My place". */
export function agreedPage(place: number | null): SitePage {
  return {
    title: PARENT_TEXT.agreedTitle,
    main: pageCard(`<h1>${e(PARENT_TEXT.agreedTitle)}</h1>
${place === null ? "" : `<p class="message message--success" role="status">${e(PARENT_TEXT.agreedPlace(place))}</p>\n`}<p>${e(PARENT_TEXT.agreedSignIn)}</p>
<p class="confirm-page__me"><a class="button button--primary" href="${MY_PLACE_HREF}">${e(PARENT_TEXT.myPlaceLink)}</a></p>
${homeButton(PARENT_TEXT.backLink, "button--link")}`),
  };
}

/** After "no": deleted. */
export function declinedPage(): SitePage {
  return {
    title: PARENT_TEXT.declinedTitle,
    main: pageCard(`<h1>${e(PARENT_TEXT.declinedTitle)}</h1>
<p role="status">${e(PARENT_TEXT.declinedText)}</p>
${homeButton(PARENT_TEXT.backLink, "button--primary")}`),
  };
}

/** A link or answer that cannot be used: what happened (nothing changed) and the way home. */
export const parentProblemPage = (problem: ParentProblem): SitePage => problemPage(PARENT_TEXT.problems[problem], PARENT_TEXT.backLink);
