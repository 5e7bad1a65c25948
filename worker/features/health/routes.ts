import { Hono } from "hono";
import { operatorOf } from "../operator";
import { waitingJoinsOf } from "../joins";
import { missingProductionSettings } from "../../platform/config/production";
import type { AppEnv, Deps } from "../../deps";
import { missingFloodLimiters } from "../../platform/limits";
import { describeError, log } from "../../platform/log";
import { withDeadline } from "../../platform/db/errors";

/**
 * How long health waits for the database (its check, and an operator's session): a database that
 * does not answer is unreachable for health's purpose, so health still answers (with the waiting
 * joins, read from the backlog) when an operator needs it most.
 */
export const HEALTH_DB_DEADLINE_MS = 2000;

/**
 * GET /api/health: is the worker fit to serve. 503 when the database cannot be reached, when
 * its schema lacks a table or column (migrations not applied), or, outside development, when a
 * setting production needs is missing, a placeholder or too weak a secret, or a setting's value
 * is not valid (named, never shown), or a rate-limit binding of the public routes is missing
 * (wrangler.toml [[ratelimits]]: without it those routes run unlimited). Also: the database, the
 * mail transport, how many notifications wait undelivered and since when, and how many joins wait
 * on the joins queue for the database and how old the oldest is (read from the backlog, not the
 * database: it is counted while the database is down; `known: false` when the backlog did not answer).
 * A database that does not answer within HEALTH_DB_DEADLINE_MS counts as unreachable.
 *
 * In production those details tell how many people sign up (an outage's backlog) and how mail
 * goes out: they are given only to an operator (`Authorization: Bearer` with an operator's
 * access token or AUTH_ADMIN_KEY, as /api/admin takes). Anyone else gets the status, why it is
 * not ready, and the names of the settings to fix: what a deployer needs before any key exists.
 * In development (a local server) everyone gets everything.
 */
export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const deps = c.get("deps");
  const { driver, transport, config, now, databaseProblem } = deps;
  const detailed = config.isDevelopment || (await isOperator(deps, c.req.raw));
  const missingSettings = missingProductionSettings(config);
  const report = {
    environment: config.isDevelopment ? "development" : "production",
    database: { driver, reachable: false, migrated: false } as { driver: string; reachable: boolean; migrated: boolean; problem?: string },
    mail: { transport: transport.name },
    settings: { missing: missingSettings, invalid: config.invalidSettings },
    notifications: { undelivered: 0, oldestUndeliveredAt: null as string | null, oldestAgeSeconds: null as number | null },
  };
  const problems: string[] = [];
  const joins = detailed ? waitingJoinsOf(deps) : null;
  try {
    const { missingSchema, undelivered } = await withDeadline(deps.repo.health.check(), HEALTH_DB_DEADLINE_MS);
    report.database.reachable = true;
    report.database.migrated = missingSchema === null;
    if (missingSchema) {
      report.database.problem = `${missingSchema}: apply the migrations`;
      problems.push("the database schema is not migrated");
    }
    if (undelivered) {
      const { count, oldestAt } = undelivered;
      const age = oldestAt ? Math.max(0, Math.round((now().getTime() - Date.parse(oldestAt)) / 1000)) : null;
      report.notifications = { undelivered: count, oldestUndeliveredAt: oldestAt, oldestAgeSeconds: age };
    }
  } catch (error) {
    log("error", "health.database_unreachable", { driver, error: describeError(error) });
    if (databaseProblem) report.database.problem = databaseProblem;
    problems.push(databaseProblem ?? "the database cannot be reached");
  }
  // wrangler dev simulates every binding; a production deploy without one runs those routes unlimited.
  const missingLimiters = missingFloodLimiters(c.env);
  if (!config.isDevelopment && missingLimiters.length > 0) {
    problems.push(`rate-limit bindings missing (wrangler.toml [[ratelimits]]): ${missingLimiters.join(", ")}`);
  }
  if (missingSettings.length > 0) problems.push(`settings missing, placeholders or too weak: ${missingSettings.join(", ")}`);
  // Outside development a value the worker cannot use is not quietly replaced by its default.
  if (!config.isDevelopment && config.invalidSettings.length > 0) problems.push(`settings not valid: ${config.invalidSettings.join(", ")}`);

  const shown = detailed ? { ...report, joins: await joins } : { settings: report.settings };
  if (problems.length === 0) return c.json({ status: "ok", ...shown });
  const code = report.database.reachable ? (report.database.migrated ? "not_configured" : "not_migrated") : "database_unreachable";
  return c.json({ status: "unavailable", error: { code, message: `Not ready: ${problems.join("; ")}.` }, ...shown }, 503);
});

/** Whether the request comes from an operator; a check that fails (no database) says no. */
async function isOperator(deps: Deps, request: Request): Promise<boolean> {
  if (!request.headers.has("Authorization")) return false;
  try {
    return "operator" in (await withDeadline(operatorOf(deps, request), HEALTH_DB_DEADLINE_MS));
  } catch {
    return false;
  }
}
