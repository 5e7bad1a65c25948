import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { securityHeaders } from "../../worker/platform/http/security-headers";
import { cspHash } from "../../worker/shared/hash";
import { SECURITY_HEADERS, SITE_CSP, sitePolicy, staticHeadersFile } from "../../worker/shared/security-headers";
import { call, postJson } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

function expectSecurityHeaders(response: Response, csp = SITE_CSP) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    expect(response.headers.get(name), name).toBe(name === "Content-Security-Policy" ? csp : value);
  }
}

describe("security headers on the worker's answers", () => {
  it.each([
    ["the health check", () => call("/api/health")],
    ["an API error", () => postJson("/api/waitlist", { ...ADULT_ANSWER, email: "" })],
    ["an unknown API route", () => call("/api/nothing")],
    ["sign-in", () => call("/auth/v1/settings")],
    ["a sign-in error", () => call("/auth/v1/user")],
  ])("%s carries every security header", async (_name, send) => {
    expectSecurityHeaders(await send());
  });

  it("a page passed on from the static assets carries the built _headers' policy, which allows its inline style and start script by hash", async () => {
    const response = await call("/");
    const csp = response.headers.get("Content-Security-Policy")!;
    const styleHash = /style-src 'self' '(sha256-[A-Za-z0-9+/]+=*)'/.exec(csp)?.[1];
    const scriptHash = /script-src 'self' '(sha256-[A-Za-z0-9+/]+=*)'/.exec(csp)?.[1];
    expect(styleHash).toBeDefined();
    expect(scriptHash).toBeDefined();
    expectSecurityHeaders(response, sitePolicy({ styles: [styleHash!], scripts: [scriptHash!] }));

    const html = await response.text();
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]!);
    const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    expect(styles).toHaveLength(1);
    expect(inlineScripts).toHaveLength(1);
    expect(await cspHash(styles[0]!)).toBe(styleHash);
    expect(await cspHash(inlineScripts[0]!)).toBe(scriptHash);
    // No script file is requested before the first paint; the start script imports the app.
    expect(html).not.toMatch(/<script[^>]*\bsrc=/);
    expect(html).not.toMatch(/\sstyle="/);
  });

  it("adds them to a response whose headers cannot be changed (as the assets binding gives)", async () => {
    const app = new Hono().use("*", securityHeaders).get("/", () => Response.redirect("https://example.com/", 302));
    const response = await app.request("/");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("https://example.com/");
    expectSecurityHeaders(response);
  });

  it("the dev mailbox keeps its own, stricter policy", async () => {
    const response = await call("/dev/mailbox");
    expect(response.headers.get("Content-Security-Policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
  });

  it("the policy allows no 'unsafe-inline' or 'unsafe-eval' script (only what _headers adds by hash), nothing from other origins, and no framing", () => {
    expect(SITE_CSP).toContain("script-src 'self'");
    expect(SITE_CSP).not.toContain("unsafe-inline");
    expect(SITE_CSP).not.toContain("unsafe-eval");
    expect(SITE_CSP).toContain("frame-ancestors 'none'");
    expect(SITE_CSP).not.toMatch(/https?:/);
  });

  it("the static files' _headers: security headers everywhere, immutable hashed assets, revalidated pages", () => {
    const file = staticHeadersFile();
    expect(file).toContain(`/*\n  Content-Security-Policy: ${SITE_CSP}\n`);
    expect(staticHeadersFile({ styles: ["sha256-abc="], scripts: ["sha256-def="] })).toContain(
      "script-src 'self' 'sha256-def='; style-src 'self' 'sha256-abc='; ",
    );
    expect(file).toContain("/assets/*\n  Cache-Control: public, max-age=31536000, immutable");
    expect(file).toContain("/\n  Cache-Control: public, max-age=0, must-revalidate");
    expect(file).toContain("/index.html\n  Cache-Control: public, max-age=0, must-revalidate");
    // Each path gets one Cache-Control rule: Cloudflare would join two into one invalid value.
    expect(file.match(/\/\*\n(?: {2}.*\n)*/)![0]).not.toContain("Cache-Control");
  });

  it("every answer asks browsers to use HTTPS only, for a year, subdomains included", async () => {
    for (const response of [
      await call("/"),
      await call("/api/health"),
      await call("/auth/v1/settings"),
      await call("/assets/missing.js"),
    ]) {
      expect(response.headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
    }
    expect(staticHeadersFile()).toContain("Strict-Transport-Security: max-age=31536000; includeSubDomains");
  });

  it("a missing /assets/* file is a 404 nobody caches, never the page under the year-long cache", async () => {
    const response = await call("/assets/index-deadbeef.js");
    expect(response.status).toBe(404);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.text()).not.toContain("<html");
  });

  it("any other path without a file goes to the home page", async () => {
    const response = await call("/some/page", { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });
});
