/**
 * The worker tests see the settings vitest.config.ts pins (wrangler.toml's [vars] with the tests'
 * values over them) and no other: a developer's .dev.vars (which `npm start` and `npm run dev`
 * write, and the e2e dev-loop test makes on a fresh clone), .env or shell never changes what
 * they test. test/node/pinned-worker.test.ts puts such files beside a wrangler.toml to show
 * that none of their values gets through.
 */
import { env } from "cloudflare:workers";
import { expect, inject, it } from "vitest";

/**
 * The text bindings of an env: every setting is text (a .dev.vars value always is). The plugin's
 * own (`__VITEST_POOL_WORKERS_…`) are left out.
 */
function textBindings(bindings: object): Record<string, string> {
  return Object.fromEntries(
    Object.entries(bindings).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string" && !entry[0].startsWith("__VITEST_POOL_WORKERS_"),
    ),
  );
}

it("the runtime's settings are exactly the pinned ones, whatever .dev.vars holds", () => {
  const pinned = inject("workerSettings");
  expect(Object.keys(pinned).length).toBeGreaterThan(0);
  expect(textBindings(env)).toEqual(textBindings(pinned));
});

it("the settings a developer's .dev.vars sets for `npm start` are the pinned ones here", () => {
  // `npm start` adds this line to .dev.vars; wrangler.toml leaves it empty.
  expect(env.OPERATOR_EMAILS).toBe("");
  // .dev.vars.example's settings the tests do not pin are absent, so the worker takes its defaults.
  const unpinned = env as unknown as Record<string, unknown>;
  for (const name of ["TURNSTILE_SECRET_KEY", "REFERRAL_NETWORK_FLAG", "AUTH_CODE_COOLDOWN_SECONDS", "CAMPAIGN_SEND_RATE"]) {
    expect(unpinned[name], name).toBeUndefined();
  }
});
