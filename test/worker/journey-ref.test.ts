/**
 * Issue 16: a shared link's referral code (?ref=CODE) goes into both waitlist forms' hidden
 * fields like the attribution (worker/features/pages/routes.ts): escaped, the page private and unstored
 * by shared caches; a value not of a code's shape is not written.
 */
import { describe, expect, it } from "vitest";
import { landingValues, referralCodeValue } from "../../worker/shared/waitlist";
import { call } from "../support/worker";

const FORM = (source: string) =>
  `<form action="/api/waitlist"><input type="hidden" name="source" value="${source}"><input type="hidden" name="utm_source" value=""><input type="hidden" name="ref" value=""></form>`;
const PAGE = `<!doctype html><html><head></head><body><div id="root">${FORM("hero")}${FORM("cta")}</div></body></html>`;

const assets = {
  async fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const headers = {
      "Content-Type": "text/html; charset=utf-8",
      ETag: '"built-1"',
      "Cache-Control": "public, max-age=0, must-revalidate",
    };
    if (request.headers.get("If-None-Match") === '"built-1"') return new Response(null, { status: 304, headers });
    return new Response(PAGE, { headers });
  },
};

const refs = (html: string) => [...html.matchAll(/<input type="hidden" name="ref" value="([^"]*)"/g)].map((m) => m[1]);

describe("the referral link's ref in the waitlist forms", () => {
  it("is read upper-cased when of a code's shape, and ignored otherwise", () => {
    expect(referralCodeValue(" k7m2q9xa ")).toBe("K7M2Q9XA");
    for (const bad of ["K7M2Q9X", "K7M2Q9XA1", "K7M2Q9X0", "OOOOOOOO", '"><b>', null, 42]) expect(referralCodeValue(bad)).toBeNull();
    expect(landingValues(new URL("https://site.test/?ref=k7m2q9xa"), null)).toMatchObject({ ref: "K7M2Q9XA", utm_source: null });
  });

  it("is written into both forms' hidden fields, and such a page is private with no ETag", async () => {
    const response = await call("/?ref=k7m2q9xa", {}, { ASSETS: assets, SITE_URL: "" });
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(refs(html)).toEqual(["K7M2Q9XA", "K7M2Q9XA"]);
    expect(response.headers.get("Cache-Control")).toBe("private, no-cache");
    expect(response.headers.get("ETag")).toBeNull();
  });

  it("a hostile or mis-shaped ref writes nothing, and the page stays as built (cacheable)", async () => {
    const response = await call(`/?ref=${encodeURIComponent('"><script>alert(1)</script>')}`, {}, { ASSETS: assets, SITE_URL: "" });
    const html = await response.text();
    expect(refs(html)).toEqual(["", ""]);
    expect(html).not.toContain("<script>alert");
    expect(response.headers.get("Cache-Control")).not.toContain("private");
  });
});
