import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_readConfig } from "wrangler";
import { describe, expect, it } from "vitest";
import { FLOOD_LIMITERS } from "../../worker/platform/limits";
import { rateLimitsOf, withRaisedRateLimits } from "../support/rate-limit-config";

/**
 * Issue 24 §1: the public routes' flood limits are wrangler.toml's [[ratelimits]] bindings. The
 * worker names them and knows each one's period (FLOOD_LIMITERS: the binding answers only
 * {success}, and a 429's Retry-After needs the period); the class rule is in their limits.
 */
const WRANGLER_TOML = fileURLToPath(new URL("../../wrangler.toml", import.meta.url));
const toml = readFileSync(WRANGLER_TOML, "utf8");

type Declared = { name: string; namespace_id: string; simple: { limit: number; period: number } };
const declaredIn = (config: string) => unstable_readConfig({ config }).ratelimits as Declared[];

describe("the rate-limit bindings", () => {
  it("wrangler.toml declares exactly the bindings the worker uses, each with the period the worker computes waits with", () => {
    const declared = declaredIn(WRANGLER_TOML);
    expect(declared.map((entry) => [entry.name, entry.simple.period]).sort()).toEqual(Object.entries(FLOOD_LIMITERS).sort());
    expect(new Set(declared.map((entry) => entry.namespace_id)).size).toBe(declared.length);
  });

  it("holds the class rule and the spec's limits: 60 joins a minute per network (a class of 40 fits), 5 posts of a form, /api/me 20 per user and 150 per network, 60 confirmations, the operator API 150 per network", () => {
    const limits = Object.fromEntries(rateLimitsOf(toml).map((entry) => [entry.name, [entry.limit, entry.period]]));
    expect(limits).toEqual({
      WAITLIST_LIMITER: [60, 60],
      FORMS_LIMITER: [5, 60],
      ME_CLIENT_LIMITER: [150, 60],
      ME_USER_LIMITER: [20, 60],
      CONFIRM_LIMITER: [60, 60],
      OPERATOR_LIMITER: [150, 60],
    });
  });

  it("the e2e and benchmark servers' copy (test/support/dev-server.ts raisedRateLimits) raises every limit and changes nothing else", () => {
    const raised = withRaisedRateLimits(toml, 100_000);
    expect(rateLimitsOf(raised).map(({ name, limit, period }) => [name, limit, period])).toEqual(
      rateLimitsOf(toml).map(({ name, period }) => [name, 100_000, period]),
    );
    expect(raised.replace(/limit = \d+/g, "")).toEqual(toml.replace(/limit = \d+/g, ""));
    // wrangler reads the copy as it reads the original, but for the limits.
    const dir = mkdtempSync(path.join(os.tmpdir(), "raised-limits-"));
    try {
      const copy = path.join(dir, "wrangler.toml");
      writeFileSync(copy, raised);
      const read = declaredIn(copy);
      expect(read.map((entry) => entry.simple.limit)).toEqual(read.map(() => 100_000));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(() =>
      withRaisedRateLimits(`${toml}\n[[ratelimits]]\nname = "X"\nnamespace_id = "9"\nsimple = { period = 60, limit = 3 }\n`, 1),
    ).toThrow(/7 \[\[ratelimits\]\] entries but 6/);
  });
});
