import { env } from "cloudflare:workers";
import { ageRepositorySuite } from "../support/age-repository-suite";
import { testRepository } from "../support/worker";

// Each case starts from an empty waitlist on the migrated test D1 database (the libSQL run: test/node/repository.libsql.test.ts).
async function fresh() {
  await env.DB.batch(["hwh_joiner_mail", "hwh_referral_credits", "hwh_waitlist"].map((table) => env.DB.prepare(`delete from ${table}`)));
  return testRepository();
}

ageRepositorySuite("D1", fresh);
