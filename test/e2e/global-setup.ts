/**
 * The e2e project's server: the current site in a temporary directory (built there, or copied from
 * the build `npm test` has just made: E2E_SITE_DIR), served with the worker by one `wrangler dev`
 * on a fresh database. Tests get its address and the admin key
 * through `inject("baseUrl")` and `inject("adminKey")`.
 *
 * Secrets are random per run and exist only on wrangler's command line; with no mail provider
 * token the worker stores e-mails in the dev mailbox, where tests read the sign-in codes. The
 * rate limits are raised so that many sign-ins and submissions from one address (127.0.0.1) are not refused, and
 * the per-address wait between two codes is cut to 1 s.
 *
 * The browser is looked for first (test/support/chromium.ts): with none, the run fails at once, before
 * anything is built or started, with the help on how to get one.
 *
 * Set E2E_WRANGLER_LOG=/some/file to keep wrangler's output for inspection after the run.
 */
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { chromiumPathOrExit } from "../support/chromium.ts";
import { HOST, run, startDevServer, tail } from "../support/dev-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The dev server's origin, e.g. http://127.0.0.1:40123 (no trailing slash). */
    baseUrl: string;
    /** The auth service's admin key (Authorization: Bearer <key> on /auth/v1/admin/*). */
    adminKey: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // With no browser: its help alone, and exit code 1 (a thrown error would bury it under a stack trace).
  const browser = chromiumPathOrExit();
  const site = process.env.E2E_SITE_DIR ? `the site npm test built (${process.env.E2E_SITE_DIR})` : "a new build of the site";
  console.log(`e2e: starting wrangler dev on ${HOST} with ${site} (browser: ${browser})…`);
  const workDir = mkdtempSync(path.join(os.tmpdir(), "e2e-site-"));
  const siteDir = path.join(workDir, "dist");
  const buildLog = path.join(workDir, "build.log");
  const removeWorkDir = () => rmSync(workDir, { recursive: true, force: true });

  try {
    // Served from a directory of its own rather than web/dist, so that a build there never swaps
    // files under this server. `npm test` has just built the current source into E2E_SITE_DIR:
    // a copy of it will do. Otherwise (`npm run test:e2e`) the site is built here.
    const prebuilt = process.env.E2E_SITE_DIR;
    if (prebuilt) {
      cpSync(prebuilt, siteDir, { recursive: true });
    } else {
      await run(process.execPath, ["web/build.ts", "--out-dir", siteDir], buildLog, { NODE_ENV: "production" }).catch((error: unknown) => {
        throw new Error(`${(error as Error).message} Its log:\n${tail(buildLog)}`);
      });
    }

    const adminKey = randomBytes(32).toString("base64url");
    const server = await startDevServer({
      assetsDir: siteDir,
      tempPrefix: "e2e-server-",
      logFile: process.env.E2E_WRANGLER_LOG || undefined,
      // Every browser test posts from 127.0.0.1 (no CF-Connecting-IP: one client to the public
      // routes' rate-limit bindings), so their wrangler.toml limits are raised for this server; the
      // limits themselves are covered by the worker tests.
      raisedRateLimits: 100_000,
      vars: {
        ENVIRONMENT: "development",
        // The operator console's browser tests sign in as these (codes from the dev mailbox). Each console e2e file signs in as an operator of its own: a second code to one address within
        // the cooldown (60 s) is refused, and the files run two at a time.
        OPERATOR_EMAILS: "operator@example.com,campaigns-operator@example.com,integrations-operator@example.com",
        MAIL_PROVIDER_TOKEN: "",
        AUTH_JWT_SECRET: randomBytes(32).toString("hex"),
        AUTH_ADMIN_KEY: adminKey,
        // Webhooks' endpoints (the console's Integrations): their secrets are sealed under this.
        WEBHOOK_SECRETS_KEY: randomBytes(32).toString("hex"),
        AUTH_RATE_LIMIT_OTP: "1000",
        AUTH_RATE_LIMIT_VERIFY: "1000",
        AUTH_RATE_LIMIT_TOKEN: "1000",
        AUTH_CODE_HOURLY_LIMIT: "1000",
        AUTH_CODE_DAILY_LIMIT: "1000",
        NOTIFY_HOURLY_CAP: "100000",
        // Tests sign one address in more than once (two devices); the 60 s rule itself is
        // covered by the worker tests.
        AUTH_CODE_COOLDOWN_SECONDS: "1",
        // Campaigns need a sender (the bulk-mail laws' name and postal address); as npm start's examples.
        SENDER_NAME: "Homework Helper (e2e)",
        SENDER_POSTAL_ADDRESS: "1 Test Street, Testville",
      },
    });

    project.provide("baseUrl", server.baseUrl);
    project.provide("adminKey", adminKey);

    return async () => {
      await server.stop();
      removeWorkDir();
    };
  } catch (error) {
    removeWorkDir();
    throw error;
  }
}
