import { Hono } from "hono";
import { errorBody, methodNotAllowed } from "../http/errors";
import { describeError, log } from "../log";
import type { AppEnv } from "../services";

/** GET /api/health: is the database reachable, and which mail transport is active. */
export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const { repo, driver, transport } = c.get("services");
  const status = { database: { driver, reachable: true }, mail: { transport: transport.name } };
  try {
    await repo.ping();
  } catch (error) {
    log("error", "health.database_unreachable", { driver, error: describeError(error) });
    return c.json(
      { ...errorBody("database_unreachable", "The database cannot be reached."), ...status, database: { driver, reachable: false } },
      503,
    );
  }
  return c.json({ status: "ok", ...status });
}).all("/", methodNotAllowed(["GET"]));
