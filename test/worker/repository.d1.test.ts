import { env } from "cloudflare:workers";
import { testRepository } from "../support/worker";
import { repositorySuite } from "../support/repository-suite";

// Each case starts from empty tables on the migrated test D1 database.
repositorySuite("D1", async () => {
  await env.DB.batch(
    ["hwh_waitlist", "hwh_form_submissions", "hwh_dev_mailbox"].map((table) => env.DB.prepare(`delete from ${table}`)),
  );
  return testRepository();
});
