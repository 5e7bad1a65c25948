import type { Deps } from "../../deps";
import type { RetentionConfig } from "../../platform/config/retention";
import { describeError, log } from "../../platform/log";
import { RETENTION_KINDS, type RetentionKind } from "../../shared/retention";
import { kickWebhooks } from "../webhooks";

/**
 * The retention schedule (issue 23; docs/configuration.md's RETENTION_* settings), enforced by the
 * cron: each kind of record the schedule names is deleted (or, for the referral network hashes,
 * cleared) once past its days, at most BATCH rows of each kind per run, oldest first, each
 * deletion counted per kind and UTC day in its own batch (queries.ts) for the console. Nothing
 * the schedule does not name is touched: confirmed entries and the audit log stay until erased.
 * A backlog (the first run after a deploy, a long schedule shortened) goes over the next runs.
 */

/** Rows of each kind one run deletes at most: a cron run stays short, and a batch small for D1. */
export const BATCH = 500;

/** Each kind's setting: a new kind is one line here and one in worker/shared/retention.ts (and its query). */
const DAYS: Record<RetentionKind, keyof RetentionConfig> = {
  unconfirmed_entries: "unconfirmedDays",
  referral_networks: "referralNetworkDays",
  contact_messages: "contactDays",
  parental_requests: "parentalRequestDays",
};

/** The UTC day a deletion is counted under (YYYY-MM-DD). */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** One run: each kind's sweep, one after the other; a failed one is logged and the others still run. What each deleted. */
export async function runRetention(deps: Deps): Promise<Record<RetentionKind, number>> {
  const now = deps.now();
  const day = utcDay(now);
  const report = Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, 0])) as Record<RetentionKind, number>;
  for (const kind of RETENTION_KINDS) {
    const before = new Date(now.getTime() - deps.config.retention[DAYS[kind]] * 86_400_000);
    try {
      report[kind] = await deps.repo.retention.sweep(kind, { before, limit: BATCH, day, now });
    } catch (error) {
      log("error", "retention.sweep_failed", { kind, error: describeError(error) });
    }
  }
  // Deleted unconfirmed entries may have stored person.erased webhook events (a queue message, never a throw).
  if (report.unconfirmed_entries > 0) await kickWebhooks(deps);
  // Counts only, never what went.
  if (Object.values(report).some((count) => count > 0)) log("info", "retention.deleted", report);
  return report;
}

/** The days each kind is kept, as the settings say now. */
export function retentionSchedule(config: RetentionConfig): Record<RetentionKind, number> {
  return Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, config[DAYS[kind]]])) as Record<RetentionKind, number>;
}
