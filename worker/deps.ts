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
  /** The repository; reading it throws when the configured database cannot be used (databaseProblem). */
  readonly repo: Repository;
  driver: "d1" | "libsql";
  /** Why the configured database cannot be used (a bad LIBSQL_URL), or null. */
  databaseProblem: string | null;
  transport: MailTransport;
  now: () => Date;
};

export function createDeps(env: Env, now: () => Date = () => new Date()): Deps {
  const config = readConfig(env);
  const opened = openDatabase(env);
  const repo = opened.db ? createRepository(opened.db) : null;
  return {
    config,
    get repo(): Repository {
      if (!repo) throw new Error(`The database cannot be used: ${opened.problem}.`);
      return repo;
    },
    driver: opened.driver,
    databaseProblem: opened.problem,
    transport: selectTransport(config),
    now,
  };
}

export type AppEnv = { Bindings: Env; Variables: { deps: Deps } };

/** Builds the dependencies once per request. */
export const withDeps: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("deps", createDeps(c.env));
  await next();
};
