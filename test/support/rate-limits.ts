import { env } from "cloudflare:workers";

/**
 * The public routes' flood limits live on Workers Rate Limiting bindings (wrangler.toml
 * [[ratelimits]]), which miniflare simulates with fixed windows aligned to the wall clock
 * (floor(now / period)), counted in a process of its own with the real clock: vi.useFakeTimers
 * moves nothing there, so tests of these limits run on real time.
 */

/** Seconds left in the current window of `periodSeconds` (real time), as the worker computes a Retry-After. */
export function secondsLeftInWindow(periodSeconds = 60, now = Date.now()): number {
  return Math.max(1, periodSeconds - (Math.floor(now / 1000) % periodSeconds));
}

/** The current window's number (what miniflare's counter is keyed by), for a test to tell whether it crossed one. */
export function windowNumber(periodSeconds = 60, now = Date.now()): number {
  return Math.floor(now / (periodSeconds * 1000));
}

/**
 * Waits (real time) for a fresh window when fewer than `atLeastSeconds` are left in this one, so a
 * burst that must stay in one window does not straddle two.
 */
export async function roomInWindow(atLeastSeconds = 15, periodSeconds = 60): Promise<void> {
  const left = secondsLeftInWindow(periodSeconds);
  if (left >= atLeastSeconds) return;
  const msToNext = periodSeconds * 1000 - (Date.now() % (periodSeconds * 1000));
  await new Promise((resolve) => setTimeout(resolve, msToNext + 50));
}

/**
 * A binding counting in the real binding's simulation with another limit (miniflare's binding
 * takes `limit` beside the key; Cloudflare's takes the key only, which is why the worker never
 * passes one): for tests of a route's 429 without a burst of the real allowance.
 */
export function limitedTo(binding: RateLimit, limit: number, period: 10 | 60 = 60): RateLimit {
  const withOptions = binding as unknown as { limit(options: { key: string; limit: number; period: number }): Promise<RateLimitOutcome> };
  return { limit: ({ key }: RateLimitOptions) => withOptions.limit({ key, limit, period }) } as RateLimit;
}

/** A binding that fails (the rate-limiting service unreachable). */
export const failingBinding = {
  limit: async () => {
    throw new Error("rate limiter unavailable (simulated)");
  },
} as unknown as RateLimit;

/** The number of rows of every table of the test database (the migrations' bookkeeping included), by name. */
export async function rowCounts(): Promise<Record<string, number>> {
  const tables = await env.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' order by name",
  ).all<{
    name: string;
  }>();
  const counts: Record<string, number> = {};
  for (const { name } of tables.results) {
    const row = await env.DB.prepare(`select count(*) as n from "${name}"`).first<{ n: number }>();
    counts[name] = row!.n;
  }
  return counts;
}

/** The per-client counters of the database that the public routes once wrote (they must write none now). */
export async function publicCounterRows(): Promise<number> {
  const row = await env.DB.prepare(
    "select count(*) as n from hwh_rate_limits where key like 'waitlist:%' or key like 'form-%' or key like 'me-%' or key like 'confirm%'",
  ).first<{ n: number }>();
  return row!.n;
}

/**
 * A client network no other test uses (a random /64 of IPv6's documentation prefix), for a test
 * that spends a binding's real allowance: the bindings' counts outlive a test file, and
 * uniqueClientIp's addresses may meet another file's in the same minute.
 */
export function freshNetwork(): string {
  const group = () => Math.floor(Math.random() * 0x10000).toString(16);
  return `2001:db8:${group()}:${group()}::${group()}`;
}
