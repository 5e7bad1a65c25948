/**
 * Issue 24, pages from the edge (worker/features/pages): the home page kept in the location's cache
 * (the Cache API, PAGE_CACHE_SECONDS) per variant, a visit with utm_* or ref rewritten from the
 * cached copy and never stored, the claims and the confirmed count (rounded down, from
 * CLAIM_STUDENTS_THRESHOLD on, read once per PAGE_CACHE_SECONDS) written into the page.
 *
 * The other worker tests run with the cache off (vitest.config.ts); these turn it on. The files
 * share one runtime and its cache, so each test asks at a host of its own (the keys are under the
 * request's origin), and counts what the assets binding was asked.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { FORM_NOTES, readClaims } from "../../worker/shared/claims";
import { brokenDatabase, type EnvOverrides } from "../support/worker";

let hosts = 0;
/** A host no other test asked at (so no other test's cached page or count). */
function freshOrigin(): string {
  hosts += 1;
  return `http://edge-${hosts}-${crypto.randomUUID().slice(0, 8)}.test`;
}

async function visit(url: string, overrides: EnvOverrides, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(url, init), { ...env, ...overrides } as Env, ctx);
  const body = init.method === "HEAD" ? "" : await response.text();
  // The cache is filled after the answer (waitUntil): wait for it, as the next visitor would.
  await waitOnExecutionContext(ctx);
  return new Response(response.status === 304 || init.method === "HEAD" ? null : body, {
    status: response.status,
    headers: response.headers,
  });
}

/** The built page's claim-bearing parts as web/ marks them (data-claim), and the forms' hidden fields. */
const PAGE = `<!doctype html><html lang="en"><head><title>Homework Helper</title></head><body><div id="root">
<p class="hero__intro" data-claim="heroIntro">Snap a photo or type any question and get a clear, step-by-step explanation in under 30s, so you understand the answer, not just copy it.</p>
<form action="/api/waitlist"><input type="hidden" name="source" value="hero"><input type="hidden" name="utm_source" value=""><input type="hidden" name="ref" value=""><p class="waitlist__note" data-claim="formNote">${FORM_NOTES.withCount}</p></form>
<ul><li class="badge" data-claim="launchBadge">Launching Q3 2025</li></ul>
<dl class="stats"><div class="stats__item"><dt>Accuracy rate</dt><dd data-claim="accuracyStat">99%</dd></div><div class="stats__item" data-claim="studentsLine"><dt>Students waiting</dt><dd data-claim="studentsStat">1,000+</dd></div></dl>
<p data-claim="ctaIntro">Join 1,000+ students waiting for launch in Q3 2025. Free for students, no subscriptions.</p>
</div></body></html>`;

/** Stands in for the assets binding: `page` with `etag`, answering If-None-Match; every request it gets is kept in `seen`. */
function fakeAssets(seen: Request[], build: { page: string; etag: string } = { page: PAGE, etag: '"built-1"' }) {
  return {
    async fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
      const request = new Request(input, init);
      seen.push(request);
      const headers = {
        "Content-Type": "text/html; charset=utf-8",
        ETag: build.etag,
        "Cache-Control": "public, max-age=0, must-revalidate",
        "Content-Security-Policy": "default-src 'self'; script-src 'self'",
        "X-Content-Type-Options": "nosniff",
      };
      if (request.headers.get("If-None-Match") === build.etag) return new Response(null, { status: 304, headers });
      return new Response(request.method === "HEAD" ? null : build.page, { headers });
    },
  };
}

const CACHED = { PAGE_CACHE_SECONDS: "60" };
const TURNSTILE = { TURNSTILE_SITE_KEY: "1x00000000000000000000AA", TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA" };

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
const claimText = (html: string, key: string) => new RegExp(`data-claim="${key}">([^<]*)<`).exec(html)?.[1];
const metaClaims = (html: string) =>
  readClaims(
    /<meta name="hh-claims" content="([^"]*)"/
      .exec(html)?.[1]
      ?.replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&"),
  );

/** `confirmed` confirmed entries and `pending` unconfirmed ones, straight into the table. */
async function addEntries(confirmed: number, pending = 0): Promise<void> {
  const start = (await env.DB.prepare("select coalesce(max(id), 0) as n from hwh_waitlist").first<{ n: number }>())!.n;
  const insert = (count: number, isConfirmed: boolean, offset: number) =>
    env.DB.prepare(
      `insert into hwh_waitlist (email, created_at, updated_at, confirmed_at, confirm_seq, rank_key)
       with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       select 'count-' || (? + i) || '@example.com', '2026-12-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z',
              ${isConfirmed ? "'2026-12-01T00:00:00.000Z', ? + i, ? + i" : "null, null, null"} from n`,
    )
      .bind(count, offset, ...(isConfirmed ? [offset, offset] : []))
      .run();
  if (confirmed > 0) await insert(confirmed, true, start);
  if (pending > 0) await insert(pending, false, start + confirmed);
}

describe("pages from the edge: the cache", () => {
  it("serves the second plain visit from the cache: one asset fetch for three visits, the same page and ETag", async () => {
    const origin = freshOrigin();
    const seen: Request[] = [];
    const overrides = { ...CACHED, ASSETS: fakeAssets(seen) };
    const first = await visit(`${origin}/`, overrides);
    const second = await visit(`${origin}/`, overrides);
    // Any query string but utm_* and ref is the same page.
    const third = await visit(`${origin}/?x=1`, overrides);
    expect(seen).toHaveLength(1);
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    const html = await first.text();
    expect(await second.text()).toBe(html);
    expect(await third.text()).toBe(html);
    expect(second.headers.get("ETag")).toBe(first.headers.get("ETag"));
    expect(second.headers.get("ETag")).toMatch(/^"built-1-[0-9a-f]{12}"$/);
    // The page's own headers, not the cache's lifetime: browsers revalidate every visit.
    for (const response of [first, second]) {
      expect(response.headers.get("Cache-Control")).toBe("public, max-age=0, must-revalidate");
      expect(response.headers.get("Content-Security-Policy")).toBe("default-src 'self'; script-src 'self'");
      expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(response.headers.has("X-Page-Cache-Control")).toBe(false);
    }
  });

  it("answers the cached page's ETag with a 304 and no asset fetch; another ETag gets the page", async () => {
    const origin = freshOrigin();
    const seen: Request[] = [];
    const overrides = { ...CACHED, ASSETS: fakeAssets(seen) };
    const etag = (await visit(`${origin}/`, overrides)).headers.get("ETag")!;
    const revalidated = await visit(`${origin}/`, overrides, { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("ETag")).toBe(etag);
    expect(await revalidated.text()).toBe("");
    const stale = await visit(`${origin}/`, overrides, { headers: { "If-None-Match": '"built-0-000000000000"' } });
    expect(stale.status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it("a HEAD first stores the whole page, never an empty one", async () => {
    const origin = freshOrigin();
    const seen: Request[] = [];
    const overrides = { ...CACHED, ASSETS: fakeAssets(seen) };
    const head = await visit(`${origin}/`, overrides, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(seen.map((request) => request.method)).toEqual(["GET"]);
    const page = await visit(`${origin}/`, overrides);
    expect(await page.text()).toContain('data-claim="heroIntro"');
    expect(seen).toHaveLength(1);
  });

  it("a visit with ?utm_source=x gets its own values (private, no ETag) from the cached copy, which stays clean", async () => {
    const origin = freshOrigin();
    const seen: Request[] = [];
    const overrides = { ...CACHED, ASSETS: fakeAssets(seen) };
    // The first visit of all is a campaign's: it fills the cache with the plain page.
    const campaign = await visit(`${origin}/?utm_source=x`, overrides);
    expect(hidden(await campaign.text(), "utm_source")).toBe("x");
    expect(campaign.headers.get("Cache-Control")).toBe("private, no-cache");
    expect(campaign.headers.has("ETag")).toBe(false);

    const plain = await visit(`${origin}/`, overrides);
    const plainHtml = await plain.text();
    expect(hidden(plainHtml, "utm_source")).toBe("");
    expect(plain.headers.get("ETag")).toMatch(/^"built-1-/);

    const shared = await visit(`${origin}/?ref=k7m2q9xa&utm_source=y`, overrides, {
      headers: { "If-None-Match": plain.headers.get("ETag")! },
    });
    expect(shared.status).toBe(200);
    const sharedHtml = await shared.text();
    expect([hidden(sharedHtml, "utm_source"), hidden(sharedHtml, "ref")]).toEqual(["y", "K7M2Q9XA"]);
    expect(shared.headers.get("Cache-Control")).toBe("private, no-cache");

    const again = await visit(`${origin}/`, overrides);
    expect(await again.text()).toBe(plainHtml);
    expect(seen).toHaveLength(1);
  });

  it("keeps variants apart: Turnstile on or off, another origin, another count each get a page of their own", async () => {
    const origin = freshOrigin();
    const seen: Request[] = [];
    const assets = fakeAssets(seen);
    const off = await visit(`${origin}/`, { ...CACHED, ASSETS: assets });
    const on = await visit(`${origin}/`, { ...CACHED, ...TURNSTILE, ASSETS: assets });
    expect(seen).toHaveLength(2);
    expect(await off.text()).not.toContain('name="turnstile-site-key"');
    const onHtml = await on.text();
    expect(onHtml).toMatch(/<meta name="[^"]+" content="1x00000000000000000000AA">/);
    expect(on.headers.get("Content-Security-Policy")).toContain("https://challenges.cloudflare.com");
    expect(on.headers.get("ETag")).not.toBe(off.headers.get("ETag"));
    // Each again from the cache, each its own.
    expect(await (await visit(`${origin}/`, { ...CACHED, ASSETS: assets })).text()).not.toContain("1x00000000000000000000AA");
    expect(await (await visit(`${origin}/`, { ...CACHED, ...TURNSTILE, ASSETS: assets })).text()).toContain("1x00000000000000000000AA");
    expect(seen).toHaveLength(2);
    // A threshold the (empty) list passes: another claim line, another page.
    const shown = await visit(`${origin}/`, { ...CACHED, CLAIM_STUDENTS_THRESHOLD: "0", ASSETS: assets });
    expect(claimText(await shown.text(), "studentsStat")).toBe("0+");
    expect(seen).toHaveLength(3);
    await visit(`${freshOrigin()}/`, { ...CACHED, ASSETS: assets });
    expect(seen).toHaveLength(4);
  });

  it("keeps a page PAGE_CACHE_SECONDS: a new build is served once its copy expires", async () => {
    const seen: Request[] = [];
    const build = { page: PAGE, etag: '"built-1"' };
    const shortLived = { PAGE_CACHE_SECONDS: "1" };
    const otherOrigin = freshOrigin();
    // (A second here; 60 by default: the copy's Cache-Control, next test.)
    await visit(`${otherOrigin}/`, { ...shortLived, ASSETS: fakeAssets(seen, build) });
    const newBuild = { page: PAGE.replace("Homework Helper</title>", "Homework Helper 2</title>"), etag: '"built-2"' };
    const shadowed = await visit(`${otherOrigin}/`, { ...shortLived, ASSETS: fakeAssets(seen, newBuild) });
    expect(shadowed.headers.get("ETag")).toMatch(/^"built-1-/);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const fresh = await visit(`${otherOrigin}/`, { ...shortLived, ASSETS: fakeAssets(seen, newBuild) });
    expect(fresh.headers.get("ETag")).toMatch(/^"built-2-/);
    expect(await fresh.text()).toContain("Homework Helper 2</title>");
  });

  it("stores the copy with the cache's lifetime and the page's own Cache-Control beside it", async () => {
    const origin = freshOrigin();
    const seen: Request[] = [];
    await visit(`${origin}/`, { ...CACHED, ASSETS: fakeAssets(seen) });
    const stored = await findStored(origin);
    expect(stored?.headers.get("Cache-Control")).toBe("public, max-age=60");
    expect(stored?.headers.get("X-Page-Cache-Control")).toBe("public, max-age=0, must-revalidate");
  });
});

/** The copy stored for `origin`'s home page, found by asking the worker's key for the variant the page named. */
async function findStored(origin: string): Promise<Response | undefined> {
  const { pageCacheKey } = await import("../../worker/features/pages/routes");
  const page = await visit(`${origin}/`, { ...CACHED, ASSETS: fakeAssets([]) });
  const variant = /-([0-9a-f]{12})"$/.exec(page.headers.get("ETag") ?? "")?.[1] ?? "";
  return caches.default.match(pageCacheKey(new URL(`${origin}/`), variant));
}

describe("pages from the edge: the claims and the live count", () => {
  it("below the threshold (an empty list, 1000 by default) leaves the count out, and the note says no 'thousands'", async () => {
    const response = await visit(`${freshOrigin()}/`, { ...CACHED, ASSETS: fakeAssets([]) });
    const html = await response.text();
    expect(html).not.toContain('data-claim="studentsLine"');
    expect(html).not.toContain("Students waiting");
    expect(claimText(html, "formNote")).toBe("Join students already on our waitlist. No spam, ever.");
    expect(claimText(html, "ctaIntro")).toBe("Be among the first when we launch in Q3 2025. Free for students, no subscriptions.");
    expect(claimText(html, "launchBadge")).toBe("Launching Q3 2025");
    expect(metaClaims(html)).toEqual({ launch: "Q3 2025", accuracyRate: "99%", responseTime: "under 30s", studentsWaiting: null });
  });

  it("from the threshold on states the confirmed count rounded down (1,234 -> 1,200+), pending entries not counted", async () => {
    await addEntries(1234, 50);
    const html = await (await visit(`${freshOrigin()}/`, { ...CACHED, ASSETS: fakeAssets([]) })).text();
    expect(claimText(html, "studentsStat")).toBe("1,200+");
    expect(html).toContain("<dt>Students waiting</dt>");
    expect(claimText(html, "ctaIntro")).toBe("Join 1,200+ students waiting for launch in Q3 2025. Free for students, no subscriptions.");
    expect(claimText(html, "formNote")).toBe("Join thousands of students already on our waitlist. No spam, ever.");
    expect(metaClaims(html)?.studentsWaiting).toBe("1,200+");
  });

  it("reads the count once per PAGE_CACHE_SECONDS per location: entries added since do not change the page until then", async () => {
    const origin = freshOrigin();
    const overrides = { ...CACHED, CLAIM_STUDENTS_THRESHOLD: "1", ASSETS: fakeAssets([]) };
    const before = claimText(await (await visit(`${origin}/`, overrides)).text(), "studentsStat");
    await addEntries(100);
    // Another variant (Turnstile on) is a new page, but the count is the location's, kept: not read again.
    const later = await visit(`${origin}/`, { ...overrides, ...TURNSTILE });
    expect(claimText(await later.text(), "studentsStat")).toBe(before);
    // With the cache off the count is read per visit.
    const live = await visit(`${origin}/`, { ...overrides, PAGE_CACHE_SECONDS: "0" });
    expect(claimText(await live.text(), "studentsStat")).not.toBe(before);
  });

  it("writes the claims as set: CLAIM_LAUNCH, CLAIM_ACCURACY, CLAIM_RESPONSE_TIME, a lower threshold", async () => {
    const html = await (
      await visit(`${freshOrigin()}/`, {
        ...CACHED,
        CLAIM_LAUNCH: "spring 2027",
        CLAIM_ACCURACY: "97%",
        CLAIM_RESPONSE_TIME: "under 10s",
        CLAIM_STUDENTS_THRESHOLD: "5",
        ASSETS: fakeAssets([]),
      })
    ).text();
    expect(claimText(html, "launchBadge")).toBe("Launching spring 2027");
    expect(claimText(html, "accuracyStat")).toBe("97%");
    expect(claimText(html, "heroIntro")).toContain("step-by-step explanation in under 10s, so you");
    expect(claimText(html, "studentsStat")).toMatch(/^[\d,]+\+$/);
    expect(claimText(html, "ctaIntro")).toMatch(/^Join [\d,]+\+ students waiting for launch in spring 2027\./);
  });

  it("a database that cannot answer leaves the count out and the page is served", async () => {
    const response = await visit(`${freshOrigin()}/`, {
      ...CACHED,
      CLAIM_STUDENTS_THRESHOLD: "0",
      DB: brokenDatabase(),
      ASSETS: fakeAssets([]),
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).not.toContain("Students waiting");
    expect(claimText(html, "formNote")).toBe(FORM_NOTES.withoutCount);
  });

  it("writes the built page's claims (web/dist through the real assets binding)", async () => {
    const origin = freshOrigin();
    // The list (entries of the tests above) is below this threshold.
    const html = await (
      await visit(`${origin}/`, { ...CACHED, CLAIM_LAUNCH: "spring 2027", CLAIM_STUDENTS_THRESHOLD: "100000000" })
    ).text();
    expect(html).toContain('<meta name="hh-claims"');
    expect(html).toContain("Launching spring 2027");
    expect(html).not.toContain("Launching Q3 2025");
    expect(html).not.toContain("thousands of students");
    expect(html).not.toContain("Students waiting");
    expect(html.match(/Join students already on our waitlist\. No spam, ever\./g)).toHaveLength(2);
    const shown = await (await visit(`${origin}/`, { ...CACHED, CLAIM_STUDENTS_THRESHOLD: "1" })).text();
    expect(shown).toMatch(/<dd data-claim="studentsStat">[\d,]+\+<\/dd>/);
    expect(shown.match(/Join thousands of students already on our waitlist\. No spam, ever\./g)).toHaveLength(2);
  });
});
