// Issue 23 §2: the parent's page, /parent (worker/features/parents/routes.ts): opening it changes
// nothing; "yes" makes the on-behalf entry (confirmed, consent time, no referral code) and deletes
// the request, counted; "no" deletes it at once, counted; an expired, tampered or unknown link gets
// its own page and changes nothing. Worker-rendered, no script, the site's security headers.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDeps } from "../../worker/deps";
import { parentalStats } from "../../worker/features/parents";
import { parentToken } from "../../worker/features/parents/token";
import { parentalRequests } from "../../worker/platform/db/schema";
import { FOR_PARENTS_PATH } from "../../worker/shared/for-parents";
import { uniqueEmail } from "../support/worker";
import { ask, DAY, open, outcomeCount, press, repo, requestOf, requestsOf, tokenOf } from "./parents-support";

/** A stored request and its link's token. */
async function asked(tag: string, more: Parameters<typeof ask>[1] = {}) {
  const parent = uniqueEmail(tag);
  await ask(parent, more);
  const request = await requestOf(parent);
  return { parent, request, token: await tokenOf(request) };
}

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#39;", "'")
    .replaceAll("&quot;", '"')
    .replace(/\s+/g, " ");

describe("GET /parent?token=…", () => {
  it("shows the notice and the two answers as forms; opening it (twice) changes nothing", async () => {
    const { parent, request, token } = await asked("open");
    const [agreed, declined] = [await outcomeCount("agreed"), await outcomeCount("declined")];
    for (let i = 0; i < 2; i++) {
      const response = await open(token);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(response.headers.get("cache-control")).toContain("no-store");
      expect(response.headers.get("content-security-policy")).toContain("script-src");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      const html = await response.text();
      expect(html).not.toContain("<script");
      const text = textOf(html);
      expect(text).toContain("A child asked to join our waitlist");
      expect(text).toContain("We never keep your child's e-mail address.");
      expect(text).toContain("We never pass it on to anyone.");
      expect(text).toContain("If you don't answer within 7 days");
      expect(html).toContain(`href="${FOR_PARENTS_PATH}"`);
      expect(html).toContain('href="/#/me"');
      const forms = [...html.matchAll(/<form class="[^"]*" method="post" action="\/parent">([\s\S]*?)<\/form>/g)].map((m) => m[1]!);
      expect(forms).toHaveLength(2);
      expect(forms[0]).toContain('name="answer" value="agree"');
      expect(forms[0]).toContain("Yes, add us to the waitlist");
      expect(forms[1]).toContain('name="answer" value="decline"');
      expect(forms[1]).toContain("No, delete this request");
      for (const form of forms) expect(form).toContain(`name="token" value="${token}"`);
    }
    expect(await requestsOf(parent)).toEqual([request]);
    expect(await repo.findWaitlistEntry(parent)).toBeUndefined();
    expect([await outcomeCount("agreed"), await outcomeCount("declined")]).toEqual([agreed, declined]);
  });
});

describe("POST /parent: the answers", () => {
  it("yes: an entry for the parent's address, confirmed, on behalf of a child, with the consent time, band and country, no referral code; the request deleted, counted once", async () => {
    const { parent, token } = await asked("agree", { band: "13_15", country: "DE" });
    const agreed = await outcomeCount("agreed");
    const before = Date.now();
    const response = await press(token, "agree");
    expect(response.status).toBe(200);
    const text = textOf(await response.text());
    expect(text).toContain("Done: you're on the waitlist");
    expect(text).toMatch(/Your family is #\d+ in line\./);
    expect(text).toContain('sign in with your e-mail address on "My place"');

    const entry = (await repo.findWaitlistEntry(parent))!;
    expect(entry).toMatchObject({ onBehalfOfChild: true, ageBand: "13_15", country: "DE", referralCode: null, referredBy: null });
    expect(entry.confirmedAt).not.toBeNull();
    expect(new Date(entry.parentalConsentAt!).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await requestsOf(parent)).toEqual([]);
    expect(await outcomeCount("agreed")).toBe(agreed + 1);

    // Pressed again: the request is no longer open, nothing more is counted.
    const again = await press(token, "agree");
    expect(again.status).toBe(404);
    expect(textOf(await again.text())).toContain("This request is no longer open");
    expect(await outcomeCount("agreed")).toBe(agreed + 1);
  });

  it("no: the request deleted at once, counted, no entry", async () => {
    const { parent, token } = await asked("decline");
    const declined = await outcomeCount("declined");
    const response = await press(token, "decline");
    expect(response.status).toBe(200);
    expect(textOf(await response.text())).toContain("We've deleted the request and your e-mail address.");
    expect(await requestsOf(parent)).toEqual([]);
    expect(await repo.findWaitlistEntry(parent)).toBeUndefined();
    expect(await outcomeCount("declined")).toBe(declined + 1);
    expect((await press(token, "decline")).status).toBe(404);
    expect(await outcomeCount("declined")).toBe(declined + 1);
  });

  it("an answer that is neither, or a press from another site, changes nothing", async () => {
    const { parent, request, token } = await asked("odd-answer");
    expect((await press(token, "maybe")).status).toBe(400);
    const crossSite = await press(token, "agree", { "Sec-Fetch-Site": "cross-site", Origin: "https://elsewhere.example" });
    expect(crossSite.status).toBe(403);
    expect(await requestsOf(parent)).toEqual([request]);
    expect(await repo.findWaitlistEntry(parent)).toBeUndefined();
  });
});

describe("links that cannot be used: their own pages, nothing changes", () => {
  it("expired (410): past the 7 days, even while the request is still stored", async () => {
    const parent = uniqueEmail("expired");
    await ask(parent, { now: () => new Date(Date.now() - 8 * DAY) });
    const request = await requestOf(parent);
    const token = await parentToken(createDeps(env), request);
    for (const response of [await open(token), await press(token, "agree"), await press(token, "decline")]) {
      expect(response.status).toBe(410);
      expect(textOf(await response.text())).toContain("This link has expired");
    }
    expect(await requestsOf(parent)).toEqual([request]);
    expect(await repo.findWaitlistEntry(parent)).toBeUndefined();
  });

  it("tampered (400): a changed id, expiry, nonce or signature, or no token at all", async () => {
    const { parent, request, token } = await asked("tampered");
    const [id, expires, nonce, signature] = token.split(".") as [string, string, string, string];
    const flip = (s: string) => (s.endsWith("A") ? `${s.slice(0, -1)}B` : `${s.slice(0, -1)}A`);
    const changed = [
      [String(Number(id) + 1), expires, nonce, signature],
      [id, String(Number(expires) + 86_400), nonce, signature],
      [id, expires, flip(nonce), signature],
      [id, expires, nonce, flip(signature)],
    ].map((parts) => parts.join("."));
    for (const bad of [...changed, "", "nonsense"]) {
      const response = await open(bad);
      expect(response.status, bad).toBe(400);
      expect(textOf(await response.text())).toContain("This link doesn't work");
      expect((await press(bad, "agree")).status).toBe(400);
    }
    expect(await requestsOf(parent)).toEqual([request]);
    expect(await repo.findWaitlistEntry(parent)).toBeUndefined();
  });

  it("unknown (404): a request deleted (answered, expired) or never stored", async () => {
    const { parent, request, token } = await asked("unknown");
    await env.DB.prepare("delete from hwh_parental_requests where id = ?").bind(request.id).run();
    const response = await open(token);
    expect(response.status).toBe(404);
    expect(textOf(await response.text())).toContain("This request is no longer open");
    // Another request under the same id with another nonce does not answer to the link.
    await repo.seed(parentalRequests, [{ ...request, nonce: "N".repeat(22) }]);
    expect((await open(token)).status).toBe(404);
    expect((await press(token, "agree")).status).toBe(404);
    expect(await repo.findWaitlistEntry(parent)).toBeUndefined();
  });
});

describe("the console's figures (parentalStats)", () => {
  it("counts the requests waiting, and the answers today and over the last 30 days", async () => {
    const before = await parentalStats(createDeps(env));
    const [yes, no] = [await asked("stats-yes"), await asked("stats-no")];
    await asked("stats-waiting");
    expect((await parentalStats(createDeps(env))).pending).toBe(before.pending + 3);
    expect((await press(yes.token, "agree")).status).toBe(200);
    expect((await press(no.token, "decline")).status).toBe(200);
    expect(await parentalStats(createDeps(env))).toEqual({
      pending: before.pending + 1,
      today: { agreed: before.today.agreed + 1, declined: before.today.declined + 1 },
      lastDays: { agreed: before.lastDays.agreed + 1, declined: before.lastDays.declined + 1 },
    });
  });
});
