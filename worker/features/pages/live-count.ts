import type { Deps } from "../../deps";
import { describeError, log } from "../../platform/log";

/** Where a location keeps the confirmed count (a key of the Cache API, under the site's own origin; never fetched). */
export function countCacheKey(origin: string): string {
  return `${origin}/.edge/confirmed-count`;
}

/**
 * The confirmed count the page states, read from the database at most once per
 * PAGE_CACHE_SECONDS per location: the answer is kept in the location's cache (the Cache API)
 * for that long, and every page of that location reads it from there. A database that cannot
 * answer gives null (the page then leaves the count out), kept as long, so a spike against a
 * struggling database asks it once a minute, not per visit. PAGE_CACHE_SECONDS=0: read per visit.
 */
export async function confirmedCount(deps: Deps, origin: string, waitUntil: (work: Promise<unknown>) => void): Promise<number | null> {
  const seconds = deps.config.pages.cacheSeconds;
  const key = countCacheKey(origin);
  if (seconds > 0) {
    const cached = await caches.default.match(key);
    if (cached) {
      const { count } = (await cached.json()) as { count: number | null };
      return count;
    }
  }
  let count: number | null;
  try {
    count = await deps.repo.pages.confirmedCount();
  } catch (error) {
    log("warn", "pages.count_unavailable", { error: describeError(error) });
    count = null;
  }
  if (seconds > 0) {
    const stored = new Response(JSON.stringify({ count }), {
      headers: { "Content-Type": "application/json", "Cache-Control": `public, max-age=${seconds}` },
    });
    waitUntil(caches.default.put(key, stored));
  }
  return count;
}
