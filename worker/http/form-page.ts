import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../deps";
import { describeError, log } from "../log";
import { escapeHtml } from "../mail/content";
import { BRAND_NAME } from "../shared/brand";
import { cspHash } from "../shared/hash";
import { FORM_PAGE_TEXT } from "../shared/public-forms";
import { type Refill, type RefillForm, refilledForm } from "./form-refill";
import { SITE_CSP, sitePolicy } from "../shared/security-headers";

/**
 * The answer to a public form posted without JavaScript (see public-submission.ts): a small page in the
 * site's look that says what happened, in the same words and with the same status the JSON
 * answer has, gives a refused form back with what was typed (form-refill.ts), and links back to
 * the site. It runs no script. Its stylesheet is the site's own
 * inline <style>, read from the built home page, and its Content-Security-Policy allows exactly
 * that text by hash, as the home page's does.
 */

/** What one public form's page says besides the outcome: its heading, the way back, its success words, its form. */
export type FormPage = {
  heading: string;
  /** Where "Back to the site" goes: the page, or the section, the form sits in. */
  back: string;
  /** Shown on success; the first line is the headline. */
  success: readonly string[];
  /** The form a refused post gets back, refilled. */
  form: RefillForm;
  /** Error codes that are news, not a failure (the waitlist's duplicate): said in the status style. */
  informational?: readonly string[];
};

/**
 * What happened, in the words the JSON answer has: a success's lines, each problem, or news
 * ("info": the status style, as the app shows it); `refill`: the form to give back with it.
 */
export type Outcome = { kind: "success" | "error" | "info"; lines: readonly string[]; refill?: Refill };

/** The form's page for `outcome`, with `status` (answer.ts decides when a page is the answer). */
export async function formPageResponse(
  c: Context<AppEnv>,
  page: FormPage,
  outcome: Outcome,
  status: ContentfulStatusCode,
): Promise<Response> {
  const site = await siteStyle(c);
  c.header("Content-Security-Policy", site.policy);
  // The form goes back to the address the refused post went to.
  const form = outcome.refill ? `${refilledForm(page.form, c.req.path, outcome.refill)}\n` : "";
  return c.html(renderPage(page, outcome, form, site.styles), status);
}

/** The site's inline stylesheets (the exact text between the tags), and the policy that allows exactly them. */
type SiteStyle = { styles: readonly string[]; policy: string };

const INLINE_STYLE = /<style>([\s\S]*?)<\/style>/g;

/**
 * Reads the built home page from the static assets at every answer (a form post is rare next to
 * a page view, and the page then always matches the site that is deployed). The request carries
 * none of the visitor's headers, so it cannot be answered 304.
 */
async function siteStyle(c: Context<AppEnv>): Promise<SiteStyle> {
  try {
    const home = await c.env.ASSETS.fetch(new Request(new URL("/", c.req.url)));
    if (!home.ok) throw new Error(`the home page answered HTTP ${home.status}`);
    const styles = [...(await home.text()).matchAll(INLINE_STYLE)].map((match) => match[1]!);
    if (styles.length === 0) throw new Error("the home page carries no inline stylesheet");
    return { styles, policy: sitePolicy({ styles: await Promise.all(styles.map(cspHash)) }) };
  } catch (error) {
    // The answer matters more than its looks: unstyled, the page still says what happened.
    log("warn", "form_page.style_unavailable", { error: describeError(error) });
    return { styles: [], policy: SITE_CSP };
  }
}

/**
 * The page: the site's header (its brand links home), then a card with the form's heading, the
 * outcome, the form given back (when refused) and the way back (a plain link under a form, whose
 * button is the page's one primary action), in the site's classes (the login page's centred card). Every word is escaped (form-refill.ts escapes its own); only the site's
 * own stylesheet goes in as it is (its hash must match).
 */
function renderPage(page: FormPage, outcome: Outcome, form: string, styles: readonly string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(`${BRAND_NAME}: ${page.heading}`)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${styles.map((css) => `<style>${css}</style>`).join("\n")}
</head>
<body>
<header class="site-header"><div class="site-header__inner"><a class="site-header__brand" href="/">${escapeHtml(BRAND_NAME)}</a></div></header>
<main id="main" class="site-main">
<div class="login"><div class="card">
<h1>${escapeHtml(page.heading)}</h1>
${outcomeMessage(outcome)}
${form}<p class="login__home"><a class="button ${form ? "button--link" : "button--primary"}" href="${escapeHtml(page.back)}">${escapeHtml(FORM_PAGE_TEXT.backLink)}</a></p>
</div></div>
</main>
</body>
</html>
`;
}

/** The outcome in the site's message box: a success's first line is its headline; problems one per line. */
function outcomeMessage({ kind, lines }: Outcome): string {
  const [first = "", ...rest] = lines.map(escapeHtml);
  const text = [kind === "success" ? `<strong>${first}</strong>` : first, ...rest].join("<br>");
  return `<p class="message message--${kind}" role="${kind === "error" ? "alert" : "status"}">${text}</p>`;
}
