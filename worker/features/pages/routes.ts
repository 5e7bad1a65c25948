import { Hono, type Context } from "hono";
import type { AppEnv } from "../../deps";
import { sha256Hex } from "../../shared/hash";
import { TURNSTILE_META } from "../../shared/public-forms";
import { LANDING_FIELDS, landingValues } from "../../shared/waitlist";
import { withTurnstile } from "../../shared/security-headers";
import {
  CLAIM_LINES,
  CLAIMS_AFTER_ICON,
  CLAIMS_META,
  type ClaimKey,
  type Claims,
  claimWords,
  claimsMetaContent,
  studentsClaim,
} from "../../shared/claims";
import { assetRequest, fromCache, matches, pageCacheKey, taggedEtag, toCache, unconditional, withoutConditions } from "./cache";
import { confirmedCount } from "./live-count";

export { pageCacheKey } from "./cache";

/**
 * The page's tags whose root-relative address must be absolute (web/index.html): the canonical
 * link, and the share preview's address and image, which other sites fetch without knowing
 * where the page came from.
 */
const ABSOLUTE_ADDRESSES: readonly (readonly [selector: string, attribute: string])[] = [
  ['link[rel="canonical"]', "href"],
  ['meta[property="og:url"]', "content"],
  ['meta[property="og:image"]', "content"],
  ['meta[name="twitter:image"]', "content"],
];

/**
 * The site's pages (the home page, at "/" and "/index.html"), passed on from the static assets
 * (web/dist, with the headers of its `_headers` file) through one streaming HTMLRewriter pass, which:
 *
 * - makes the canonical link and the share preview's addresses absolute with the site's origin:
 *   SITE_URL (a preview or workers.dev address then still names the real site). Without it, in
 *   development, the origin the page was requested at; in production they stay as built
 *   (root-relative): a page others may cache never names the host a request claims (`Host:
 *   evil.example`), and health reports SITE_URL missing;
 * - when Turnstile is configured, adds its site key (a <meta> the forms read), and the response
 *   gets a policy that allows Turnstile's origin;
 * - writes the page's claims (worker/shared/claims.ts): the launch line, accuracy and response
 *   time as set (CLAIM_*), and the confirmed count rounded down from CLAIM_STUDENTS_THRESHOLD on
 *   (below it the line is left out and the forms' note says no "thousands"), into the elements
 *   marked `data-claim`, and all of them into a <meta> the app hydrates with.
 *
 * That page is kept in the location's cache (the Cache API) for PAGE_CACHE_SECONDS (default 60),
 * under a key of its own per variant (the path, and a digest of the origin, site key and claims),
 * so a spike of visitors costs no asset fetch and no database read per visit (the count is kept
 * as long: live-count.ts). A new build is served within that time.
 *
 * A visit with attribution (the address's utm_* parameters, the linking page's host) or a shared
 * link's referral code (ref) gets that page with those values written into the waitlist forms'
 * hidden fields, which send them with a join, by a second pass per request over the cached copy.
 * Such a page is the visitor's own: it is never stored, it is marked private (no shared cache
 * keeps it) and gets no ETag.
 *
 * The page stays cheap to revalidate: its ETag is the built file's, tagged with the variant's
 * digest, and a request naming it gets a 304 with no body (from the cached copy's ETag, or, with
 * the cache off, by asking the assets with the built file's ETag).
 */
async function page(c: Context<AppEnv>): Promise<Response> {
  const deps = c.get("deps");
  const { turnstile, siteUrl, isDevelopment, pages } = deps.config;
  const url = new URL(c.req.url);
  const origin = siteUrl || (isDevelopment ? url.origin : "");
  const siteKey = turnstile.enabled ? turnstile.siteKey.replace(/[^\w-]/g, "") : "";
  const waitUntil = (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
  const count = await confirmedCount(deps, url.origin, waitUntil);
  const claims: Claims = {
    launch: pages.launch,
    accuracyRate: pages.accuracyRate,
    responseTime: pages.responseTime,
    studentsWaiting: studentsClaim(count, pages.studentsThreshold),
  };
  const variant = await digest(`${origin}\n${siteKey}\n${claimsMetaContent(claims)}`);
  // The attribution and a shared link's referral code (?ref=CODE), for the forms' hidden fields.
  const attribution = landingValues(url, c.req.header("Referer") ?? null);
  const attributed = LANDING_FIELDS.some((name) => attribution[name] !== null);
  const personal = (plain: Response) => (attributed ? personalised(plain, attribution) : plain);

  if (pages.cacheSeconds === 0) {
    const response = await c.env.ASSETS.fetch(attributed ? unconditional(c.req.raw) : assetRequest(c.req.raw, variant));
    if (response.status === 304) return withPageHeaders(response, response.body, variant, siteKey !== "");
    if (!isPage(response)) return response;
    return personal(rewritten(response, origin, siteKey, claims, variant));
  }

  const key = pageCacheKey(url, variant);
  const cached = await caches.default.match(key);
  let plain: Response;
  if (cached) {
    plain = fromCache(cached);
  } else {
    // The whole page (a GET, whatever the visitor asked: a HEAD's empty body must never be stored).
    const response = await c.env.ASSETS.fetch(new Request(url, { method: "GET", headers: withoutConditions(c.req.raw.headers) }));
    if (!isPage(response)) return response;
    const filled = rewritten(response, origin, siteKey, claims, variant);
    const [forCache, forVisitor] = filled.body!.tee();
    waitUntil(caches.default.put(key, toCache(filled, forCache, pages.cacheSeconds)));
    plain = new Response(forVisitor, { status: filled.status, headers: filled.headers });
  }
  if (!attributed && matches(c.req.header("If-None-Match"), plain.headers.get("ETag"))) {
    await plain.body?.cancel();
    const headers = new Headers(plain.headers);
    headers.delete("Content-Length");
    return new Response(null, { status: 304, headers });
  }
  return personal(plain);
}

/** A 200 HTML answer of the assets (anything else, a redirect or a 404, is passed on as it is). */
function isPage(response: Response): boolean {
  return response.status === 200 && (response.headers.get("content-type") ?? "").includes("text/html");
}

/** The built page with the origin, site key and claims written in: the page every visit of this variant gets. */
function rewritten(response: Response, origin: string, siteKey: string, claims: Claims, variant: string): Response {
  const rewriter = new HTMLRewriter();
  // No origin (production without SITE_URL): the addresses stay as built.
  for (const [selector, attribute] of origin === "" ? [] : ABSOLUTE_ADDRESSES) {
    rewriter.on(selector, {
      element(element) {
        const value = element.getAttribute(attribute);
        // Root-relative only: an address that is already absolute (or protocol-relative) stays.
        if (value?.startsWith("/") && !value.startsWith("//")) element.setAttribute(attribute, `${origin}${value}`);
      },
    });
  }
  const words = claimWords(claims);
  rewriter.on("head", {
    element(head) {
      head.append(`<meta name="${CLAIMS_META}" content="${attributeText(claimsMetaContent(claims))}">`, { html: true });
      if (siteKey !== "") head.append(`<meta name="${TURNSTILE_META}" content="${siteKey}">`, { html: true });
    },
  });
  rewriter.on("[data-claim]", {
    element(element) {
      const key = element.getAttribute("data-claim") ?? "";
      if (!Object.hasOwn(words, key)) return;
      // The mark has done its work: the visitor's page goes without it (the first round trip's
      // bytes), as the app renders it (web/src/claims.ts ClaimMarks), so hydration finds the same.
      element.removeAttribute("data-claim");
      const text = words[key as ClaimKey];
      if (text === null) element.remove();
      // A line (the stats' item) stays whole when shown; its number is an element of its own. An
      // element with an icon before its words keeps the icon: only its text is replaced (below).
      else if (!CLAIM_LINES.includes(key as ClaimKey) && !CLAIMS_AFTER_ICON.includes(key as ClaimKey)) element.setInnerContent(text);
    },
  });
  for (const key of CLAIMS_AFTER_ICON) {
    const text = words[key];
    if (text === null) continue;
    rewriter.on(`[data-claim="${key}"]`, {
      // The element's one text node (after its icon, which has none), however it comes in chunks.
      text(chunk) {
        if (chunk.lastInTextNode) chunk.replace(text);
        else chunk.remove();
      },
    });
  }
  const transformed = rewriter.transform(response);
  return withPageHeaders(transformed, transformed.body, variant, siteKey !== "");
}

/** The visitor's own page: the attribution in the forms' hidden fields; private, without an ETag, never stored. */
function personalised(plain: Response, attribution: ReturnType<typeof landingValues>): Response {
  const rewriter = new HTMLRewriter();
  for (const name of LANDING_FIELDS) {
    const value = attribution[name];
    if (value === null) continue;
    rewriter.on(`form input[type="hidden"][name="${name}"]`, {
      element(input) {
        input.setAttribute("value", attributeText(value));
      },
    });
  }
  const transformed = rewriter.transform(plain);
  const headers = new Headers(transformed.headers);
  headers.delete("ETag");
  headers.set("Cache-Control", "private, no-cache");
  return new Response(transformed.body, { status: transformed.status, headers });
}

/**
 * A value as the text of an attribute: HTMLRewriter's setAttribute writes `"` as `&quot;` but
 * leaves `&` as it is, so `a&amp;b` would reach the form as `a&b`. Both are escaped here (a
 * `"` escaped already is left alone by setAttribute), so the browser reads back what was sent.
 */
function attributeText(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

/** The response with the page's ETag (tagged with `variant`) and, with Turnstile, its policy. */
function withPageHeaders(response: Response, body: ReadableStream | null, variant: string, turnstile: boolean): Response {
  const headers = new Headers(response.headers);
  const etag = headers.get("ETag");
  if (etag) headers.set("ETag", taggedEtag(etag, variant));
  const policy = headers.get("Content-Security-Policy");
  // A 304 carries it too: its headers replace those the browser stored with the page.
  if (turnstile && policy) headers.set("Content-Security-Policy", withTurnstile(policy));
  return new Response(body, { status: response.status, headers });
}

/** A short digest of what the worker adds to the page (12 hex digits of its SHA-256). */
async function digest(text: string): Promise<string> {
  return (await sha256Hex(text)).slice(0, 12);
}

export const pageRoutes = new Hono<AppEnv>().get("/", page).get("/index.html", page);

/**
 * A path with no file: a missing /assets/* file is a plain 404 that nobody caches (never the
 * page under the assets' year-long cache); any other path goes to the home page, where hash
 * routing takes over. (/api, /dev and /auth answer their own unknown paths, in their formats.)
 */
export function noSuchFile(c: Context<AppEnv>): Response {
  if (c.req.path.startsWith("/assets/") || (c.req.method !== "GET" && c.req.method !== "HEAD")) {
    return c.text("Not found", 404, { "Cache-Control": "no-store" });
  }
  return c.redirect("/", 302);
}
