import { type Context, Hono } from "hono";
import type { AppEnv } from "../../deps";
import { bodyFormatOf, readBodyObject } from "../../platform/http/body";
import { API_BODY_ERRORS } from "../../platform/http/errors";
import { noStore } from "../../platform/http/no-store";
import { limitedPage } from "../../platform/http/limited-page";
import { sitePageResponse } from "../../platform/http/site-page";
import { clientNetwork } from "../../platform/limits";
import { fromThisOrigin } from "../../platform/http/submission";
import { describeError, log } from "../../platform/log";
import { answerRequest, noticeOfToken } from "./answer";
import { agreedPage, declinedPage, parentProblemPage, requestPage } from "./page";
import { ParentTokenError } from "./token";

/**
 * The parent's page, /parent (docs/api.md "Parents"), server-rendered in the site's style,
 * working without JavaScript, with the site pages' security headers and policy:
 *
 * - GET /parent?token=…: the notice and two buttons, each a form posting the token and an answer.
 *   Opening the link answers nothing (mail scanners and link previews open links).
 * - POST /parent (from this site's own page only, as the public forms), `token` and
 *   `answer=agree|decline`: the answer (answer.ts), then its page. Per client network at most
 *   CONFIRM_LIMITER's answers a minute (wrangler.toml: 60; counted apart from /confirm's), on
 *   the binding before the token is read: over it, a 429 page with the real wait, nothing written.
 *
 * A token that cannot be used gets its own page and nothing changes: 400 (not ours, or changed),
 * 410 (expired), 404 (answered already, deleted, or unknown). An answer that is neither: 400.
 */

/** The page for a token's problem, with its status; anything else is the site's failure (500, logged; nothing was answered). */
function problemAnswer(c: Context<AppEnv>, error: unknown): Promise<Response> {
  if (error instanceof ParentTokenError) return sitePageResponse(c, parentProblemPage(error.problem), error.status);
  log("error", "parent.failed", { method: c.req.method, error: describeError(error) });
  return sitePageResponse(c, parentProblemPage("failed"), 500);
}

/** The token and answer of a POST's form body; "" for what is missing (a body that cannot be read has neither). */
async function posted(c: Context<AppEnv>): Promise<{ token: string; answer: string }> {
  if (bodyFormatOf(c.req.header("content-type")) !== "form") return { token: "", answer: "" };
  try {
    const body = await readBodyObject(c, "form", API_BODY_ERRORS);
    const text = (value: unknown) => (typeof value === "string" ? value : "");
    return { token: text(body.token), answer: text(body.answer) };
  } catch {
    return { token: "", answer: "" };
  }
}

export const parentRoutes = new Hono<AppEnv>()
  .use("*", noStore)

  .get("/", async (c) => {
    const token = c.req.query("token") ?? "";
    try {
      return await sitePageResponse(c, requestPage(await noticeOfToken(c.get("deps"), token), token.trim()), 200);
    } catch (error) {
      return problemAnswer(c, error);
    }
  })

  .post("/", async (c) => {
    if (!fromThisOrigin(c.req.raw)) return sitePageResponse(c, parentProblemPage("otherSite"), 403);
    const limited = await limitedPage(c, [{ limiter: "CONFIRM_LIMITER", key: `parent:${clientNetwork(c.req.raw)}` }]);
    if (limited) return limited;
    const { token, answer } = await posted(c);
    try {
      if (answer !== "agree" && answer !== "decline") {
        // Checked after the token, so a bad token is still its own page.
        await noticeOfToken(c.get("deps"), token);
        return await sitePageResponse(c, parentProblemPage("invalid"), 400);
      }
      const answered = await answerRequest(c.get("deps"), token, answer, (work) => c.executionCtx.waitUntil(work));
      return await sitePageResponse(c, answered.outcome === "agreed" ? agreedPage(answered.place) : declinedPage(), 200);
    } catch (error) {
      return problemAnswer(c, error);
    }
  });
