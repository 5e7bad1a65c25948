/**
 * The worker project's setup, run before each test file: the test D1 database migrated, and
 * what every file would otherwise repeat.
 */
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, vi } from "vitest";

// Setup files may run more than once; applyD1Migrations only applies what is not applied yet.
await applyD1Migrations(env.DB, (env as unknown as { TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] }).TEST_MIGRATIONS);

// A test that moves the clock (vi.useFakeTimers, vi.setSystemTime) never leaves it moved for the
// next one. (Spies are undone by restoreMocks in vitest.config.ts.)
afterEach(() => {
  vi.useRealTimers();
});
