import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { describeError, log } from "../log";
import { escapeHtml } from "../html";
import { BRAND_NAME } from "../../shared/brand";
import { cspHash } from "../../shared/hash";
import { sitePolicy } from "../../shared/security-headers";
import type { PlatformEnv } from "./env";

/**
 * The shell of the pages the worker renders itself (a form posted without JavaScript,
 * form-page.ts; the confirmation page, worker/features/waitlist/confirm-page.ts): the site's header and its
 * own stylesheet, read from the built home page, with a Content-Security-Policy that allows
 * exactly that text, and a page's own inline scripts, by hash, as the home page's does.
 */

/** The site's inline stylesheets (the exact text between the tags). */
export type SiteStyle = { styles: readonly string[] };

const INLINE_STYLE = /<style>([\s\S]*?)<\/style>/g;

/**
 * Reads the built home page from the static assets at every answer (such a page is rare next to
 * a page view, and it then always matches the site that is deployed). The request carries none
 * of the visitor's headers, so it cannot be answered 304.
 */
export async function siteStyle<E extends PlatformEnv>(c: Context<E>): Promise<SiteStyle> {
  try {
    const home = await c.env.ASSETS.fetch(new Request(new URL("/", c.req.url)));
    if (!home.ok) throw new Error(`the home page answered HTTP ${home.status}`);
    const styles = [...(await home.text()).matchAll(INLINE_STYLE)].map((match) => match[1]!);
    if (styles.length === 0) throw new Error("the home page carries no inline stylesheet");
    return { styles };
  } catch (error) {
    // The answer matters more than its looks: unstyled, the page still says what happened.
    log("warn", "form_page.style_unavailable", { error: describeError(error) });
    return { styles: [] };
  }
}

/** A page of the site: its title (after the brand), what goes in <main>, and the exact text of its inline scripts. */
export type SitePage = { title: string; main: string; scripts?: readonly string[] };

/**
 * The page as HTML with `status`, in the site's style, and the policy that allows exactly its
 * stylesheets and scripts. Never stored: such a page answers one visitor's request.
 */
export async function sitePageResponse<E extends PlatformEnv>(
  c: Context<E>,
  page: SitePage,
  status: ContentfulStatusCode,
): Promise<Response> {
  const { styles } = await siteStyle(c);
  const scripts = page.scripts ?? [];
  const [styleHashes, scriptHashes] = await Promise.all([Promise.all(styles.map(cspHash)), Promise.all(scripts.map(cspHash))]);
  c.header("Content-Security-Policy", sitePolicy({ styles: styleHashes, scripts: scriptHashes }));
  c.header("Cache-Control", "no-store");
  return c.html(sitePageHtml(page, styles), status);
}

/**
 * The document: the site's header (its brand links home), `main`, then the scripts. The title
 * is escaped here; `main` is HTML its renderer escaped; the stylesheets and scripts go in as
 * they are (their hashes must match).
 */
export function sitePageHtml(page: SitePage, styles: readonly string[]): string {
  const scripts = (page.scripts ?? []).map((script) => `<script>${script}</script>\n`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(`${BRAND_NAME}: ${page.title}`)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${styles.map((css) => `<style>${css}</style>`).join("\n")}
</head>
<body>
<header class="site-header"><div class="site-header__inner"><a class="site-header__brand" href="/">${escapeHtml(BRAND_NAME)}</a></div></header>
<main id="main" class="site-main">
${page.main}
</main>
${scripts}</body>
</html>
`;
}

/** The centred card of the login page, a little wider (the worker's own pages: /confirm, /unsubscribe). */
export const pageCard = (content: string) => `<div class="login confirm-page"><div class="card">
${content}
</div></div>`;

/** The way back to the site's home page under a card, as a link or the page's main button. */
export const homeButton = (label: string, kind: "button--link" | "button--primary") =>
  `<p class="login__home"><a class="button ${kind}" href="/">${escapeHtml(label)}</a></p>`;

/** A link or request that cannot be used: what happened (an alert; nothing changed), and the way home as the page's main button. */
export function problemPage(problem: { title: string; text: string }, homeLabel: string): SitePage {
  return {
    title: problem.title,
    main: pageCard(`<h1>${escapeHtml(problem.title)}</h1>
<p class="message message--error" role="alert">${escapeHtml(problem.text)}</p>
${homeButton(homeLabel, "button--primary")}`),
  };
}
