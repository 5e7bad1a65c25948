// Issue 23 §2 and §4: a request no parent answers is deleted by the cron 7 days after it was made
// (the retention schedule's kind "parental_requests", RETENTION_PARENTAL_REQUEST_DAYS), counted for
// the console; a newer one, and everything else, stays.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import type { AdminStats } from "../../worker/shared/admin";
import { ADMIN_KEY } from "../support/auth";
import { call, uniqueEmail } from "../support/worker";
import { ask, DAY, requestsOf } from "./parents-support";

async function runCron(): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const todays = async () => {
  const day = new Date().toISOString().slice(0, 10);
  const row = await env.DB.prepare("select count from hwh_retention_deletions where day = ? and kind = 'parental_requests'")
    .bind(day)
    .first<{ count: number }>();
  return row?.count ?? 0;
};

describe("the cron's expiry of parental requests", () => {
  it("deletes a request nobody answered once 7 days have passed since it was made, counts it, keeps a newer one", async () => {
    const [old, newer] = [uniqueEmail("eight-days"), uniqueEmail("six-days")];
    await ask(old, { now: () => new Date(Date.now() - 7 * DAY - 60_000) });
    await ask(newer, { now: () => new Date(Date.now() - 6 * DAY) });
    const before = await todays();
    await runCron();
    expect(await requestsOf(old)).toEqual([]);
    expect(await requestsOf(newer)).toHaveLength(1);
    expect(await todays()).toBe(before + 1);
    // A second run has nothing more to delete.
    await runCron();
    expect(await todays()).toBe(before + 1);

    const response = await call("/api/admin/stats", { headers: { Authorization: `Bearer ${ADMIN_KEY}` } });
    const { retention } = (await response.json()) as AdminStats;
    expect(retention.schedule.parental_requests).toBe(7);
    expect(retention.today.parental_requests).toBe(before + 1);
  });
});
