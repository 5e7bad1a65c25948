import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FORM_MEDIA_TYPE } from "../../worker/platform/http/body";
import { LIMITED_PAGE_TITLE } from "../../worker/platform/http/limited-page";
import { escapeHtml } from "../../worker/platform/html";
import { tooManyAttempts } from "../../worker/shared/public-forms";
import { ask, requestOf, tokenOf } from "./parents-support";
import { limitedTo, publicCounterRows, roomInWindow, rowCounts, secondsLeftInWindow } from "../support/rate-limits";
import { call, type EnvOverrides, uniqueClientIp, uniqueEmail } from "../support/worker";

/**
 * Issue 24 §1: the worker's own pages that take a press (POST /confirm, POST /parent) count it
 * against CONFIRM_LIMITER (60 a minute per client network; /parent's apart from /confirm's) on the
 * binding, before the token is read: over it, a 429 page with the real wait, nothing written.
 */

const BROWSER = { "Sec-Fetch-Site": "same-origin", Origin: "http://localhost" };

const post = (path: string, fields: Record<string, string>, ip: string, overrides: EnvOverrides) =>
  call(
    path,
    {
      method: "POST",
      headers: { "Content-Type": FORM_MEDIA_TYPE, "CF-Connecting-IP": ip, ...BROWSER },
      body: new URLSearchParams(fields).toString(),
    },
    overrides,
  );

describe("the pages' presses on CONFIRM_LIMITER", () => {
  it("a parent's answers past the limit (1 here): the 429 page with the wait, the request unanswered, nothing written", {
    timeout: 60_000,
  }, async () => {
    const parentEmail = uniqueEmail("parent-limit");
    await ask(parentEmail);
    const token = await tokenOf(await requestOf(parentEmail));
    await roomInWindow();
    const ip = uniqueClientIp();
    const limited = { CONFIRM_LIMITER: limitedTo(env.CONFIRM_LIMITER, 1) };
    // The allowance spent on a press with a token that is not one (400).
    expect((await post("/parent", { token: "not-a-token", answer: "agree" }, ip, limited)).status).toBe(400);
    const before = await rowCounts();
    const refused = await post("/parent", { token, answer: "agree" }, ip, limited);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("Retry-After"));
    expect(Math.abs(wait - secondsLeftInWindow())).toBeLessThanOrEqual(1);
    const html = await refused.text();
    expect(html).toContain(escapeHtml(LIMITED_PAGE_TITLE));
    expect(html).toContain(escapeHtml(tooManyAttempts(wait)));
    expect(await rowCounts()).toEqual(before);
    await requestOf(parentEmail);
    // /confirm counts apart: the same network's press there is not refused (a token that is not one: 400).
    expect((await post("/confirm", { token: "not-a-token" }, ip, limited)).status).toBe(400);
    // Another network answers.
    expect((await post("/parent", { token, answer: "agree" }, uniqueClientIp(), limited)).status).toBe(200);
    expect(await publicCounterRows()).toBe(0);
  });
});
