import type { MiddlewareHandler } from "hono";
import { readConfig, type AppConfig } from "./config";
import { openDatabase } from "./db/client";
import { createRepository, type Repository } from "./db/repository";
import { selectTransport, type MailTransport } from "./mail/transport";

/**
 * What every handler, service and the cron work with, built from the worker's env: one object,
 * passed whole (the parts are cheap to build and nothing is kept between requests).
 */
export type Deps = {
  config: AppConfig;
  repo: Repository;
  driver: "d1" | "libsql";
  transport: MailTransport;
  now: () => Date;
};

export function createDeps(env: Env, now: () => Date = () => new Date()): Deps {
  const config = readConfig(env);
  const { db, driver } = openDatabase(env);
  return { config, repo: createRepository(db), driver, transport: selectTransport(config), now };
}

export type AppEnv = { Bindings: Env; Variables: { deps: Deps } };

/** Builds the dependencies once per request. */
export const withDeps: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("deps", createDeps(c.env));
  await next();
};
