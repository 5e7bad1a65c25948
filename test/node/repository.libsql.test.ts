import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type Client } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { repositoryWithLookups } from "../support/records";
import { migrateLibsql } from "../../worker/platform/db/migrate-libsql";
import { addressesRepositorySuite } from "../support/addresses-repository-suite";
import { adminJourneySuite } from "../support/admin-journey-suite";
import { ageRepositorySuite } from "../support/age-repository-suite";
import { authRepositorySuite } from "../support/auth-repository-suite";
import { campaignRepositorySuite } from "../support/campaign-repository-suite";
import { consentRepositorySuite } from "../support/consent-repository-suite";
import { erasureRepositorySuite } from "../support/erasure-repository-suite";
import { journeyRepositorySuite } from "../support/journey-repository-suite";
import { joinsRepositorySuite } from "../support/joins-repository-suite";
import { operatorActionsSuite } from "../support/operator-actions-suite";
import { pagesRepositorySuite } from "../support/pages-repository-suite";
import { repositorySuite } from "../support/repository-suite";
import { mailQueueRepositorySuite } from "../support/mail-queue-repository-suite";
import { retentionRepositorySuite } from "../support/retention-repository-suite";
import { webhooksCronRepositorySuite } from "../support/webhooks-cron-repository-suite";
import { webhooksEndpointsRepositorySuite } from "../support/webhooks-endpoints-repository-suite";
import { webhooksRepositorySuite } from "../support/webhooks-repository-suite";

const dir = mkdtempSync(join(tmpdir(), "hwh-libsql-"));
const clients: Client[] = [];
let databases = 0;

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A new local libSQL file per case, migrated with the same command production uses. */
async function freshDatabase() {
  databases += 1;
  const url = `file:${join(dir, `test-${databases}.db`)}`;
  await migrateLibsql(url);
  const client = createClient({ url });
  clients.push(client);
  return client;
}

repositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
authRepositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
journeyRepositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
joinsRepositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
ageRepositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
consentRepositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
adminJourneySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
campaignRepositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
addressesRepositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
erasureRepositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
operatorActionsSuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
retentionRepositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
mailQueueRepositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
pagesRepositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
webhooksRepositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
webhooksEndpointsRepositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));
webhooksCronRepositorySuite("libSQL", async () => repositoryWithLookups(drizzle(await freshDatabase())));

describe("libSQL migrations", () => {
  it("create the prefixed tables and are safe to run twice", async () => {
    const client = await freshDatabase();
    const url = `file:${join(dir, `test-${databases}.db`)}`;
    await migrateLibsql(url);
    const tables = await client.execute("select name from sqlite_master where type = 'table' and name like 'hwh_%' order by name");
    expect(tables.rows.map((row) => row.name)).toEqual([
      "hwh_audit_log",
      "hwh_auth_codes",
      "hwh_auth_refresh_tokens",
      "hwh_auth_sessions",
      "hwh_auth_users",
      "hwh_backfills",
      "hwh_campaign_recipients",
      "hwh_campaigns",
      "hwh_dev_mailbox",
      "hwh_form_submissions",
      "hwh_joiner_mail",
      "hwh_mail_dead_letters",
      "hwh_parental_outcomes",
      "hwh_parental_requests",
      "hwh_rate_limits",
      "hwh_referral_credits",
      "hwh_retention_deletions",
      "hwh_subscription_events",
      "hwh_suppressions",
      "hwh_waitlist",
      "hwh_webhook_deliveries",
      "hwh_webhook_endpoints",
      "hwh_webhook_events",
    ]);
  });
});
