/**
 * The worker project's runtime (vitest.config.ts): wrangler.toml's worker, bindings and compatibility
 * settings, and as its settings only wrangler.toml's [vars] and the values the tests give. Nothing
 * from a developer's .dev.vars, .env or shell reaches the tests, so a local run and CI test the same
 * worker.
 *
 * Why not the plugin's own `wrangler: { configPath }`: @cloudflare/vitest-plugin 1.5 resolves it
 * with wrangler's unstable_getMiniflareWorkerOptions and no env files, which loads the .dev.vars
 * beside wrangler.toml (or .env, or the shell's environment under CLOUDFLARE_INCLUDE_PROCESS_ENV)
 * into every test; its `miniflare.bindings` can override those values but not remove them. So
 * the same wrangler function is called here and its settings are replaced by the pinned ones.
 *
 * Node-only (vitest.config.ts and test/node); the explicit `.ts` in imports of this file is for
 * Node's type stripping.
 */
import path from "node:path";
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";

declare module "vitest" {
  export interface ProvidedContext {
    /** The worker tests' settings, as pinnedWorker gave them to the runtime (vitest.config.ts). */
    workerSettings: Record<string, SettingValue>;
  }
}

/** A setting's value as a binding: wrangler.toml's [vars] may hold JSON as well as text. */
export type SettingValue = string | number | boolean | null | SettingValue[] | { [key: string]: SettingValue };

/**
 * The worker in `configPath` for the plugin (`options`: its entry point and the runtime options wrangler
 * derives from the file) with `settings` as its only text and JSON bindings: wrangler.toml's [vars]
 * with `testValues` over them. `extra` bindings (e.g. the migrations) come beside them.
 */
export function pinnedWorker(configPath: string, testValues: Record<string, SettingValue>, extra: Record<string, SettingValue> = {}) {
  const config = unstable_readConfig({ config: configPath });
  const { workerOptions, main, externalWorkers } = unstable_getMiniflareWorkerOptions(config, undefined, {
    overrides: { enableContainers: false },
    // Not in wrangler's declared options but honoured (it is `wrangler dev --env-file`): with env
    // files given, wrangler reads no .dev.vars, and a file that does not exist adds nothing.
    // Whatever it reads is dropped below anyway; this only keeps it from opening the developer's file.
    envFiles: [path.join(path.dirname(configPath), ".no-env-file-for-tests")],
  } as Parameters<typeof unstable_getMiniflareWorkerOptions>[2]);
  if (main === undefined) throw new Error(`${configPath} names no main module.`);
  const { bindings: _fromWrangler, ...runtime } = workerOptions;
  const settings: Record<string, SettingValue> = { ...(config.vars as Record<string, SettingValue>), ...testValues };
  return { settings, options: { main, miniflare: { ...runtime, workers: externalWorkers, bindings: { ...settings, ...extra } } } };
}
