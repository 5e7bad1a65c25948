/**
 * The retention schedule (issue 23): the cron's sweeps of what is kept only so long (sweep.ts;
 * queries.ts is its storage, repo.retention), and what the console shows of them (stats.ts).
 */
export { retentionStats } from "./stats";
export { BATCH, retentionSchedule, runRetention } from "./sweep";
