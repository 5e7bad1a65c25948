import type { Deps } from "../../deps";
import { STATS_DAYS } from "../../shared/admin";
import { RETENTION_KINDS, type RetentionKind, type RetentionStats } from "../../shared/retention";
import { retentionSchedule, utcDay } from "./sweep";

const none = () => Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, 0])) as Record<RetentionKind, number>;
const isKind = (kind: string): kind is RetentionKind => (RETENTION_KINDS as readonly string[]).includes(kind);

/**
 * The console's retention line (GET /api/admin/stats `retention`): the schedule in force, what it
 * deleted this UTC day and over the stats' last STATS_DAYS days (today included), per kind, and
 * the last day it deleted anything.
 */
export async function retentionStats(deps: Deps): Promise<RetentionStats> {
  const now = deps.now();
  const today = utcDay(now);
  const since = utcDay(new Date(now.getTime() - (STATS_DAYS - 1) * 86_400_000));
  const [rows, lastDeletionDay] = await Promise.all([deps.repo.retention.deletions(since), deps.repo.retention.lastDeletionDay()]);
  const stats: RetentionStats = { schedule: retentionSchedule(deps.config.retention), today: none(), lastDays: none(), lastDeletionDay };
  for (const { day, kind, count } of rows) {
    // A kind no longer in the schedule (a rollback) is not shown.
    if (!isKind(kind)) continue;
    stats.lastDays[kind] += count;
    if (day === today) stats.today[kind] += count;
  }
  return stats;
}
