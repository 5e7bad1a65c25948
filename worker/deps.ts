import type { MiddlewareHandler } from "hono";
import { readConfig, type AppConfig } from "./config";
import { openDatabase } from "./db/client";
import { createRepository, type Repository } from "./db/repository";
import type { DeliveryDeps } from "./mail/delivery";
import { selectTransport, type MailTransport } from "./mail/transport";

/** What a request handler or the cron trigger works with, built from the worker's env. */
export type Services = {
  config: AppConfig;
  repo: Repository;
  driver: "d1" | "libsql";
  transport: MailTransport;
  now: () => Date;
  delivery: DeliveryDeps;
};

export function createServices(env: Env, now: () => Date = () => new Date()): Services {
  const config = readConfig(env);
  const { db, driver } = openDatabase(env);
  const repo = createRepository(db);
  const transport = selectTransport(config);
  return { config, repo, driver, transport, now, delivery: { repo, transport, config, now } };
}

export type AppEnv = { Bindings: Env; Variables: { services: Services } };

/** Builds the services once per request; nothing is kept between requests. */
export const withServices: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("services", createServices(c.env));
  await next();
};
