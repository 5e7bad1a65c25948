import { Hono, type Context } from "hono";
import type { AppEnv } from "../../deps";
import { bodyFormatOf, readBodyObject } from "../../platform/http/body";
import { API_BODY_ERRORS } from "../../platform/http/errors";
import { noStore } from "../../platform/http/no-store";
import { fromThisOrigin } from "../../platform/http/submission";
import { limitedPage } from "../../platform/http/limited-page";
import { sitePageResponse } from "../../platform/http/site-page";
import { clientNetwork } from "../../platform/limits";
import { describeError, log } from "../../platform/log";
import { confirmPromptPage, linkProblemPage, placePage } from "./confirm-page";
import { confirmEntry, entryOfToken } from "./confirm";
import { shareBoxOf } from "./place";
import { ConfirmTokenError } from "./tokens";

/**
 * The confirmation link's page, /confirm (docs/api.md "The joiner's journey"), server-rendered in the
 * site's style and working without JavaScript:
 *
 * - GET /confirm?token=…: the "Confirm my place" button, a form that posts the token back. Opening
 *   the link never confirms (mail scanners and link previews open links); a place confirmed
 *   already is shown as such.
 * - POST /confirm (the button; from this site's own page only, as the public forms): confirms,
 *   then "You're #N in line" with the share box; pressed again, "Your place is already confirmed."
 *   Per client network at most CONFIRM_LIMITER's posts a minute (wrangler.toml: 60, a class
 *   confirming together), counted on the binding before the token is read: over it, a 429 page
 *   with the real wait (and Retry-After), and nothing is read or written.
 *
 * A token that cannot be used gets its own page, and nothing changes: 400 (not ours, or changed),
 * 410 (expired), 404 (its entry has left the list or was erased). No answer is stored anywhere.
 */

/** The place page of the entry `entryId` (the share box's figures as they are now); a 404's page when it is gone. */
async function placeOf(c: Context<AppEnv>, entryId: number, already: boolean): Promise<Response> {
  const shareBox = await shareBoxOf(c.get("deps"), entryId, new URL(c.req.url).origin);
  return sitePageResponse(c, placePage(shareBox, already), 200);
}

/** The page for a token's problem, with its status; anything else is the site's failure (500, logged). */
function problemAnswer(c: Context<AppEnv>, error: unknown): Promise<Response> {
  if (error instanceof ConfirmTokenError) return sitePageResponse(c, linkProblemPage(error.problem), error.status);
  log("error", "confirm.failed", { method: c.req.method, error: describeError(error) });
  return sitePageResponse(c, linkProblemPage("failed"), 500);
}

/** The token of a POST's form body; "" when there is none (an invalid link's page). */
async function postedToken(c: Context<AppEnv>): Promise<string> {
  if (bodyFormatOf(c.req.header("content-type")) !== "form") return "";
  try {
    const token = (await readBodyObject(c, "form", API_BODY_ERRORS)).token;
    return typeof token === "string" ? token : "";
  } catch {
    // Too large, not UTF-8, a field twice: no token this server made.
    return "";
  }
}

export const confirmRoutes = new Hono<AppEnv>()
  .use("*", noStore)

  .get("/", async (c) => {
    const token = c.req.query("token") ?? "";
    try {
      const entry = await entryOfToken(c.get("deps"), token);
      if (entry.confirmedAt !== null) return await placeOf(c, entry.id, true);
      return await sitePageResponse(c, confirmPromptPage(token), 200);
    } catch (error) {
      return problemAnswer(c, error);
    }
  })

  .post("/", async (c) => {
    if (!fromThisOrigin(c.req.raw)) {
      return sitePageResponse(c, linkProblemPage("otherSite"), 403);
    }
    const network = clientNetwork(c.req.raw);
    const limited = await limitedPage(c, [{ limiter: "CONFIRM_LIMITER", key: network }]);
    if (limited) return limited;
    const token = await postedToken(c);
    try {
      const { outcome, entryId } = await confirmEntry(c.get("deps"), token, network);
      return await placeOf(c, entryId, outcome === "already");
    } catch (error) {
      return problemAnswer(c, error);
    }
  });
