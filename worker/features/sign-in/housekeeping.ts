import type { Deps } from "../../deps";

/** How long used refresh tokens are kept to recognise their reuse. */
export const REVOKED_TOKEN_RETENTION_DAYS = 30;

/**
 * Run by the cron trigger: removes rate-limit counters of finished windows, codes last sent
 * more than a day ago, and refresh tokens used more than REVOKED_TOKEN_RETENTION_DAYS ago.
 */
export async function pruneRecords({ repo, now }: Deps): Promise<void> {
  const at = now();
  await repo.counters.prune(at);
  await repo.signIn.pruneAuth({ now: at, revokedTokenDays: REVOKED_TOKEN_RETENTION_DAYS });
}
