/**
 * The site's pages as the worker passes them on (worker/features/pages/routes.ts): the canonical link and
 * the share preview's addresses made absolute with SITE_URL or the request's origin, Turnstile's
 * site key when it is configured, and revalidation (ETag, 304) kept working through the rewrite.
 *
 * The page is a fixed one, served by a stand-in for the assets binding, so these tests do not
 * depend on a build of web/; the last test goes through the real binding (web/dist).
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { call, type EnvOverrides } from "../support/worker";

/** A request to the worker at any address (call() always asks http://localhost). */
async function fetchAt(url: string, overrides: EnvOverrides): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(url), { ...env, ...overrides } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** What web/index.html carries (root-relative addresses), cut down to the tags that matter here. */
const PAGE = `<!doctype html><html lang="en"><head>
<title>Homework Helper: coming soon</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="canonical" href="/">
<meta property="og:url" content="/">
<meta property="og:image" content="/og-image.png">
<meta property="og:image:width" content="1200">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:image" content="/og-image.png">
<meta property="og:see_also" content="https://example.org/elsewhere">
</head><body><div id="root"></div></body></html>`;

const BUILT_ETAG = '"built-1"';

/** Stands in for the assets binding: the page above, answering If-None-Match as the real one does. */
function fakeAssets(seen: Request[] = []) {
  return {
    async fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
      const request = new Request(input, init);
      seen.push(request);
      const headers = {
        "Content-Type": "text/html; charset=utf-8",
        ETag: BUILT_ETAG,
        "Content-Security-Policy": "default-src 'self'; script-src 'self'",
      };
      if (request.headers.get("If-None-Match")?.split(/,\s*/).includes(BUILT_ETAG)) return new Response(null, { status: 304, headers });
      return new Response(PAGE, { headers });
    },
  };
}

type Page = { canonical: string; ogUrl: string; ogImage: string; twitterImage: string; html: string };

async function readPage(response: Response): Promise<Page> {
  const html = await response.text();
  const attribute = (pattern: RegExp) => pattern.exec(html)?.[1] ?? "(missing)";
  return {
    canonical: attribute(/<link rel="canonical" href="([^"]*)"/),
    ogUrl: attribute(/<meta property="og:url" content="([^"]*)"/),
    ogImage: attribute(/<meta property="og:image" content="([^"]*)"/),
    twitterImage: attribute(/<meta name="twitter:image" content="([^"]*)"/),
    html,
  };
}

const TURNSTILE = { TURNSTILE_SITE_KEY: "1x00000000000000000000AA", TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA" };

describe("pages: canonical link and share preview", () => {
  it("names SITE_URL when it is set, whatever address the page was requested at", async () => {
    const response = await call("/", {}, { ASSETS: fakeAssets(), SITE_URL: "https://homeworkhelper.app" });
    expect(response.status).toBe(200);
    const page = await readPage(response);
    expect(page).toMatchObject({
      canonical: "https://homeworkhelper.app/",
      ogUrl: "https://homeworkhelper.app/",
      ogImage: "https://homeworkhelper.app/og-image.png",
      twitterImage: "https://homeworkhelper.app/og-image.png",
    });
  });

  it("in development, names the request's origin when SITE_URL is empty", async () => {
    const response = await call("/", {}, { ASSETS: fakeAssets(), SITE_URL: "" });
    const page = await readPage(response);
    // The test requests go to http://localhost (test/support/worker.ts).
    expect(page).toMatchObject({
      canonical: "http://localhost/",
      ogUrl: "http://localhost/",
      ogImage: "http://localhost/og-image.png",
      twitterImage: "http://localhost/og-image.png",
    });
  });

  it("in production without SITE_URL, never names the host a request claims: the addresses stay as built", async () => {
    for (const path of ["/", "/?utm_source=ads"]) {
      const response = await fetchAt(`http://evil.example${path}`, { ASSETS: fakeAssets(), SITE_URL: "", ENVIRONMENT: "production" });
      expect(response.status).toBe(200);
      const page = await readPage(response);
      expect(page).toMatchObject({ canonical: "/", ogUrl: "/", ogImage: "/og-image.png", twitterImage: "/og-image.png" });
      expect(page.html).not.toContain("evil.example");
    }
    // With SITE_URL, the request's host is never named either.
    const named = await fetchAt("http://evil.example/", {
      ASSETS: fakeAssets(),
      SITE_URL: "https://homeworkhelper.app",
      ENVIRONMENT: "production",
    });
    const page = await readPage(named);
    expect(page.canonical).toBe("https://homeworkhelper.app/");
    expect(page.html).not.toContain("evil.example");
  });

  it("/index.html names the same canonical address as /", async () => {
    const response = await call("/index.html", {}, { ASSETS: fakeAssets(), SITE_URL: "https://homeworkhelper.app" });
    expect((await readPage(response)).canonical).toBe("https://homeworkhelper.app/");
  });

  it("leaves everything else as built: other tags, absolute addresses, no Turnstile without its keys", async () => {
    const page = await readPage(await call("/", {}, { ASSETS: fakeAssets(), SITE_URL: "https://homeworkhelper.app" }));
    expect(page.html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    expect(page.html).toContain('<meta property="og:image:width" content="1200">');
    expect(page.html).toContain('<meta property="og:see_also" content="https://example.org/elsewhere">');
    expect(page.html).not.toContain("turnstile-site-key");
  });

  it("with Turnstile, adds its site key and its origin to the policy in the same pass", async () => {
    const response = await call("/", {}, { ASSETS: fakeAssets(), SITE_URL: "https://homeworkhelper.app", ...TURNSTILE });
    expect(response.headers.get("Content-Security-Policy")).toContain("frame-src https://challenges.cloudflare.com");
    const page = await readPage(response);
    expect(page.html).toContain('<meta name="turnstile-site-key" content="1x00000000000000000000AA">');
    expect(page.canonical).toBe("https://homeworkhelper.app/");
  });
});

describe("pages: revalidation", () => {
  it("tags the built file's ETag with what the worker put in, and answers its own ETag with a 304", async () => {
    const env = { ASSETS: fakeAssets(), SITE_URL: "https://homeworkhelper.app" };
    const first = await call("/", {}, env);
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"built-1-[0-9a-f]{12}"$/);

    const seen: Request[] = [];
    const again = await call("/", { headers: { "If-None-Match": etag } }, { ...env, ASSETS: fakeAssets(seen) });
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(etag);
    expect(await again.text()).toBe("");
    // The assets were asked with their own validator.
    expect(seen[0]!.headers.get("If-None-Match")).toBe(BUILT_ETAG);
  });

  it("sends the page again when what the worker puts in has changed (another SITE_URL, Turnstile turned on)", async () => {
    const before = await call("/", {}, { ASSETS: fakeAssets(), SITE_URL: "https://old.example" });
    const etag = before.headers.get("ETag")!;

    for (const env of [{ SITE_URL: "https://homeworkhelper.app" }, { SITE_URL: "https://old.example", ...TURNSTILE }]) {
      const seen: Request[] = [];
      const response = await call("/", { headers: { "If-None-Match": etag } }, { ASSETS: fakeAssets(seen), ...env });
      expect(response.status).toBe(200);
      expect(response.headers.get("ETag")).not.toBe(etag);
      expect(seen[0]!.headers.has("If-None-Match")).toBe(false);
    }
  });

  it("a 304 with Turnstile carries the policy that admits it (it replaces the stored page's headers)", async () => {
    const env = { ASSETS: fakeAssets(), SITE_URL: "https://homeworkhelper.app", ...TURNSTILE };
    const etag = (await call("/", {}, env)).headers.get("ETag")!;
    const again = await call("/", { headers: { "If-None-Match": etag } }, env);
    expect(again.status).toBe(304);
    expect(again.headers.get("Content-Security-Policy")).toContain("frame-src https://challenges.cloudflare.com");
  });

  it("works with the real assets binding: the built page revalidates to a 304", async () => {
    const first = await call("/");
    expect(first.status).toBe(200);
    const etag = first.headers.get("ETag");
    expect(etag).toBeTruthy();
    await first.text();
    const again = await call("/", { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(etag);
  });
});
