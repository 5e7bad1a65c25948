import type { MiddlewareHandler } from "hono";
import { FORM_PAGE_TEXT } from "../shared/public-forms";
import { bodyFormatOf } from "./body";
import { ApiError } from "./errors";
import type { FormPage, FormPostEnv } from "./form-page";

/**
 * The two ways into a public form: the site's script posts JSON and reads a JSON answer; a
 * browser without JavaScript (or before it has loaded) posts the <form> itself
 * (application/x-www-form-urlencoded) and shows the page it gets back (form-page.ts). Both go
 * through the same middleware and handler: limits, schema, honeypot, Turnstile, storage.
 */

/**
 * The head of every public form route, before anything that can fail:
 * - a form post is marked to be answered with `page`, so whatever it gets (201, 400, 429, ...)
 *   comes as that page (the API's error handler reads the mark);
 * - a body that is not JSON must come from this site's own pages. A browser sends a form post
 *   or a text/plain body to any origin without asking it first (no CORS preflight), so a page
 *   of another site could make each of its visitors submit junk from their own addresses, past
 *   the per-client limits. JSON needs a preflight, which this API never grants.
 * The check comes before the per-client limit, so a forged post does not spend the visitor's
 * allowance either.
 */
export function publicForm(page: FormPage): MiddlewareHandler<FormPostEnv> {
  return async (c, next) => {
    const format = bodyFormatOf(c);
    if (format === "form") c.set("formPage", page);
    if (format !== "json" && !fromThisOrigin(c.req.raw)) throw new ApiError(403, "cross_origin", FORM_PAGE_TEXT.otherOrigin);
    await next();
  };
}

/**
 * Whether the browser says the request was made by a page of this origin.
 * - Sec-Fetch-Site (sent by every current browser; a page cannot set it): "same-origin", or
 *   "none" (the person's own doing: the address bar, a bookmark). "same-site" (another
 *   subdomain, which may be anyone's) and "cross-site" are refused, as is any value not known.
 * - Without it (an older browser): Origin, when sent, must be this origin; "null" (a sandboxed
 *   frame, a privacy-preserving redirect) is not.
 * - With neither, no browser page made the request (curl, a server): it borrows no visitor's
 *   address, and the per-client limit counts it like anyone's.
 */
export function fromThisOrigin(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none";
  const origin = request.headers.get("origin");
  return origin === null || origin === new URL(request.url).origin;
}
