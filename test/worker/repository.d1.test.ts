import { env } from "cloudflare:workers";
import { testRepository } from "../support/worker";
import { addressesRepositorySuite } from "../support/addresses-repository-suite";
import { adminJourneySuite } from "../support/admin-journey-suite";
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

const TABLES = [
  "hwh_waitlist",
  "hwh_joiner_mail",
  "hwh_referral_credits",
  "hwh_form_submissions",
  "hwh_dev_mailbox",
  "hwh_auth_users",
  "hwh_auth_codes",
  "hwh_auth_sessions",
  "hwh_auth_refresh_tokens",
  "hwh_rate_limits",
  "hwh_suppressions",
  "hwh_subscription_events",
  "hwh_backfills",
  "hwh_audit_log",
  "hwh_retention_deletions",
  "hwh_parental_requests",
  "hwh_parental_outcomes",
  "hwh_mail_dead_letters",
  "hwh_webhook_deliveries",
  "hwh_webhook_events",
  "hwh_webhook_endpoints",
];

// Each case starts from empty tables on the migrated test D1 database.
async function fresh() {
  await env.DB.batch(TABLES.map((table) => env.DB.prepare(`delete from ${table}`)));
  return testRepository();
}

repositorySuite("D1", fresh);
authRepositorySuite("D1", fresh);
journeyRepositorySuite("D1", fresh);
joinsRepositorySuite("D1", fresh);
consentRepositorySuite("D1", fresh);
adminJourneySuite("D1", fresh);
campaignRepositorySuite("D1", fresh);
addressesRepositorySuite("D1", fresh);
erasureRepositorySuite("D1", fresh);
operatorActionsSuite("D1", fresh);
retentionRepositorySuite("D1", fresh);
mailQueueRepositorySuite("D1", fresh);
pagesRepositorySuite("D1", fresh);
webhooksRepositorySuite("D1", fresh);
webhooksEndpointsRepositorySuite("D1", fresh);
webhooksCronRepositorySuite("D1", fresh);
