import type { Deps } from "../../deps";
import { STATS_DAYS } from "../../shared/admin";

/**
 * The console's figures of the parents' answers (issue 23 §6), for the operator's stats: the
 * requests waiting for an answer now, and the answers ("agreed", "declined") this UTC day and over
 * the stats' last STATS_DAYS days (today included). Requests that expired unanswered are the
 * retention schedule's count (kind "parental_requests", worker/features/retention). Counts only.
 */
export type ParentalStats = {
  pending: number;
  today: { agreed: number; declined: number };
  lastDays: { agreed: number; declined: number };
};

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

export async function parentalStats(deps: Deps): Promise<ParentalStats> {
  const now = deps.now();
  const today = utcDay(now);
  const since = utcDay(new Date(now.getTime() - (STATS_DAYS - 1) * 86_400_000));
  const { rows, pending } = await deps.repo.parents.outcomes(since);
  const stats: ParentalStats = { pending, today: { agreed: 0, declined: 0 }, lastDays: { agreed: 0, declined: 0 } };
  for (const { day, outcome, count } of rows) {
    if (outcome !== "agreed" && outcome !== "declined") continue;
    stats.lastDays[outcome] += count;
    if (day === today) stats.today[outcome] += count;
  }
  return stats;
}
