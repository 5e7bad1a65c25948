/**
 * The worker project's setup, run before each test file: an empty, migrated test D1 database, and
 * what every file would otherwise repeat.
 */
import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, vi } from "vitest";

// The files share one runtime (isolate: false in vitest.config.ts), so each starts as if it had one
// of its own: every binding's data deleted (the database, the queues), then the database migrated.
await reset();
await applyD1Migrations(env.DB, (env as unknown as { TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] }).TEST_MIGRATIONS);

// A test that moves the clock (vi.useFakeTimers, vi.setSystemTime) never leaves it moved for the
// next one. (Spies are undone by restoreMocks in vitest.config.ts.)
afterEach(() => {
  vi.useRealTimers();
});
