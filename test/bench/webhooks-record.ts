/**
 * What bench:webhooks (webhooks.ts) reads of the worker once its server stopped: the local D1
 * file's events and deliveries, and the consumer's runs from wrangler's log (each run logs one
 * `webhooks.run` line with its lanes, deliveries and database calls).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export type Row = { endpoint_id: number; status: string; n: number; attempts: number };

/** The worker's own record, read from the local D1 file: events stored, deliveries by endpoint. */
export async function workerRecord(persistDir: string): Promise<{ events: number; rows: Row[] }> {
  const { DatabaseSync } = await import("node:sqlite");
  const dir = path.join(persistDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
  if (!file) throw new Error(`no D1 database file in ${dir}`);
  const db = new DatabaseSync(path.join(dir, file), { readOnly: true });
  try {
    const events = (db.prepare("SELECT COUNT(*) AS n FROM hwh_webhook_events").get() as { n: number }).n;
    const grouped = "SELECT endpoint_id, status, COUNT(*) AS n, SUM(attempts) AS attempts FROM hwh_webhook_deliveries GROUP BY 1, 2";
    return { events, rows: db.prepare(grouped).all() as Row[] };
  } finally {
    db.close();
  }
}

/** The consumer's runs that claimed something, summed from the `webhooks.run` lines of wrangler's log. */
export function runFigures(logFile: string): { runs: number; delivered: number; dbCalls: number; mostLanes: number; budgetSpent: number } {
  const figures = { runs: 0, delivered: 0, dbCalls: 0, mostLanes: 0, budgetSpent: 0 };
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    const start = line.indexOf('{"level"');
    if (start < 0 || !line.includes('"event":"webhooks.run"')) continue;
    try {
      const run = JSON.parse(line.slice(start, line.lastIndexOf("}") + 1)) as {
        delivered: number;
        dbCalls: number;
        lanes: number;
        budgetSpent: boolean;
      };
      figures.runs += 1;
      figures.delivered += run.delivered;
      figures.dbCalls += run.dbCalls;
      figures.mostLanes = Math.max(figures.mostLanes, run.lanes);
      if (run.budgetSpent) figures.budgetSpent += 1;
    } catch {
      // a line cut short by the log's end: not counted
    }
  }
  return figures;
}
