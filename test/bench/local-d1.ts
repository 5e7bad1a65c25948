/**
 * The benchmarks' way into a local D1 database (the --persist-to directory of a server started by
 * test/support/dev-server.ts): statements run by `wrangler d1 execute --local`, as a developer
 * would run them, so seeding and query plans see the very file the running worker uses.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { CHILD_ENV, ROOT, run } from "../support/dev-server.ts";

const execFileAsync = promisify(execFile);

/** Runs SQL (one statement or several) on the local database; wrangler's output goes to `logFile`. */
export function executeSql(persistDir: string, logFile: string, sql: string): Promise<void> {
  return run("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", persistDir, "--command", sql], logFile);
}

/** The rows of one query on the local database (wrangler's --json answer). */
export async function querySql<Row>(persistDir: string, sql: string): Promise<Row[]> {
  const { stdout } = await execFileAsync(
    "npx",
    ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", persistDir, "--json", "--command", sql],
    { cwd: ROOT, env: CHILD_ENV, maxBuffer: 16 * 1024 * 1024 },
  );
  const answers = JSON.parse(stdout) as { results: Row[] }[];
  return answers.flatMap((answer) => answer.results);
}
