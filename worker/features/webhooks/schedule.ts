import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_SCHEDULE_SECONDS } from "../../shared/webhooks";

/**
 * When a failed delivery is tried again (issue 25 §3): the Standard Webhooks example schedule
 * (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h after the first, immediate attempt), each
 * step with up to ±10% jitter so a receiver's backlog does not come back all at once; a 429's
 * Retry-After is honoured when longer (capped at 24 hours). After WEBHOOK_MAX_ATTEMPTS, dead.
 */

/** How much a step may move either way. */
export const JITTER = 0.1;

/** The longest wait a Retry-After can ask for. */
export const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

/**
 * The next attempt after the `attempts`-th failed one (1 = the first attempt failed), or null when
 * that was the last (the delivery is dead). `random` in [0, 1) sets the jitter.
 */
export function nextAttemptAt(attempts: number, now: Date, retryAfterSeconds: number | null = null, random = Math.random()): Date | null {
  if (attempts >= WEBHOOK_MAX_ATTEMPTS) return null;
  const step = WEBHOOK_RETRY_SCHEDULE_SECONDS[Math.max(0, attempts - 1)]!;
  const jittered = step * (1 + (random * 2 - 1) * JITTER);
  const wait = Math.min(Math.max(jittered, retryAfterSeconds ?? 0), Math.max(MAX_RETRY_AFTER_SECONDS, jittered));
  return new Date(now.getTime() + Math.round(wait * 1000));
}
