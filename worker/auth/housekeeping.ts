import type { Services } from "../services";
import { windowStartOf } from "./rate-limit";

/** How long used refresh tokens are kept to recognise their reuse. */
export const REVOKED_TOKEN_RETENTION_DAYS = 30;

/**
 * Run by the cron trigger: removes rate-limit counters of finished windows, codes that expired
 * more than a day ago, and refresh tokens used more than REVOKED_TOKEN_RETENTION_DAYS ago.
 */
export async function pruneAuthRecords({ repo, config, now }: Pick<Services, "repo" | "config" | "now">): Promise<void> {
  const at = now();
  const oldestWindowStart = windowStartOf(at, config.auth.rateLimit.windowSeconds);
  await repo.auth.pruneAuth({ now: at, oldestWindowStart, revokedTokenDays: REVOKED_TOKEN_RETENTION_DAYS });
}
