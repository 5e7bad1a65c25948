/** How the benchmarks time one call after another and say it: median, 95th percentile, slowest. */

export type Latency = { calls: number; median: number; p95: number; max: number };

/** The nearest-rank percentile `p` (0 to 100) of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Latency figures of a set of durations in milliseconds. */
export function latencyOf(ms: readonly number[]): Latency {
  if (ms.length === 0) throw new Error("No calls were timed.");
  const sorted = [...ms].sort((a, b) => a - b);
  return { calls: sorted.length, median: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1]! };
}

/**
 * Calls `call(0)`, `call(1)`, … one after another (never two at once: the figures are service
 * times, not queueing) and times each, from its start until it has resolved.
 */
export async function timeCalls(times: number, call: (index: number) => Promise<void>): Promise<Latency> {
  const ms: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await call(i);
    ms.push(performance.now() - started);
  }
  return latencyOf(ms);
}

/** "median 12 ms, p95 15 ms, slowest 20 ms (200 calls)". */
export function describeLatency(latency: Latency): string {
  return `median ${latency.median.toFixed(1)} ms, p95 ${latency.p95.toFixed(1)} ms, slowest ${latency.max.toFixed(1)} ms (${latency.calls} calls)`;
}
