import { homeButton, pageCard, problemPage, type SitePage } from "../../platform/http/site-page";
import { escapeHtml } from "../../platform/html";
import {
  CONFIRM_LINK_PROBLEMS,
  type ConfirmLinkProblem,
  JOURNEY_TEXT,
  placeLine,
  referralRule,
  SHARE_TARGETS,
  shareLinks,
} from "../../shared/journey-text";
import type { MeAnswer } from "../../shared/me";
import { shareBoxScript } from "../../shared/share-box-script";

/**
 * The confirmation page's three faces (GET and POST /confirm, worker/features/waitlist/confirm-routes.ts), in the
 * site's look (site-page.ts: its header, its stylesheet) and its words (journey-text.ts): the
 * button that confirms, the place with the share box, and a link that cannot be used. Every
 * value is escaped; the only script is the share box's (share-box-script.ts), allowed by its hash.
 */

/** What the share box shows: the place, the link, the friends counted and the rule's boost (GET /api/me's fields). */
export type ShareBoxData = Pick<MeAnswer, "position" | "referral_link" | "referrals_pending" | "referrals_confirmed" | "referral_boost">;

/** The page where the link lands: it confirms nothing until its button is pressed (a POST with the token). */
export function confirmPromptPage(token: string): SitePage {
  return {
    title: JOURNEY_TEXT.confirmTitle,
    main: pageCard(`<h1>${escapeHtml(JOURNEY_TEXT.confirmTitle)}</h1>
<p>${escapeHtml(JOURNEY_TEXT.confirmIntro)}</p>
<form method="post" action="/confirm">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button class="button button--primary" type="submit">${escapeHtml(JOURNEY_TEXT.confirmButton)}</button>
</form>
${backLink("button--link")}`),
  };
}

/**
 * The place in line with the share box; `already`: this press (or link) found it confirmed before.
 * It ends with the way to "My place" (/#/me, where a sign-in shows the place again), then home.
 */
export function placePage(data: ShareBoxData, already: boolean): SitePage {
  const headline = data.position === null ? JOURNEY_TEXT.confirmedTitle : placeLine(data.position);
  const news = already ? `\n<p class="message message--info" role="status">${escapeHtml(JOURNEY_TEXT.alreadyConfirmed)}</p>` : "";
  return {
    title: headline,
    main: pageCard(`<h1>${escapeHtml(headline)}</h1>${news}
${data.referral_link ? shareBox(data.referral_link, data) : ""}
<p>${escapeHtml(JOURNEY_TEXT.seeLater)}</p>
<p class="confirm-page__me"><a class="button" href="${MY_PLACE_HREF}">${escapeHtml(JOURNEY_TEXT.myPlaceLink)}</a></p>
${backLink("button--link")}`),
    scripts: [SHARE_BOX_SCRIPT],
  };
}

/** "My place" as the site's router reads it (web/src/routes.ts ROUTES.me, a hash route). */
const MY_PLACE_HREF = "/#/me";

/** A link that cannot be used (410 expired, 400 tampered, 404 unknown): what happened and the way back. */
export function linkProblemPage(problem: ConfirmLinkProblem): SitePage {
  return problemPage(CONFIRM_LINK_PROBLEMS[problem], JOURNEY_TEXT.backLink);
}

const backLink = (kind: "button--link" | "button--primary") => homeButton(JOURNEY_TEXT.backLink, kind);

/**
 * The share box: the rule (none when referrals move nobody: a minor's entry without
 * MINOR_REFERRAL_REWARDS, issue 23), the link in a read-only field (selectable without JavaScript; a
 * text area, so the whole link wraps and can be read on a phone) with
 * its Copy button, the Web Share button, the share links, and the friends counted. The two
 * buttons are hidden until the script shows them, where they work.
 */
function shareBox(link: string, data: ShareBoxData): string {
  const links = shareLinks(link);
  const e = escapeHtml;
  const targets = SHARE_TARGETS.map(
    ({ key, name }) =>
      `<li><a class="button share__target" href="${e(links[key])}" target="_blank" rel="noopener noreferrer">${e(name)}</a></li>`,
  ).join("\n");
  return `<section class="share" data-share-box aria-labelledby="share-heading">
<h2 id="share-heading">${e(data.referral_boost > 0 ? JOURNEY_TEXT.shareHeading : JOURNEY_TEXT.shareHeadingNoBoost)}</h2>
<p>${e(data.referral_boost > 0 ? referralRule(data.referral_boost) : JOURNEY_TEXT.shareRuleNoBoost)}</p>
<label class="share__label" for="referral-link">${e(JOURNEY_TEXT.linkLabel)}</label>
<div class="waitlist__row">
<textarea id="referral-link" class="input waitlist__input share__link" rows="2" readonly spellcheck="false" data-share-link>${e(link)}</textarea>
<button class="button button--primary waitlist__submit" type="button" hidden data-share-copy>${e(JOURNEY_TEXT.copy)}</button>
</div>
<p class="share__status" role="status" data-share-status></p>
<button class="button share__native" type="button" hidden data-share-native data-text="${e(JOURNEY_TEXT.shareText)}">${e(JOURNEY_TEXT.shareButton)}</button>
<p class="share__via">${e(JOURNEY_TEXT.shareVia)}</p>
<ul class="share__targets">
${targets}
</ul>
<dl class="share__friends">
<div><dt>${e(JOURNEY_TEXT.friendsPending)}</dt><dd>${data.referrals_pending}</dd></div>
<div><dt>${e(JOURNEY_TEXT.friendsConfirmed)}</dt><dd>${data.referrals_confirmed}</dd></div>
</dl>
</section>`;
}

/**
 * JSON as the text of a script: "<", ">" and "&" (which could close the element or start a
 * comment) and the two line separators JavaScript once refused are written as escapes.
 */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The share box's script as the page carries it: the function's compiled text, called with its words. */
export const SHARE_BOX_SCRIPT = `(${shareBoxScript.toString()})(${scriptJson({
  copied: JOURNEY_TEXT.copied,
  copyFailed: JOURNEY_TEXT.copyFailed,
})});`;
