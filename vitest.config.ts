import os from "node:os";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig, type ViteUserConfig } from "vitest/config";
import { pinnedWorker } from "./test/support/pinned-worker.ts";

const root = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Four projects: `worker` runs inside workerd (miniflare) against a migrated local D1, through
 * the worker's own fetch; `node` runs what belongs in Node (the libSQL repository suite); `web`
 * runs the site's components in jsdom with Testing Library; `e2e` runs the real auth-js client
 * and a headless Chromium against `wrangler dev`.
 *
 * `npm run test:unit` runs the first three (no browser, no server), `npm run test:e2e` the last;
 * the e2e global setup finds the browser (test/support/chromium.ts) before building anything.
 */
export default defineConfig(async (): Promise<ViteUserConfig> => {
  const migrations = await readD1Migrations(root("./migrations"));
  // The worker tests' settings: wrangler.toml's [vars] with these over them, and nothing else (no
  // .dev.vars, .env or shell variable: test/support/pinned-worker.ts; test/worker/pinned-settings.test.ts checks it).
  const worker = pinnedWorker(
    root("./wrangler.toml"),
    {
      // Tests run in development: no token means the dev mailbox.
      ENVIRONMENT: "development",
      // The hour's budget of single notifications is shared by every test in the
      // same hour; the cap's own tests set it low (and a clock of their own).
      NOTIFY_HOURLY_CAP: "1000000",
      COMPANY_EMAIL: "team@example.com",
      // Campaigns name their sender (test values; a test of health unsets them).
      SENDER_NAME: "Homework Helper Test Ltd",
      SENDER_POSTAL_ADDRESS: "1 Test Street, Testville, 00000",
      MAIL_API_URL: "https://provider.test/v1/run",
      MAIL_PROVIDER_TOKEN: "",
      LIBSQL_URL: "",
      // The files share one runtime and swap the assets binding for pages of their own: a page
      // kept in the Cache API would be served to the next test. The cache's own tests turn it on
      // (test/worker/page-cache.test.ts).
      PAGE_CACHE_SECONDS: "0",
      LIBSQL_AUTH_TOKEN: "",
      // Test-only values: sign-in needs a secret of at least 32 characters.
      AUTH_JWT_SECRET: "test-jwt-secret-0123456789abcdef0123456789abcdef",
      AUTH_ADMIN_KEY: "test-admin-key-0123456789abcdef-0123456789",
      // Webhooks: the endpoints' secrets are encrypted under this; host names are resolved by a
      // stand-in (tests spy on fetch), never by the network.
      WEBHOOK_SECRETS_KEY: "test-webhook-secrets-key-0123456789abcdef",
      WEBHOOK_DNS_URL: "https://dns.test/dns-query",
    },
    { TEST_MIGRATIONS: migrations },
  );
  return {
    test: {
      // Two files at a time at least: the e2e files mostly wait (on the browser, the server, the
      // mailbox), so on a two-core machine a second one runs beside them (vitest's default there is one).
      maxWorkers: Math.max(2, os.availableParallelism() - 1),
      // Structured log lines are shown for failing tests only.
      silent: "passed-only",
      // Every vi.spyOn (fake provider, console capture, failing fetch) is undone after each test.
      restoreMocks: true,
      projects: [
        {
          plugins: [cloudflareTest(worker.options)],
          test: {
            name: "worker",
            // The files share one runtime instead of starting one each (a second or more per file):
            // test/worker/setup.ts empties its storage before each file, so each still starts on an
            // empty database, and support modules keep nothing from one file for the next.
            isolate: false,
            // Some tests send hundreds of requests through the worker (bursts, concurrency): a few
            // seconds on a loaded two-core CI machine. The tests check outcomes, never speed.
            testTimeout: 20_000,
            include: ["test/worker/**/*.test.ts"],
            setupFiles: ["test/worker/setup.ts"],
            // What test/worker/pinned-settings.test.ts compares the runtime's settings with.
            provide: { workerSettings: worker.settings },
          },
        },
        {
          test: {
            name: "node",
            environment: "node",
            include: ["test/node/**/*.test.ts"],
          },
        },
        {
          plugins: [react()],
          // The site's own alias (web/vite.config.ts) for the rules it shares with the worker.
          resolve: { alias: { "@shared": root("./worker/shared") } },
          test: {
            name: "web",
            environment: "jsdom",
            restoreMocks: true,
            // A console journey renders many screens in jsdom: on a loaded two-core machine one took
            // over vitest's 5 s once (admin-console's erasure). The tests check outcomes, never speed.
            testTimeout: 15_000,
            include: ["test/web/**/*.test.tsx", "test/web/**/*.test.ts"],
            setupFiles: ["test/web/setup.ts"],
          },
        },
        {
          // The site's alias too: the browser tests take the words of the site's pages from their source.
          resolve: { alias: { "@shared": root("./worker/shared") } },
          test: {
            name: "e2e",
            environment: "node",
            include: ["test/e2e/**/*.test.ts"],
            // One wrangler dev for the whole project, on a fresh database and the current site.
            globalSetup: ["test/e2e/global-setup.ts"],
            // The files a worker runs share its browser (test/e2e/browser.ts) and modules; every
            // test has a browser profile and addresses of its own, so nothing else is shared.
            isolate: false,
            testTimeout: 60_000,
            hookTimeout: 120_000,
            // expect.poll waits for a page's state as long as a locator does (PAGE_TIMEOUT_MS in
            // test/e2e/browser.ts), not vitest's 1 s: every poll here waits for something to arrive
            // (a focus, a scroll, a hash), which on a loaded two-core machine can take longer.
            expect: { poll: { timeout: 15_000 } },
          },
        },
      ],
    },
  };
});
