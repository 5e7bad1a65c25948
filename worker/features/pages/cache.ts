/**
 * The home page in the location's cache (Cache API; routes.ts): its key per variant, the copy the
 * cache keeps and the copy a visitor gets, and the validators: the conditional checks, the ETag tagged with the variant, the requests asked of the assets.
 */

/**
 * The cache key of a page's variant: the path (no query string: attribution is per visit, any
 * other parameter changes nothing) under the request's origin, with the variant's digest.
 */
export function pageCacheKey(url: URL, variant: string): string {
  return `${url.origin}/.edge/page/${variant}${url.pathname}`;
}

/** The header under which a stored copy keeps the page's own Cache-Control (the copy's says how long the cache keeps it). */
export const PAGE_CACHE_CONTROL = "X-Page-Cache-Control";

/** The copy the cache keeps for `seconds`. */
export function toCache(page: Response, body: ReadableStream, seconds: number): Response {
  const headers = new Headers(page.headers);
  headers.set(PAGE_CACHE_CONTROL, page.headers.get("Cache-Control") ?? "");
  headers.set("Cache-Control", `public, max-age=${seconds}`);
  return new Response(body, { status: 200, headers });
}

/** A stored copy as the visitor gets it: the page's own Cache-Control back. */
export function fromCache(cached: Response): Response {
  const headers = new Headers(cached.headers);
  const own = headers.get(PAGE_CACHE_CONTROL);
  headers.delete(PAGE_CACHE_CONTROL);
  // The cache's own notes (a HIT, the copy's age and date) tell the visitor nothing (the page
  // revalidates every time; Cloudflare's edge dates every response) and cost the first round trip bytes.
  for (const name of ["CF-Cache-Status", "Age", "Date"]) headers.delete(name);
  if (own) headers.set("Cache-Control", own);
  else headers.delete("Cache-Control");
  return new Response(cached.body, { status: 200, headers });
}

/** Whether an If-None-Match names this ETag (or any: `*`). */
export function matches(ifNoneMatch: string | undefined, etag: string | null): boolean {
  if (!ifNoneMatch || !etag) return false;
  const tags = ifNoneMatch.split(",").map((tag) => tag.trim());
  return tags.includes("*") || tags.includes(etag);
}

/** The headers without the request's conditions. */
export function withoutConditions(original: Headers): Headers {
  const headers = new Headers(original);
  headers.delete("If-None-Match");
  headers.delete("If-Modified-Since");
  return headers;
}

/** The request without its conditions: a page with the visit's own attribution is always sent whole. */
export function unconditional(request: Request): Request {
  return new Request(request, { headers: withoutConditions(request.headers) });
}

/** `"abc"` -> `"abc-<variant>"` (a weak validator stays weak). */
export function taggedEtag(etag: string, variant: string): string {
  return etag.replace(/"$/, `-${variant}"`);
}

/**
 * The request for the assets: an If-None-Match naming this variant of the page is turned back
 * into the built file's ETag; a tag of another variant (SITE_URL or the site key changed since)
 * is dropped, so the browser gets the page as it is now. The file's date is not asked about: it
 * says nothing about the variant.
 */
export function assetRequest(request: Request, variant: string): Request {
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
