/**
 * wrangler.toml's [[ratelimits]] (the public routes' flood limits, worker/platform/limits.ts), read
 * and rewritten as text: for the end-to-end tests and benchmarks, whose browsers and load all come
 * from 127.0.0.1, one client to the limits (test/support/dev-server.ts `raisedRateLimits`). Test
 * tooling only: production reads wrangler.toml as it is.
 */

export type RateLimitEntry = { name: string; limit: number; period: number };

const ENTRY =
  /\[\[ratelimits\]\][^[]*?name\s*=\s*"([A-Za-z0-9_]+)"[^[]*?simple\s*=\s*\{\s*limit\s*=\s*(\d+)\s*,\s*period\s*=\s*(\d+)\s*\}/g;
const SIMPLE_LIMIT = /(\[\[ratelimits\]\][^[]*?simple\s*=\s*\{\s*limit\s*=\s*)\d+/g;

/** The [[ratelimits]] entries of a wrangler.toml, in order. */
export function rateLimitsOf(toml: string): RateLimitEntry[] {
  return [...toml.matchAll(ENTRY)].map((match) => ({ name: match[1]!, limit: Number(match[2]), period: Number(match[3]) }));
}

/**
 * The same configuration with every [[ratelimits]] limit set to `limit` (each period as it was).
 * Throws when an entry is not in the `simple = { limit = N, period = P }` form this reads.
 */
export function withRaisedRateLimits(toml: string, limit: number): string {
  const entries = toml.match(/\[\[ratelimits\]\]/g)?.length ?? 0;
  let raised = 0;
  const text = toml.replace(SIMPLE_LIMIT, (_match, head: string) => {
    raised += 1;
    return `${head}${limit}`;
  });
  if (raised !== entries || rateLimitsOf(text).length !== entries) {
    throw new Error(`wrangler.toml has ${entries} [[ratelimits]] entries but ${raised} in the form simple = { limit = N, period = P }.`);
  }
  return text;
}
