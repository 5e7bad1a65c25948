/**
 * Issue 10, attribution: the landing page's utm_source / utm_medium / utm_campaign and the
 * linking page's host go into the waitlist forms' hidden fields (worker/features/pages/routes.ts), are
 * sent with the join (JSON and no-JS paths), validated and length-capped, and stored with the entry.
 */
import { describe, expect, it } from "vitest";
import { ATTRIBUTION_MAX_LENGTH, campaignValue, hostValue, landingAttribution, storedCampaignValue } from "../../worker/shared/waitlist";
import { FORM_MEDIA_TYPE } from "../../worker/platform/http/body";
import { call, postJson, testRepository, uniqueEmail } from "../support/worker";
import { ADULT_ANSWER, ADULT_FORM } from "../support/age";

const repo = testRepository();

/** Hidden fields as the built page has them (a form per placement), and nothing else that matters here. */
const PAGE = `<!doctype html><html><head><link rel="canonical" href="/"></head><body><div id="root">
<form action="/api/waitlist"><input type="hidden" name="source" value="hero"><input type="hidden" name="utm_source" value=""><input type="hidden" name="utm_medium" value=""><input type="hidden" name="utm_campaign" value=""><input type="hidden" name="referrer_host" value=""></form>
<form action="/api/waitlist"><input type="hidden" name="source" value="cta"><input type="hidden" name="utm_source" value=""><input type="hidden" name="utm_medium" value=""><input type="hidden" name="utm_campaign" value=""><input type="hidden" name="referrer_host" value=""></form>
<input name="utm_source" value="outside any form">
</div></body></html>`;

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

const hiddenValues = (html: string, name: string) =>
  [...html.matchAll(new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`, "g"))].map((m) => m[1]);

describe("the landing page's attribution", () => {
  it("reads the campaign parameters from the address and the host from a Referer of another site", () => {
    const page = new URL("https://homeworkhelper.app/?utm_source=Newsletter&utm_medium=email&utm_campaign=launch%20week&x=1");
    expect(landingAttribution(page, "https://www.Google.com/search?q=homework")).toEqual({
      utm_source: "Newsletter",
      utm_medium: "email",
      utm_campaign: "launch week",
      referrer_host: "www.google.com",
    });
    expect(landingAttribution(page, "https://homeworkhelper.app/#/login").referrer_host).toBeNull();
    expect(landingAttribution(new URL("https://homeworkhelper.app/"), null)).toEqual({
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      referrer_host: null,
    });
    expect(landingAttribution(page, "not a url").referrer_host).toBeNull();
    expect(landingAttribution(page, "android-app://com.google.android.gm/").referrer_host).toBeNull();
  });

  it("cuts a campaign value to its maximum, drops control characters, and turns nothing into null", () => {
    expect(campaignValue("x".repeat(500))).toHaveLength(ATTRIBUTION_MAX_LENGTH);
    expect(campaignValue("a\u0000b\nc\u200bd")).toBe("abcd");
    expect(campaignValue("   ")).toBeNull();
    expect(hostValue("News.Example.")).toBe("news.example");
    expect(hostValue("evil.example/path")).toBeNull();
    expect(hostValue("-bad.example")).toBeNull();
  });

  it("is written into both waitlist forms' hidden fields, escaped, and such a page is private with no ETag", async () => {
    const hostile = '"><script>alert(1)</script>';
    const response = await call(
      `/?utm_source=${encodeURIComponent(hostile)}&utm_campaign=spring`,
      { headers: { Referer: "https://news.example/story" } },
      { ASSETS: assets, SITE_URL: "" },
    );
    const html = await response.text();
    expect(response.status).toBe(200);
    // The quote is escaped, so the whole value stays inside the attribute (where < and > are only text).
    expect(hiddenValues(html, "utm_source")).toEqual(["&quot;><script>alert(1)</script>", "&quot;><script>alert(1)</script>"]);
    expect(hiddenValues(html, "utm_campaign")).toEqual(["spring", "spring"]);
    expect(hiddenValues(html, "utm_medium")).toEqual(["", ""]);
    expect(hiddenValues(html, "referrer_host")).toEqual(["news.example", "news.example"]);
    expect(html).toContain('<input name="utm_source" value="outside any form">');
    expect(response.headers.get("Cache-Control")).toBe("private, no-cache");
    expect(response.headers.get("ETag")).toBeNull();
  });

  it("keeps entities and quotes as they were in the address, from the hidden field to what is stored", async () => {
    const medium = "a&amp;b";
    const campaign = '"q"&lt;x&#38;';
    const response = await call(
      `/?utm_medium=${encodeURIComponent(medium)}&utm_campaign=${encodeURIComponent(campaign)}`,
      {},
      { ASSETS: assets, SITE_URL: "" },
    );
    const html = await response.text();
    // What a browser reads from the attribute (its character references decoded).
    const decode = (text: string) =>
      text.replace(/&(amp|quot|lt|gt|#\d+);/g, (_match, name: string) =>
        name.startsWith("#") ? String.fromCodePoint(Number(name.slice(1))) : { amp: "&", quot: '"', lt: "<", gt: ">" }[name]!,
      );
    expect(hiddenValues(html, "utm_medium").map((value) => decode(value!))).toEqual([medium, medium]);
    expect(hiddenValues(html, "utm_campaign").map((value) => decode(value!))).toEqual([campaign, campaign]);

    // The form posted without JavaScript sends what the browser read; that is what is stored.
    const email = uniqueEmail("entities");
    const body = new URLSearchParams({
      ...ADULT_FORM,
      email,
      source: "hero",
      website: "",
      utm_source: "",
      utm_medium: decode(hiddenValues(html, "utm_medium")[0]!),
    });
    body.set("utm_campaign", decode(hiddenValues(html, "utm_campaign")[0]!));
    body.set("referrer_host", "");
    const joined = await call("/api/waitlist", {
      method: "POST",
      headers: { "Content-Type": FORM_MEDIA_TYPE, "Sec-Fetch-Site": "same-origin", Origin: "http://localhost" },
      body: body.toString(),
    });
    expect(joined.status).toBe(201);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ utmMedium: medium, utmCampaign: campaign });
  });

  it("a page with attribution is always sent whole, even to a browser holding the plain page", async () => {
    const plain = await call("/", {}, { ASSETS: assets, SITE_URL: "" });
    const etag = plain.headers.get("ETag")!;
    expect(etag).toBeTruthy();
    const response = await call("/?utm_source=ads", { headers: { "If-None-Match": etag } }, { ASSETS: assets, SITE_URL: "" });
    expect(response.status).toBe(200);
    expect(hiddenValues(await response.text(), "utm_source")).toEqual(["ads", "ads"]);
  });

  it("leaves the page as built (cacheable, with its ETag) for a visit without attribution", async () => {
    const response = await call("/", { headers: { Referer: "http://localhost/#/privacy-policy" } }, { ASSETS: assets, SITE_URL: "" });
    expect(hiddenValues(await response.text(), "utm_source")).toEqual(["", ""]);
    expect(response.headers.get("ETag")).toBeTruthy();
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=0, must-revalidate");
  });
});

describe("a join with attribution", () => {
  it("stores what the JSON join sends, cleaned and cut, with the entry", async () => {
    const email = uniqueEmail("attributed");
    const response = await postJson("/api/waitlist", {
      ...ADULT_ANSWER,
      email,
      source: "hero",
      utm_source: "  newsletter ",
      utm_medium: "x".repeat(300),
      utm_campaign: "",
      referrer_host: "News.Example",
    });
    expect(response.status).toBe(201);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({
      utmSource: "newsletter",
      utmMedium: "x".repeat(ATTRIBUTION_MAX_LENGTH),
      utmCampaign: null,
      referrerHost: "news.example",
    });
  });

  it("stores campaign values lower-cased (issue 15: one campaign, whatever case its links were typed in)", async () => {
    const email = uniqueEmail("attributed-case");
    const response = await postJson("/api/waitlist", {
      ...ADULT_ANSWER,
      email,
      utm_source: "TikTok",
      utm_medium: "Social",
      utm_campaign: "Launch1",
      referrer_host: "WWW.TikTok.com",
    });
    expect(response.status).toBe(201);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({
      utmSource: "tiktok",
      utmMedium: "social",
      utmCampaign: "launch1",
      referrerHost: "www.tiktok.com",
    });
    // Lower-cased before the cut: "İ" becomes two code points, and the stored value still fits.
    expect(storedCampaignValue("İ".repeat(ATTRIBUTION_MAX_LENGTH))).toHaveLength(ATTRIBUTION_MAX_LENGTH);
    expect(storedCampaignValue("  ÉTÉ Spring ")).toBe("été spring");
    // The hidden fields keep the address's spelling: the schema lower-cases on the way in.
    expect(campaignValue("TikTok")).toBe("TikTok");
  });

  it("stores what a form posted without JavaScript sends", async () => {
    const email = uniqueEmail("attributed-form");
    const body = new URLSearchParams({
      ...ADULT_FORM,
      email,
      source: "cta",
      website: "",
      utm_source: "tiktok",
      utm_medium: "",
      utm_campaign: "bio",
      referrer_host: "www.tiktok.com",
    });
    const response = await call("/api/waitlist", {
      method: "POST",
      headers: { "Content-Type": FORM_MEDIA_TYPE, "Sec-Fetch-Site": "same-origin", Origin: "http://localhost" },
      body: body.toString(),
    });
    expect(response.status).toBe(201);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({
      source: "cta",
      utmSource: "tiktok",
      utmMedium: null,
      utmCampaign: "bio",
      referrerHost: "www.tiktok.com",
    });
  });

  it("refuses a referrer_host that is no host name, and attribution that is not text, with 400 and nothing stored", async () => {
    for (const extra of [{ referrer_host: "https://evil.example/path" }, { utm_source: 42 }, { utm_campaign: ["a"] }]) {
      const email = uniqueEmail("bad-attribution");
      const response = await postJson("/api/waitlist", { ...ADULT_ANSWER, email, ...extra });
      expect(response.status, JSON.stringify(extra)).toBe(400);
      const body = (await response.json()) as { error: { fields: Record<string, string> } };
      expect(Object.keys(body.error.fields)).toEqual(Object.keys(extra));
      expect(await repo.findWaitlistEntry(email)).toBeUndefined();
    }
  });

  it("keeps the first visit's attribution when an undelivered entry joins again without any", async () => {
    const email = uniqueEmail("rejoin");
    await repo.waitlist.join({ email, source: "hero", utm_source: "first" }, { now: new Date(), lockMs: 0 });
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email, source: "cta" })).status).toBe(201);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ source: "hero", utmSource: "first" });
  });
});
