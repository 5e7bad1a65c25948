// person.erased (worker/features/webhooks/queries/record-erasure.ts, in erasePerson's batch) and
// the operator's endpoint queries (queries/endpoints.ts), shared by the D1 and libSQL test files.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CONTACT_FORM } from "../../worker/shared/forms";
import type { WebhookEventType } from "../../worker/shared/webhooks";
import type { TestRepository } from "./records";
import { at, deliveries, endpoint, events, fanOut, only } from "./webhooks-repository";

/**
 * Issue 25 §1-2, on D1 in workerd and on libSQL in Node: person.erased goes only to the endpoints
 * an attempted, delivered or held delivery of the person reached (whatever events they chose,
 * enabled or not), the person's other pending deliveries are cancelled and their events redacted;
 * the operator adds, changes and removes endpoints (with their deliveries), retries dead letters
 * (one or all, only the endpoint's own), and lists each endpoint's pending and dead counts.
 */
export function webhooksEndpointsRepositorySuite(driver: string, fresh: () => Promise<TestRepository>) {
  const join = (repo: TestRepository, email: string, ms: number) =>
    repo.waitlist.join({ email, source: null, ageBand: "18_plus" }, { now: at(ms), lockMs: 60_000 });
  const erase = (repo: TestRepository, email: string, ms: number) =>
    repo.operator.erasePerson(email, { operator: "op", subjectHash: "h".repeat(64), now: at(ms) });
  /** Sets columns of the delivery of `type` about `person` to `endpointId` (as a sender would have left it). */
  async function delivery(repo: TestRepository, type: WebhookEventType, person: string, endpointId: number, set: string) {
    await repo.execute(
      sql.raw(`update hwh_webhook_deliveries set ${set} where endpoint_id = ${endpointId} and event_id =
        (select id from hwh_webhook_events where type = '${type}' and person = '${person}')`),
    );
  }

  describe(`person.erased fan-out (${driver})`, () => {
    it("goes only to endpoints an attempted or delivered delivery reached; the rest is cancelled, and the events redacted", async () => {
      const repo = await fresh();
      const attempted = await endpoint(repo, "attempted", ["waitlist.joined"]);
      const delivered = await endpoint(repo, "delivered", ["waitlist.joined"], false);
      const untried = await endpoint(repo, "untried", ["waitlist.joined"]);
      await endpoint(repo, "contacts", ["contact.received"]);
      const person = "ada@example.com";
      await join(repo, person, 0);
      await join(repo, "other@example.com", 1);
      await delivery(repo, "waitlist.joined", person, attempted, "attempts = 1, last_status = 500, last_at = created_at");
      await delivery(repo, "waitlist.joined", person, delivered, "status = 'delivered', attempts = 1");
      const joined = (await events(repo)).find((row) => row.type === "waitlist.joined" && row.person === person)!;

      await erase(repo, person, 1000);
      const erased = await only(repo, "person.erased");
      expect(erased).toMatchObject({ person, createdAt: at(1000).toISOString() });
      expect(erased.data).toEqual({ email: person, erased_at: at(1000).toISOString() });
      expect(await fanOut(repo, erased.id)).toEqual([
        { endpoint: attempted, webhookId: `msg_${erased.uid}_${attempted}`, status: "pending" },
        { endpoint: delivered, webhookId: `msg_${erased.uid}_${delivered}`, status: "pending" },
      ]);
      // The person's earlier deliveries: the pending ones cancelled (attempted or not), none naming them.
      const earlier = (await deliveries(repo)).filter((row) => row.eventId === joined.id);
      expect(earlier.map((row) => [row.endpointId, row.status, row.person])).toEqual([
        [attempted, "cancelled", null],
        [delivered, "delivered", null],
        [untried, "cancelled", null],
      ]);
      expect((await events(repo)).find((row) => row.id === joined.id)).toMatchObject({ payload: "{}", person: null });
      // The other person's event and deliveries are untouched.
      const other = (await events(repo)).find((row) => row.person === "other@example.com")!;
      expect(other.data).toMatchObject({ email: "other@example.com" });
      expect((await fanOut(repo, other.id)).map((row) => row.status)).toEqual(["pending", "pending", "pending"]);
    });

    it("cancels the person's dead letters too: a later 'retry all' sends no redacted event", async () => {
      const repo = await fresh();
      const crm = await endpoint(repo, "crm", ["waitlist.joined"]);
      await join(repo, "ada@example.com", 0);
      await delivery(
        repo,
        "waitlist.joined",
        "ada@example.com",
        crm,
        "status = 'dead', attempts = 10, last_at = '2026-01-01T00:00:00.000Z'",
      );
      await erase(repo, "ada@example.com", 1000);
      const joined = await only(repo, "waitlist.joined");
      expect((await deliveries(repo)).find((row) => row.eventId === joined.id)).toMatchObject({ status: "cancelled", person: null });
      expect(await repo.webhooks.retryEndpointDeadLetters(crm, "all", at(2000))).toBe(0);
    });

    it("a delivery a sender holds right now is cancelled (its claim kept for the run's endpoint record), its event redacted; person.erased is due at its lease end", async () => {
      const repo = await fresh();
      const held = await endpoint(repo, "held", ["waitlist.joined"]);
      await join(repo, "ada@example.com", 0);
      await delivery(repo, "waitlist.joined", "ada@example.com", held, `claim = 'c1', locked_until = '${at(60_000).toISOString()}'`);
      const joined = await only(repo, "waitlist.joined");
      await erase(repo, "ada@example.com", 1000);
      const erasedId = (await only(repo, "person.erased")).id;
      expect((await fanOut(repo, erasedId)).map((row) => row.endpoint)).toEqual([held]);
      expect((await deliveries(repo)).find((row) => row.eventId === erasedId)).toMatchObject({ nextAt: at(60_000).toISOString() });
      expect((await deliveries(repo)).find((row) => row.eventId === joined.id)).toMatchObject({
        status: "cancelled",
        claim: "c1",
        person: null,
      });
      expect(await only(repo, "waitlist.joined")).toMatchObject({ payload: "{}", person: null });
    });

    it("reached means an attempt was made (a 410 counts none), and never a Slack endpoint (it got no personal data)", async () => {
      const repo = await fresh();
      const gone = await endpoint(repo, "gone", ["waitlist.joined"]);
      const slack = await repo.webhooks.addEndpoint(
        { name: "slack", url: "https://hooks.slack.com/services/x", kind: "slack", events: ["waitlist.joined"], secret: "sealed" },
        at(0),
      );
      await join(repo, "ada@example.com", 0);
      await delivery(repo, "waitlist.joined", "ada@example.com", gone, "attempts = 0, last_status = 410, last_at = created_at");
      await delivery(repo, "waitlist.joined", "ada@example.com", slack.id, "status = 'delivered', attempts = 1, last_at = created_at");
      await erase(repo, "ada@example.com", 1000);
      const erased = await only(repo, "person.erased");
      expect((await fanOut(repo, erased.id)).map((row) => row.endpoint)).toEqual([gone]);
    });

    it("stores nothing when no endpoint was sent the person's data, and cancels and redacts what waited", async () => {
      const repo = await fresh();
      const hooks = await endpoint(repo, "hooks", ["waitlist.joined", "person.erased"]);
      await join(repo, "ada@example.com", 0);
      const joined = await only(repo, "waitlist.joined");
      await erase(repo, "ada@example.com", 1000);
      expect((await events(repo)).map((row) => row.type)).toEqual(["waitlist.joined"]);
      expect(await fanOut(repo, joined.id)).toEqual([expect.objectContaining({ endpoint: hooks, status: "cancelled" })]);
      expect((await events(repo))[0]).toMatchObject({ payload: "{}", person: null });
    });
  });

  describe(`leaving the waitlist (${driver})`, () => {
    it("is carried downstream in the leave's batch: person.erased to the endpoints reached, the rest cancelled and redacted", async () => {
      const repo = await fresh();
      const sent = await endpoint(repo, "sent", ["waitlist.joined"]);
      const untried = await endpoint(repo, "untried", ["waitlist.joined"]);
      await join(repo, "ada@example.com", 0);
      await delivery(repo, "waitlist.joined", "ada@example.com", sent, "status = 'delivered', attempts = 1, last_at = created_at");
      const joined = await only(repo, "waitlist.joined");
      expect(await repo.waitlist.leave("ada@example.com", at(1000))).toBe(true);
      const erased = await only(repo, "person.erased");
      expect(erased.data).toEqual({ email: "ada@example.com", erased_at: at(1000).toISOString() });
      expect((await fanOut(repo, erased.id)).map((row) => row.endpoint)).toEqual([sent]);
      expect((await fanOut(repo, joined.id)).map((row) => [row.endpoint, row.status])).toEqual([
        [sent, "delivered"],
        [untried, "cancelled"],
      ]);
      expect(await only(repo, "waitlist.joined")).toMatchObject({ payload: "{}", person: null });
      expect(await repo.waitlist.leave("ada@example.com", at(2000))).toBe(false);
    });
  });

  describe(`the retention sweep's webhook events (${driver})`, () => {
    it("erases several people in one batch: person.erased for each one reached, to its own endpoints; contact events redacted once nothing waits", async () => {
      const repo = await fresh();
      const first = await endpoint(repo, "first", ["waitlist.joined"]);
      const second = await endpoint(repo, "second", ["waitlist.joined"]);
      const contacts = await endpoint(repo, "contacts", ["contact.received"]);
      const people = ["p1@example.com", "p2@example.com", "p3@example.com"];
      for (const [i, email] of people.entries()) await join(repo, email, i);
      await delivery(repo, "waitlist.joined", people[0]!, first, "attempts = 1, last_at = created_at");
      await delivery(repo, "waitlist.joined", people[1]!, second, "status = 'delivered', attempts = 1");
      for (const [i, email] of ["c1@example.com", "c2@example.com"].entries()) {
        await repo.contact.insert(
          CONTACT_FORM.name,
          { name: "C", email, message: "hi" },
          { now: at(10 + i), lockMs: 60_000 },
          { slug: "contact", sender: { email, mailbox: "" } },
        );
      }
      await delivery(repo, "contact.received", "c1@example.com", contacts, "status = 'delivered', attempts = 1");
      const options = { before: at(10_000), limit: 10, day: "2026-11-02", now: at(20_000) };

      expect(await repo.retention.sweep("unconfirmed_entries", options)).toBe(3);
      const erased = (await events(repo)).filter((row) => row.type === "person.erased");
      expect(erased.map((row) => row.data)).toEqual(people.slice(0, 2).map((email) => ({ email, erased_at: at(20_000).toISOString() })));
      expect((await fanOut(repo, erased[0]!.id)).map((row) => row.endpoint)).toEqual([first]);
      expect((await fanOut(repo, erased[1]!.id)).map((row) => row.endpoint)).toEqual([second]);
      const joined = (await events(repo)).filter((row) => row.type === "waitlist.joined");
      expect(joined.map((row) => [row.payload, row.person])).toEqual(people.map(() => ["{}", null]));

      expect(await repo.retention.sweep("contact_messages", options)).toBe(2);
      const received = (await events(repo)).filter((row) => row.type === "contact.received");
      expect(received.map((row) => row.person)).toEqual([null, "c2@example.com"]);
      expect(received[1]!.data).toMatchObject({ email: "c2@example.com", message: "hi" });
    });
  });

  describe(`webhook endpoints' queries (${driver})`, () => {
    it("adds an endpoint with its events as JSON, changes it, and answers null or false for one that does not exist", async () => {
      const repo = await fresh();
      const added = await repo.webhooks.addEndpoint(
        { name: "CRM", url: "https://crm.example/hook", kind: "standard", events: ["waitlist.joined"], secret: "sealed" },
        at(0),
      );
      expect(added).toMatchObject({ name: "CRM", events: '["waitlist.joined"]', enabled: true, failureRun: 0, pausedUntil: null });
      expect(await repo.webhooks.changeEndpoint(added.id, { events: ["contact.received"], name: "Sales", enabled: false }, at(5))).toBe(
        true,
      );
      expect(await repo.webhooks.endpoint(added.id)).toMatchObject({
        name: "Sales",
        events: '["contact.received"]',
        enabled: false,
        url: "https://crm.example/hook",
        updatedAt: at(5).toISOString(),
        pending: 0,
        dead: 0,
      });
      expect(await repo.webhooks.endpoint(added.id + 1)).toBeNull();
      expect(await repo.webhooks.changeEndpoint(added.id + 1, { name: "x" }, at(6))).toBe(false);
    });

    it("lists each endpoint's pending and dead deliveries, retries dead letters (one, then all) only its own, and removes one with its deliveries", async () => {
      const repo = await fresh();
      const crm = await endpoint(repo, "crm", ["waitlist.joined"]);
      const sheet = await endpoint(repo, "sheet", ["waitlist.joined"]);
      for (const [i, email] of ["a@example.com", "b@example.com", "c@example.com"].entries()) await join(repo, email, i);
      for (const email of ["a@example.com", "b@example.com"]) {
        await delivery(repo, "waitlist.joined", email, crm, "status = 'dead', attempts = 10, claim = 'old'");
      }
      await delivery(repo, "waitlist.joined", "a@example.com", sheet, "status = 'dead', attempts = 10");
      expect((await repo.webhooks.endpoints()).map((row) => [row.id, row.pending, row.dead])).toEqual([
        [crm, 1, 2],
        [sheet, 2, 1],
      ]);
      const listed = await repo.webhooks.endpointDeliveries(crm, 2, 10);
      expect(listed.recent.map((row) => [row.person, row.eventType])).toEqual([
        ["c@example.com", "waitlist.joined"],
        ["b@example.com", "waitlist.joined"],
      ]);
      expect(listed.dead.map((row) => row.person)).toEqual(["b@example.com", "a@example.com"]);

      // One: the crm's dead letter; the sheet's and a pending one named with it are left alone.
      const mine = (await deliveries(repo)).filter((row) => row.endpointId === crm);
      const sheetDead = (await deliveries(repo)).find((row) => row.endpointId === sheet && row.status === "dead")!;
      expect(await repo.webhooks.retryEndpointDeadLetters(crm, [mine[0]!.id, mine[2]!.id, sheetDead.id], at(100))).toBe(1);
      expect((await deliveries(repo)).find((row) => row.id === mine[0]!.id)).toMatchObject({
        status: "pending",
        attempts: 0,
        nextAt: at(100).toISOString(),
        claim: null,
        lockedUntil: null,
      });
      expect((await deliveries(repo)).find((row) => row.id === sheetDead.id)!.status).toBe("dead");
      expect(await repo.webhooks.retryEndpointDeadLetters(crm, "all", at(200))).toBe(1);
      expect(await repo.webhooks.retryEndpointDeadLetters(crm, "all", at(300))).toBe(0);
      expect((await repo.webhooks.endpoint(crm))!).toMatchObject({ pending: 3, dead: 0 });

      expect(await repo.webhooks.removeEndpoint(crm)).toBe(true);
      expect(await repo.webhooks.removeEndpoint(crm)).toBe(false);
      expect((await repo.webhooks.endpoints()).map((row) => row.id)).toEqual([sheet]);
      expect(new Set((await deliveries(repo)).map((row) => row.endpointId))).toEqual(new Set([sheet]));
      expect(await deliveries(repo)).toHaveLength(3);
    });
  });
}
