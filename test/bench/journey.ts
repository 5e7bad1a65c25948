/**
 * The joiner's journey benchmark (issue 16): a local database seeded with BENCH_ENTRIES confirmed
 * waitlist entries (default 100,000; about three in ten joined through a referral, so referrers
 * have moved up and rank keys tie and interleave as they do on a real list), then, under
 * `wrangler dev`, one call after another:
 *
 * - reading a place: GET /api/me for a signed-in joiner in the middle of the list (signed in with
 *   the e-mail code from the dev mailbox), the route behind "My place";
 * - confirming: POST /confirm with a fresh token for each of BENCH_CONFIRMS pending entries (a
 *   third of them referred, so the referrer's count moves too), the page's button press. The
 *   tokens are made here as the worker makes them (worker/features/waitlist/keys.ts: HMAC-SHA-256 with
 *   the server secret, purpose "waitlist-confirm"), with the secret this script gives the server.
 *
 * Target: both medians under 50 ms. Each figure is the whole HTTP round trip through wrangler's
 * dev proxy, the page or JSON included. It also prints SQLite's plan for the two place counts
 * (they must search hwh_waitlist_rank_idx, never scan the table).
 *
 * Nothing leaves the machine. The figures are for local workerd and SQLite-backed D1 on this
 * machine, not production D1. Options (env): BENCH_ENTRIES (default 100000), BENCH_CALLS reads
 * (default 200), BENCH_CONFIRMS (default 200).
 */
import { createHmac, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { latestMailId, readCode } from "../e2e/support.ts";
import { ROOT, run, startDevServer } from "../support/dev-server.ts";
import { executeSql, querySql } from "./local-d1.ts";
import { positiveInteger } from "./options.ts";
import { describeLatency, timeCalls, type Latency } from "./timing.ts";

const ENTRIES = positiveInteger("BENCH_ENTRIES", 100_000);
const READS = positiveInteger("BENCH_CALLS", 200);
const CONFIRMS = positiveInteger("BENCH_CONFIRMS", 200);
const TARGET_MS = 50;
/** The server's secret: the script signs confirmation tokens with it, as the worker does. */
const SECRET = randomBytes(32).toString("hex");
/** The referral boost the seeded rank keys are written with (the server runs with the same). */
const BOOST = 5;
/** The referral code alphabet (worker/features/referrals/code.ts): no 0, O, 1, I or L. */
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/**
 * Entry i's referral code: the 8 base-31 digits of i x 1000003 (a prime: distinct i, distinct
 * codes, and neighbours' codes look unrelated), in the code alphabet.
 */
const codeOf = (i: string) =>
  Array.from({ length: 8 }, (_, k) => `substr('${ALPHABET}', ((${i}) * 1000003 / ${31 ** k}) % 31 + 1, 1)`).join(" || ");

/**
 * Who referred entry i (an SQL expression on i, null for most): three in ten were referred, two
 * of them by any earlier joiner, one by one of the first thousand (early joiners share most).
 * The earlier joiner is picked by a multiplicative hash of i (Knuth's), spread evenly.
 */
const referrerOf = (i: string) => {
  const hash = `((${i} * 2654435761) % 4294967296)`;
  return `case
    when ${i} > 1 and ${i} % 10 < 2 then 1 + ${hash} % (${i} - 1)
    when ${i} > 1 and ${i} % 10 = 2 then 1 + ${hash} % min(${i} - 1, 1000)
  end`;
};

/**
 * Confirmed entries 1..count (confirm_seq = id, confirmed a minute apart, oldest first), each
 * with its code and referrer; then every referrer's confirmed referrals counted and its rank key
 * written as the worker writes it (worker/features/referrals/queries.ts RANK_KEY: 2 x confirm_seq, or
 * 2 x (confirm_seq - boost x referrals) - 1 once referred), and each counted referral's credit
 * (hwh_referral_credits: referrer's code, friend's mailbox). Then `pending` unconfirmed
 * entries after them, a third referred, for the confirmations.
 */
function seedSql(count: number, pending: number): string {
  const time = (seconds: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (${seconds}) || ' seconds')`;
  // Joined an hour before confirming; confirmed a minute apart, the newest a minute ago.
  const confirmed = `(${count} - i + 1) * 60`;
  const joined = `${confirmed} + 3600`;
  return `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
insert into hwh_waitlist (id, email, source, email_sent, email_sent_at, notify_attempts, created_at, updated_at,
  confirmed_at, confirm_seq, referral_code, referred_by, rank_key, mailbox_key)
select i, 'student-' || i || '@school' || (i % 40) || '.example', 'hero', 1, ${time(joined)}, 1,
  ${time(joined)}, ${time(confirmed)}, ${time(confirmed)},
  i, ${codeOf("i")}, (select ${codeOf("r.x")} from (select ${referrerOf("i")} as x) r where r.x is not null),
  2 * i, 'seed-' || i
from n;
update hwh_waitlist set referrals_confirmed = (select count(*) from hwh_waitlist j where j.referred_by = hwh_waitlist.referral_code and j.confirmed_at is not null)
where confirmed_at is not null;
update hwh_waitlist set rank_key = case when referrals_confirmed = 0 then 2 * confirm_seq
  else 2 * (confirm_seq - ${BOOST} * referrals_confirmed) - 1 end where confirmed_at is not null;
insert into hwh_referral_credits (referral_code, mailbox_key, created_at)
select referred_by, mailbox_key, confirmed_at from hwh_waitlist where referred_by is not null and confirmed_at is not null;
with recursive n(i) as (select ${count + 1} union all select i + 1 from n where i < ${count + pending})
insert into hwh_waitlist (id, email, source, notify_attempts, email_sent, created_at, updated_at, referred_by, mailbox_key)
select i, 'pending-' || i || '@school' || (i % 40) || '.example', 'cta', 1, 1,
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  case when i % 3 = 0 then ${codeOf("(1 + (i * 7919) % 5000)")} end, ''
from n;`;
}

/** A confirmation token for an entry, as worker/features/waitlist/keys.ts signConfirmation makes it. */
function confirmationToken(entryId: number, expiresUnix: number): string {
  const payload = `${entryId}.${expiresUnix}`;
  return `${payload}.${createHmac("sha256", SECRET).update(`waitlist-confirm\u0000${payload}`).digest("base64url")}`;
}

/** Signs `email` in with the e-mail code from the dev mailbox; its access token. */
async function signIn(baseUrl: string, email: string): Promise<string> {
  const mark = await latestMailId(baseUrl);
  const asked = await fetch(`${baseUrl}/auth/v1/otp`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email }),
  });
  if (!asked.ok) throw new Error(`POST /auth/v1/otp answered ${asked.status}: ${await asked.text()}`);
  const token = await readCode(baseUrl, email, { after: mark });
  const verified = await fetch(`${baseUrl}/auth/v1/verify`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, token, type: "email" }),
  });
  const session = (await verified.json()) as { access_token?: string };
  if (!verified.ok || !session.access_token) throw new Error(`POST /auth/v1/verify answered ${verified.status}.`);
  return session.access_token;
}

type Plan = { detail: string };

/** SQLite's plan for the two counts of a place (worker/features/waitlist/queries/journey.ts placeOf), for the entry in the middle. */
async function placePlans(persistDir: string, middle: number): Promise<string[]> {
  const key = `(select rank_key from hwh_waitlist where id = ${middle})`;
  const counts = [
    `select count(*) from hwh_waitlist where confirmed_at is not null and rank_key < ${key}`,
    `select count(*) from hwh_waitlist where confirmed_at is not null and rank_key = ${key} and confirm_seq < ${middle}`,
  ];
  const plans: string[] = [];
  for (const sql of counts) {
    const rows = await querySql<Plan>(persistDir, `explain query plan ${sql}`);
    plans.push(rows.map((row) => row.detail).join("; "));
  }
  return plans;
}

const verdict = (name: string, latency: Latency) =>
  `  ${latency.median < TARGET_MS ? "PASS" : "FAIL"}  ${name}: median ${latency.median.toFixed(1)} ms < ${TARGET_MS} ms`;

async function main(): Promise<void> {
  if (!existsSync(path.join(ROOT, "web/dist/index.html"))) await run("npm", ["run", "build"]);
  let persist = "";
  console.log(`Seeding ${ENTRIES.toLocaleString("en")} confirmed entries and ${CONFIRMS} pending ones, then starting wrangler dev…`);
  const seedStarted = performance.now();
  const server = await startDevServer({
    tempPrefix: "bench-journey-",
    // Every request comes from 127.0.0.1: one client to the public routes' rate-limit bindings.
    raisedRateLimits: 1_000_000,
    vars: {
      ENVIRONMENT: "development",
      MAIL_PROVIDER_TOKEN: "",
      AUTH_JWT_SECRET: SECRET,
      REFERRAL_BOOST: String(BOOST),
    },
    beforeStart: async (persistDir, logFile) => {
      persist = persistDir;
      await executeSql(persistDir, logFile, seedSql(ENTRIES, CONFIRMS));
    },
  });
  try {
    console.log(`  seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s (with the server's start)`);
    const [shape] = await querySql<{ confirmed: number; referred: number; referrers: number; top: number }>(
      persist,
      `select count(*) filter (where confirmed_at is not null) as confirmed, count(*) filter (where referred_by is not null and confirmed_at is not null) as referred,
        count(*) filter (where referrals_confirmed > 0) as referrers, max(referrals_confirmed) as top from hwh_waitlist`,
    );

    // Reading a place: the joiner in the middle of the confirmation order, signed in; then the
    // last one (the counts walk the index up to the entry's key, so the end of the line is the most work).
    const readPlace = async (id: number) => {
      const accessToken = await signIn(server.baseUrl, `student-${id}@school${id % 40}.example`);
      let place = 0;
      const readOnce = async () => {
        const response = await fetch(`${server.baseUrl}/api/me`, { headers: { Authorization: `Bearer ${accessToken}` } });
        const me = (await response.json()) as { status?: string; position?: number };
        if (response.status !== 200 || me.status !== "confirmed" || !me.position) {
          throw new Error(`GET /api/me answered ${response.status}: ${JSON.stringify(me)}`);
        }
        place = me.position;
      };
      for (let i = 0; i < 5; i += 1) await readOnce(); // Warm up (workerd compiles, SQLite caches pages).
      return { latency: await timeCalls(READS, readOnce), place };
    };
    const middle = Math.ceil(ENTRIES / 2);
    const { latency: reads, place } = await readPlace(middle);
    const { latency: lastReads, place: lastPlace } = await readPlace(ENTRIES);
    // The floor on this machine as it is now: a route that only pings the database.
    const health = await timeCalls(READS, async () => {
      const response = await fetch(`${server.baseUrl}/api/health`);
      const body = await response.text();
      if (response.status !== 200) throw new Error(`GET /api/health answered ${response.status}: ${body}`);
    });

    // Confirming: each pending entry once, with its own fresh token, as the page's button posts it.
    const expires = Math.floor(Date.now() / 1000) + 86_400;
    const confirms = await timeCalls(CONFIRMS, async (index) => {
      const response = await fetch(`${server.baseUrl}/confirm`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.baseUrl, "Sec-Fetch-Site": "same-origin" },
        body: new URLSearchParams({ token: confirmationToken(ENTRIES + 1 + index, expires) }),
      });
      const page = await response.text();
      if (response.status !== 200 || !/You(?:'|&#39;|&#x27;)re #[\d,]+ in line/.test(page)) {
        throw new Error(`POST /confirm answered ${response.status} without a place: ${page.slice(0, 300)}`);
      }
    });
    const [after] = await querySql<{ confirmed: number; counted: number }>(
      persist,
      `select count(*) filter (where confirmed_at is not null) as confirmed, sum(referrals_confirmed) as counted from hwh_waitlist`,
    );
    const plans = await placePlans(persist, middle);

    console.log("");
    console.log("The joiner's journey on local wrangler dev (workerd + SQLite-backed D1)");
    console.log(
      `  list: ${shape!.confirmed.toLocaleString("en")} confirmed entries, ${shape!.referred.toLocaleString("en")} of them referred; ` +
        `${shape!.referrers.toLocaleString("en")} referrers (the most: ${shape!.top} confirmed referrals), boost ${BOOST}`,
    );
    console.log(`  GET /api/health (the floor: one database ping): ${describeLatency(health)}`);
    console.log(`  GET /api/me (signed in, #${place.toLocaleString("en")} in line): ${describeLatency(reads)}`);
    console.log(`  GET /api/me (signed in, #${lastPlace.toLocaleString("en")} in line, the end): ${describeLatency(lastReads)}`);
    console.log(`  POST /confirm (a fresh token each, a third referred): ${describeLatency(confirms)}`);
    console.log(
      `  after the confirmations: ${after!.confirmed.toLocaleString("en")} confirmed, ${after!.counted.toLocaleString("en")} referrals counted`,
    );
    console.log("  the place's two counts (EXPLAIN QUERY PLAN):");
    for (const plan of plans) console.log(`    ${plan}`);
    console.log("");
    console.log("Targets");
    console.log(verdict("reading a place (GET /api/me)", reads));
    console.log(verdict("confirming (POST /confirm)", confirms));
    const indexed = plans.every(
      (plan) => /USING (COVERING )?INDEX hwh_waitlist_rank_idx/.test(plan) && !/\bSCAN hwh_waitlist\b(?! USING)/.test(plan),
    );
    console.log(`  ${indexed ? "PASS" : "FAIL"}  both place counts search hwh_waitlist_rank_idx`);
  } finally {
    await server.stop();
  }
}

await main();
