// The webhooks cron's reads and tidying (worker/features/webhooks/queries/due.ts: anythingDue, tidy),
// shared by the D1 and libSQL test files. The consumer's claim and record are not here.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { TestRepository } from "./records";
import { at, deliveries, endpoint, events } from "./webhooks-repository";

/**
 * On D1 in workerd and on libSQL in Node: the cron finds a pending delivery due now only on an
 * enabled, unpaused endpoint with no live lease; its tidying forgets rotated secrets past their
 * overlap and takes the address off a person.erased event once none of its deliveries is pending.
 */
export function webhooksCronRepositorySuite(driver: string, fresh: () => Promise<TestRepository>) {
  const set = (repo: TestRepository, table: string, columns: string, id: number) =>
    repo.execute(sql.raw(`update ${table} set ${columns} where id = ${id}`));

  describe(`the webhooks cron's queries (${driver})`, () => {
    it("anythingDue: a pending delivery due now, of an enabled and unpaused endpoint, with no live lease", async () => {
      const repo = await fresh();
      const hooks = await endpoint(repo, "hooks", ["waitlist.joined"]);
      expect(await repo.webhooks.anythingDue(at(0))).toBe(false);
      await repo.waitlist.join({ email: "ada@example.com", source: null, ageBand: "18_plus" }, { now: at(0), lockMs: 60_000 });
      const [row] = await deliveries(repo);
      expect(await repo.webhooks.anythingDue(at(0))).toBe(true);
      const cases: [string, string, number, boolean][] = [
        ["hwh_webhook_deliveries", `next_at = '${at(5_000).toISOString()}'`, row!.id, false],
        ["hwh_webhook_deliveries", `next_at = '${at(0).toISOString()}', locked_until = '${at(60_000).toISOString()}'`, row!.id, false],
        ["hwh_webhook_deliveries", `locked_until = '${at(-1).toISOString()}'`, row!.id, true],
        ["hwh_webhook_endpoints", `paused_until = '${at(1_000).toISOString()}'`, hooks, false],
        ["hwh_webhook_endpoints", `paused_until = '${at(0).toISOString()}'`, hooks, true],
        ["hwh_webhook_endpoints", "enabled = 0", hooks, false],
        ["hwh_webhook_endpoints", "enabled = 1", hooks, true],
        ["hwh_webhook_deliveries", "status = 'dead'", row!.id, false],
      ];
      for (const [table, columns, id, due] of cases) {
        await set(repo, table, columns, id);
        expect(await repo.webhooks.anythingDue(at(0)), columns).toBe(due);
      }
    });

    it("tidy: forgets rotated secrets past their overlap, and redacts a person.erased once none of its deliveries is pending", async () => {
      const repo = await fresh();
      const hooks = await endpoint(repo, "hooks", ["waitlist.joined"]);
      const rotating = await endpoint(repo, "rotating", ["contact.received"]);
      await set(repo, "hwh_webhook_endpoints", `previous_secret = 'old', previous_secret_until = '${at(1_000).toISOString()}'`, hooks);
      await set(repo, "hwh_webhook_endpoints", `previous_secret = 'old', previous_secret_until = '${at(9_000).toISOString()}'`, rotating);
      for (const email of ["a@example.com", "b@example.com"]) {
        await repo.waitlist.join({ email, source: null, ageBand: "18_plus" }, { now: at(0), lockMs: 60_000 });
      }
      await repo.execute(sql`update hwh_webhook_deliveries set attempts = 1, last_at = created_at`);
      for (const email of ["a@example.com", "b@example.com"]) {
        await repo.operator.erasePerson(email, { operator: "op", subjectHash: "h".repeat(64), now: at(100) });
      }
      const erased = (await events(repo)).filter((row) => row.type === "person.erased");
      expect(erased.map((row) => row.person)).toEqual(["a@example.com", "b@example.com"]);
      const aDelivery = (await deliveries(repo)).find((row) => row.eventId === erased[0]!.id)!;
      await set(repo, "hwh_webhook_deliveries", `status = 'delivered', attempts = 1`, aDelivery.id);

      expect(await repo.webhooks.tidy(at(2_000))).toEqual({ secretsCleared: 1, erasuresRedacted: 1 });
      expect((await repo.webhooks.endpoints()).map((row) => [row.previousSecret, row.previousSecretUntil])).toEqual([
        [null, null],
        ["old", at(9_000).toISOString()],
      ]);
      const after = (await events(repo)).filter((row) => row.type === "person.erased");
      expect(after.map((row) => [row.person, row.payload === "{}"])).toEqual([
        [null, true],
        ["b@example.com", false],
      ]);
      expect((await deliveries(repo)).find((row) => row.id === aDelivery.id)!.person).toBeNull();
      expect(await repo.webhooks.tidy(at(3_000))).toEqual({ secretsCleared: 0, erasuresRedacted: 0 });
    });
  });
}
