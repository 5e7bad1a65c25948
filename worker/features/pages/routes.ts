import { Hono, type Context } from "hono";
import type { AppEnv } from "../../deps";
import { sha256Hex } from "../../shared/hash";
import { TURNSTILE_META } from "../../shared/public-forms";
import { LANDING_FIELDS, landingValues } from "../../shared/waitlist";
import { withTurnstile } from "../../shared/security-headers";

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
 * The site's pages, passed on from the static assets (web/dist, with the headers of its
 * `_headers` file) through one streaming HTMLRewriter pass, which:
 *
 * - makes the canonical link and the share preview's addresses absolute with the site's origin:
 *   SITE_URL (a preview or workers.dev address then still names the real site). Without it, in
 *   development, the origin the page was requested at; in production they stay as built
 *   (root-relative): a page others may cache never names the host a request claims (`Host:
 *   evil.example`), and health reports SITE_URL missing;
 * - when Turnstile is configured, adds its site key (a <meta> the forms read), and the response
 *   gets a policy that allows Turnstile's origin;
 * - writes the visit's attribution (the address's utm_* parameters, the linking page's host)
 *   and a shared link's referral code (ref) into the waitlist forms' hidden fields, which send it with a join. Such a page is the
 *   visitor's own: it is marked private (no shared cache keeps it) and gets no ETag.
 *
 * The page stays cheap to revalidate: its ETag is the built file's, tagged with a digest of what
 * the pass puts in (origin, site key), and a conditional request is asked of the assets with the
 * built file's ETag, so an unchanged page is still a 304 with no body.
 */
async function page(c: Context<AppEnv>): Promise<Response> {
  const { turnstile, siteUrl, isDevelopment } = c.get("deps").config;
  const origin = siteUrl || (isDevelopment ? new URL(c.req.url).origin : "");
  const siteKey = turnstile.enabled ? turnstile.siteKey.replace(/[^\w-]/g, "") : "";
  const variant = await digest(`${origin}\n${siteKey}`);
  // The attribution and a shared link's referral code (?ref=CODE), for the forms' hidden fields.
  const attribution = landingValues(new URL(c.req.url), c.req.header("Referer") ?? null);
  const attributed = LANDING_FIELDS.some((name) => attribution[name] !== null);

  const response = await c.env.ASSETS.fetch(attributed ? unconditional(c.req.raw) : assetRequest(c.req.raw, variant));
  if (response.status === 304) return withPageHeaders(response, response.body, variant, siteKey !== "");
  if (response.status !== 200 || !(response.headers.get("content-type") ?? "").includes("text/html")) return response;

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
  if (siteKey !== "") {
    rewriter.on("head", {
      element(head) {
        head.append(`<meta name="${TURNSTILE_META}" content="${siteKey}">`, { html: true });
      },
    });
  }
  if (attributed) {
    for (const name of LANDING_FIELDS) {
      const value = attribution[name];
      if (value === null) continue;
      rewriter.on(`form input[type="hidden"][name="${name}"]`, {
        element(input) {
          input.setAttribute("value", attributeText(value));
        },
      });
    }
  }
  const rewritten = rewriter.transform(response);
  const answer = withPageHeaders(rewritten, rewritten.body, variant, siteKey !== "");
  if (attributed) {
    answer.headers.delete("ETag");
    answer.headers.set("Cache-Control", "private, no-cache");
  }
  return answer;
}

/**
 * A value as the text of an attribute: HTMLRewriter's setAttribute writes `"` as `&quot;` but
 * leaves `&` as it is, so `a&amp;b` would reach the form as `a&b`. Both are escaped here (a
 * `"` escaped already is left alone by setAttribute), so the browser reads back what was sent.
 */
function attributeText(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

/** The request without its conditions: a page with the visit's own attribution is always sent whole. */
function unconditional(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete("If-None-Match");
  headers.delete("If-Modified-Since");
  return new Request(request, { headers });
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

/** `"abc"` -> `"abc-<variant>"` (a weak validator stays weak). */
function taggedEtag(etag: string, variant: string): string {
  return etag.replace(/"$/, `-${variant}"`);
}

/**
 * The request for the assets: an If-None-Match naming this variant of the page is turned back
 * into the built file's ETag; a tag of another variant (SITE_URL or the site key changed since)
 * is dropped, so the browser gets the page as it is now. The file's date is not asked about: it
 * says nothing about the variant.
 */
function assetRequest(request: Request, variant: string): Request {
  const ifNoneMatch = request.headers.get("If-None-Match");
  if (ifNoneMatch === null && !request.headers.has("If-Modified-Since")) return request;
  const headers = new Headers(request.headers);
  headers.delete("If-Modified-Since");
  headers.delete("If-None-Match");
  if (ifNoneMatch !== null) {
    const suffix = `-${variant}"`;
    const tags = ifNoneMatch
      .split(",")
      .map((tag) => tag.trim())
      .filter((tag) => tag.endsWith(suffix))
      .map((tag) => `${tag.slice(0, -suffix.length)}"`);
    if (tags.length > 0) headers.set("If-None-Match", tags.join(", "));
  }
  return new Request(request, { headers });
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
