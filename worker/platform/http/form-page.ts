import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { escapeHtml } from "../html";
import { FORM_PAGE_TEXT } from "../../shared/public-forms";
import type { PlatformEnv } from "./env";
import { type Refill, type RefillForm, refilledForm } from "./form-refill";
import { sitePageResponse } from "./site-page";

/**
 * The answer to a public form posted without JavaScript (see submission.ts): a small page in the
 * site's look that says what happened, in the same words and with the same status the JSON
 * answer has, gives a refused form back with what was typed (form-refill.ts), and links back to
 * the site. It runs no script. Its shell (the site's header, its own inline stylesheet allowed by
 * hash) is site-page.ts.
 */

/** What one public form's page says besides the outcome: its heading, the way back, its success words, its form. */
export type FormPage = {
  heading: string;
  /** Where "Back to the site" goes: the page, or the section, the form sits in. */
  back: string;
  /** Shown on success; the first line is the headline. */
  success: readonly string[];
  /** Said under a success's message, apart from it (the spec's lines stay as they are). */
  successNote?: string;
  /** The form a refused post gets back, refilled. */
  form: RefillForm;
  /** Error codes that are news, not a failure (the waitlist's duplicate): said in the status style. */
  informational?: readonly string[];
};

/**
 * What happened, in the words the JSON answer has: a success's lines, each problem, or news
 * ("info": the status style, as the app shows it); `refill`: the form to give back with it;
 * `note: false`: a success without the page's successNote (a 202's lines say what comes next).
 */
export type Outcome = { kind: "success" | "error" | "info"; lines: readonly string[]; refill?: Refill; note?: boolean };

/** The form's page for `outcome`, with `status` (answer.ts decides when a page is the answer). */
export function formPageResponse<E extends PlatformEnv>(
  c: Context<E>,
  page: FormPage,
  outcome: Outcome,
  status: ContentfulStatusCode,
): Promise<Response> {
  // The form goes back to the address the refused post went to.
  const form = outcome.refill ? `${refilledForm(page.form, c.req.path, outcome.refill, c.get("deps").now())}\n` : "";
  return sitePageResponse(c, { title: page.heading, main: renderCard(page, outcome, form) }, status);
}

/**
 * The card: the form's heading, the outcome, the form given back (when refused) and the way
 * back (a plain link under a form, whose button is the page's one primary action), in the
 * site's classes (the login page's centred card). Every word is escaped (form-refill.ts escapes
 * its own).
 */
function renderCard(page: FormPage, outcome: Outcome, form: string): string {
  return `<div class="login"><div class="card">
<h1>${escapeHtml(page.heading)}</h1>
${outcomeMessage(outcome)}
${
  outcome.kind === "success" && outcome.note !== false && page.successNote
    ? `<p>${escapeHtml(page.successNote)}</p>
`
    : ""
}${form}<p class="login__home"><a class="button ${form ? "button--link" : "button--primary"}" href="${escapeHtml(page.back)}">${escapeHtml(FORM_PAGE_TEXT.backLink)}</a></p>
</div></div>`;
}

/** The outcome in the site's message box: a success's first line is its headline; problems one per line. */
function outcomeMessage({ kind, lines }: Outcome): string {
  const [first = "", ...rest] = lines.map(escapeHtml);
  const text = [kind === "success" ? `<strong>${first}</strong>` : first, ...rest].join("<br>");
  return `<p class="message message--${kind}" role="${kind === "error" ? "alert" : "status"}">${text}</p>`;
}
