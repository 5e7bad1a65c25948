import type { Deps } from "../../deps";
import { withDeadline } from "../../platform/db/errors";
import { describeError, log } from "../../platform/log";

/** Where a location keeps the confirmed count (a key of the Cache API, under the site's own origin; never fetched). */
export function countCacheKey(origin: string): string {
  return `${origin}/.edge/confirmed-count`;
}

/**
 * How long a page waits for the confirmed count's database read: past it the page is served
 * without the count (as when the read fails), so a slow or hung database never holds the home
 * page longer than this.
 */
export const COUNT_DEADLINE_MS = 1000;

/**
 * The confirmed count the page states, read from the database at most once per
 * PAGE_CACHE_SECONDS per location: the answer is kept in the location's cache (the Cache API)
 * for that long, and every page of that location reads it from there. A database that cannot
 * answer, or not within COUNT_DEADLINE_MS, gives null (the page then leaves the count out), kept
 * as long, so a spike against a struggling database asks it once a minute, not per visit.
 * PAGE_CACHE_SECONDS=0: read per visit. Never throws.
 */
export async function confirmedCount(deps: Deps, origin: string, waitUntil: (work: Promise<unknown>) => void): Promise<number | null> {
  const seconds = deps.config.pages.cacheSeconds;
  if (seconds === 0) return readCount(deps, origin, 0, waitUntil);
  // This isolate's own copy first, so a workers.dev address, where the Cache API keeps nothing,
  // still reads the database about once per PAGE_CACHE_SECONDS per isolate, not per visit.
  const kept = isolateCounts.get(origin);
  if (kept && kept.until > Date.now()) return kept.count;
  // Concurrent misses share one read: the first starts it, the others await the same promise,
  // each under its own deadline too (the first request may be cancelled with its timer), so no
  // visit waits on the database longer than COUNT_DEADLINE_MS. The promise never rejects.
  const pending = inFlight.get(origin);
  if (pending) return withDeadline(pending, COUNT_DEADLINE_MS).catch(() => null);
  const read = readCount(deps, origin, seconds, waitUntil).then((count) => {
    if (isolateCounts.size >= 100) isolateCounts.clear();
    isolateCounts.set(origin, { count, until: Date.now() + seconds * 1000 });
    return count;
  });
  inFlight.set(origin, read);
  try {
    return await read;
  } finally {
    inFlight.delete(origin);
  }
}

/** Per origin: the count this isolate read, and until when it holds. */
const isolateCounts = new Map<string, { count: number | null; until: number }>();

/** Per origin: the read under way in this isolate, which concurrent misses share. */
const inFlight = new Map<string, Promise<number | null>>();

async function readCount(deps: Deps, origin: string, seconds: number, waitUntil: (work: Promise<unknown>) => void): Promise<number | null> {
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
    count = await withDeadline(deps.repo.pages.confirmedCount(), COUNT_DEADLINE_MS);
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
