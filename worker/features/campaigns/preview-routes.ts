import { Hono, type Context } from "hono";
import { previewPage, type PreviewProblem } from "./preview";
import type { AppEnv } from "../../deps";
import { describeError, log } from "../../platform/log";
import { escapeHtml } from "../../platform/html";

/**
 * /campaign-preview?token=…: a campaign's e-mail as a page of its own, which the console shows
 * in frames at phone and desktop width (POST /api/admin/campaigns/:id/preview gives the signed,
 * 10-minute address: a frame sends no Authorization header). A frame of srcdoc would inherit the
 * console's policy, which refuses the e-mail's inline styles; this page has its own: the
 * e-mail's inline styles and https images, nothing that runs, framed only by this site's pages.
 */

/** The e-mail's needs and nothing more: no script, no form, no connection; framed by this origin only. */
export const PREVIEW_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'self'";

const PROBLEMS: Record<PreviewProblem | "failed", { status: 400 | 404 | 410 | 500; text: string }> = {
  invalid: { status: 400, text: "This preview address is not one this site gave, or it was changed." },
  expired: { status: 410, text: "This preview address has expired (they work for 10 minutes). Open the preview again in the console." },
  unknown: { status: 404, text: "There is no campaign with this address's id any more." },
  failed: { status: 500, text: "The preview could not be made. Please try again." },
};

function answer(c: Context<AppEnv>, html: string, status: 200 | 400 | 404 | 410 | 500): Response {
  return c.html(html, status, {
    "Content-Security-Policy": PREVIEW_CSP,
    // The console (same origin) frames it; X-Frame-Options for browsers that predate frame-ancestors.
    "X-Frame-Options": "SAMEORIGIN",
    "Cache-Control": "no-store",
    // The address holds a token: links followed from the preview do not pass it on.
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex, nofollow",
  });
}

function problemPage(c: Context<AppEnv>, problem: keyof typeof PROBLEMS): Response {
  const { status, text } = PROBLEMS[problem];
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Preview unavailable</title></head>
<body style="font-family:system-ui,sans-serif;margin:2rem;color:#1f2937"><p>${escapeHtml(text)}</p></body></html>`;
  return answer(c, page, status);
}

export const campaignPreviewRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const deps = c.get("deps");
  try {
    const page = await previewPage(deps, (c.req.query("token") ?? "").trim(), new URL(c.req.url).origin);
    return typeof page === "string" ? problemPage(c, page) : answer(c, page.html, 200);
  } catch (error) {
    log("error", "campaign.preview_failed", { error: describeError(error) });
    return problemPage(c, "failed");
  }
});
