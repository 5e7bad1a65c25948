import { Hono } from "hono";
import type { AppEnv } from "../../../deps";
import { formFieldsUpTo } from "../../../platform/http/body";
import { fromThisOrigin } from "../../../platform/http/submission";
import { sitePageResponse } from "../../../platform/http/site-page";
import { describeError, log } from "../../../platform/log";
import { readLink, unsubscribe } from "./link";
import { ONE_CLICK_BODY } from "./token";
import { UNSUBSCRIBE_TEXT, unsubscribedPage, unsubscribeProblemPage, unsubscribePromptPage } from "./page";

/**
 * The unsubscribe link of every campaign e-mail, /unsubscribe?token=… (docs/api.md "Campaign e-mail
 * and unsubscribing"):
 *
 * - GET: a page with the "Unsubscribe" button (a form posting the token). Opening the link
 *   changes nothing: mail scanners and link previews open links.
 * - POST with the body `List-Unsubscribe=One-Click` (RFC 8058, as the List-Unsubscribe-Post
 *   header offers it): unsubscribes at once and answers 200 in plain text. A mail provider posts
 *   it from its own servers, so it needs no page, no sign-in and no origin: the signed token is
 *   the proof.
 * - POST from the page's own button (this site's origin only, like the public forms):
 *   unsubscribes and shows "You're unsubscribed". A browser's form says where it comes from
 *   (Origin, Sec-Fetch-Site); a POST with neither that is not exactly a one-click (a server
 *   posting a wrong body) is a 400 in plain text and changes nothing, so the consent trail never
 *   records a server's request as a person pressing the button.
 * - A mailbox the list does not know (link.ts) is not written back: every answer says "not on
 *   our list" and nothing changes.
 *
 * A token that is not this server's (changed, cut short) is a 400 and changes nothing. The
 * link never expires, and unsubscribing twice is the same as once. Nothing is cached. This file
 * reads the request and answers; the rules are link.ts.
 */

/** The plain-text answers of this route's own (the page's words are page.ts). */
const TEXT = {
  notOneClick: `A POST here must be the one-click body ${ONE_CLICK_BODY} (RFC 8058), or come from the unsubscribe page: nothing changed.`,
  notListed: "This address is not on our list: nothing changed.",
};

/** A one-click body is one short field; anything much longer is not one (and has no fields here). */
const MAX_BODY_BYTES = 4096;

/** Neither header a browser's form sends: not a page's button. */
const noBrowserHeaders = (request: Request) => request.headers.get("origin") === null && request.headers.get("sec-fetch-site") === null;

export const unsubscribeRoutes = new Hono<AppEnv>()
  .use("*", async (c, next) => {
    await next();
    c.header("Cache-Control", "no-store");
  })

  .get("/", async (c) => {
    const token = c.req.query("token") ?? "";
    try {
      const link = await readLink(c.get("deps"), token);
      if (link === "invalid") return await sitePageResponse(c, unsubscribeProblemPage("invalid"), 400);
      if (link === "notListed") return await sitePageResponse(c, unsubscribeProblemPage("notListed"), 200);
      // Already off the list: say so (still changing nothing).
      if (link.unsubscribed) return await sitePageResponse(c, unsubscribedPage(true, link.address), 200);
      return await sitePageResponse(c, unsubscribePromptPage(token, link.address), 200);
    } catch (error) {
      log("error", "unsubscribe.failed", { method: "GET", error: describeError(error) });
      return sitePageResponse(c, unsubscribeProblemPage("failed"), 500);
    }
  })

  .post("/", async (c) => {
    const deps = c.get("deps");
    // URL-encoded or multipart, both of which RFC 8058 allows.
    const fields = await formFieldsUpTo(c, MAX_BODY_BYTES);
    const [name, value] = ONE_CLICK_BODY.split("=") as [string, string];
    const oneClick = fields.get(name) === value;
    const token = fields.get("token") ?? c.req.query("token") ?? "";
    try {
      if (oneClick) {
        const link = await readLink(deps, token);
        if (link === "invalid") return c.text(UNSUBSCRIBE_TEXT.oneClickInvalid, 400);
        if (link === "notListed") return c.text(TEXT.notListed, 200);
        await unsubscribe(deps, link, "one-click");
        return c.text(UNSUBSCRIBE_TEXT.oneClickDone, 200);
      }
      if (noBrowserHeaders(c.req.raw)) return c.text(TEXT.notOneClick, 400);
      // The page's button: from this site's own page only (a cross-site form cannot press it).
      if (!fromThisOrigin(c.req.raw)) return await sitePageResponse(c, unsubscribeProblemPage("otherSite"), 403);
      const link = await readLink(deps, token);
      if (link === "invalid") return await sitePageResponse(c, unsubscribeProblemPage("invalid"), 400);
      if (link === "notListed") return await sitePageResponse(c, unsubscribeProblemPage("notListed"), 200);
      const added = await unsubscribe(deps, link, "page");
      return await sitePageResponse(c, unsubscribedPage(!added, link.address), 200);
    } catch (error) {
      log("error", "unsubscribe.failed", { method: "POST", one_click: oneClick, error: describeError(error) });
      return oneClick ? c.text(UNSUBSCRIBE_TEXT.oneClickFailed, 500) : sitePageResponse(c, unsubscribeProblemPage("failed"), 500);
    }
  });
