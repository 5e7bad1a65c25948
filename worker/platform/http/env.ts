import type { AppConfig } from "../config/config";
import type { CounterRepository } from "../db/counters";
import type { FloodLimiterName } from "../limits";

/**
 * What the platform's middleware and answers need of a request, declared here so the platform
 * names nothing above it: the settings, the clock, and the counters behind the limits. The
 * worker's own dependencies (worker/deps.ts) have all of it and more, so a feature's app
 * (`Hono<AppEnv>`) passes its context to these functions as it is.
 */
export type PlatformDeps = {
  config: AppConfig;
  now: () => Date;
  /** Only the counters: what limits.ts counts with. */
  readonly repo: { readonly counters: Pick<CounterRepository, "count"> };
};

/**
 * The Hono env of a request as the platform reads it: the site's static assets (the pages the
 * worker renders take their stylesheet from the built home page), the public routes' rate-limit
 * bindings (limits.ts; a deploy may lack them) and the request's dependencies, of the app's own
 * type `D` (the platform reads only what PlatformDeps declares).
 */
export type PlatformEnv<D extends PlatformDeps = PlatformDeps> = {
  Bindings: Pick<Env, "ASSETS"> & Partial<Pick<Env, FloodLimiterName>>;
  Variables: { deps: D };
};
