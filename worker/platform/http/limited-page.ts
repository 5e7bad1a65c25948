import type { Context } from "hono";
import { JOURNEY_TEXT } from "../../shared/journey-text";
import { tooManyAttempts } from "../../shared/public-forms";
import { checkFloodLimits, type FloodCheck, type FloodEnv } from "../limits";
import type { PlatformEnv } from "./env";
import { problemPage, sitePageResponse } from "./site-page";

/** The heading of the worker's own pages' 429 (its text is the site's words with the real wait, tooManyAttempts). */
export const LIMITED_PAGE_TITLE = "Please wait a moment";

/**
 * The flood limit of a POST of the worker's own pages (/confirm, /parent): the request counts
 * against `checks` on the rate-limit bindings (limits.ts; no database write). Over the allowance,
 * the 429 page in the site's style, saying the real wait, with Retry-After; otherwise null, and
 * the route goes on.
 */
export async function limitedPage<E extends PlatformEnv & FloodEnv>(c: Context<E>, checks: FloodCheck[]): Promise<Response | null> {
  const verdict = await checkFloodLimits(c.env ?? {}, checks, c.get("deps").now());
  if (verdict.allowed) return null;
  c.header("Retry-After", String(verdict.retryAfterSeconds));
  const words = { title: LIMITED_PAGE_TITLE, text: tooManyAttempts(verdict.retryAfterSeconds) };
  return sitePageResponse(c, problemPage(words, JOURNEY_TEXT.backLink), 429);
}
