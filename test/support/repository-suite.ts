import { describe, expect, it } from "vitest";
import type { Notified } from "../../worker/repository";
import type { FormSubmission, WaitlistEntry } from "../../worker/platform/db/schema";
import type { TestRepository } from "./records";

/**
 * The repository's behaviour, run once against D1 inside workerd and once against libSQL in
 * Node. `fresh()` must give a repository on an empty, migrated database.
 */
export function repositorySuite(driver: string, fresh: () => Promise<TestRepository>) {
  const t0 = new Date("2026-03-01T10:00:00.000Z");
  const at = (ms: number) => new Date(t0.getTime() + ms);
  const LOCK_MS = 60_000;
  const first = (ms = 0) => ({ now: at(ms), lockMs: LOCK_MS });
  const due = (ms: number, limit = 10) => ({ now: at(ms), lockMs: LOCK_MS, limit });
  const w = (record: WaitlistEntry): Notified => ({ kind: "waitlist", record });
  const f = (record: FormSubmission): Notified => ({ kind: "form", record });

  async function join(repo: TestRepository, email: string, ms = 0, source: string | null = null) {
    const result = await repo.waitlist.join({ email, source }, first(ms));
    if (result.outcome !== "joined") throw new Error(`${email} was a duplicate`);
    return result;
  }
  const failed = (entry: WaitlistEntry, retryAtMs: number, repo: TestRepository) =>
    repo.notifications.markFailed([{ item: w(entry), error: "HTTP 500", nextAttemptAt: at(retryAtMs) }]);

  describe(`repository on ${driver}`, () => {
    it("joins a new e-mail and claims its first notification in the same write", async () => {
      const repo = await fresh();
      const { entry, claimed } = await join(repo, "a@example.com", 0, "hero");
      expect(claimed).toBe(true);
      expect(entry).toMatchObject({
        email: "a@example.com",
        source: "hero",
        emailSent: false,
        emailSentAt: null,
        notifyAttempts: 1,
        notifyLockedUntil: at(LOCK_MS).toISOString(),
        createdAt: t0.toISOString(),
        updatedAt: t0.toISOString(),
      });
      expect(entry.notifyClaim).toMatch(/^[0-9a-f-]{36}$/);
    });

    it("reports a duplicate only once the notification was sent, and leaves that entry untouched", async () => {
      const repo = await fresh();
      const { entry } = await join(repo, "b@example.com");
      const again = await join(repo, "b@example.com", 1000, "cta");
      expect(again.entry).toMatchObject({ id: entry.id, source: "cta", updatedAt: at(1000).toISOString() });

      await repo.notifications.markSent([w(entry)], at(2000));
      const sent = await repo.findWaitlistEntry("b@example.com");
      expect(sent).toMatchObject({
        emailSent: true,
        emailSentAt: at(2000).toISOString(),
        updatedAt: at(2000).toISOString(),
        notifyClaim: null,
        notifyLockedUntil: null,
      });
      expect(await repo.waitlist.join({ email: "b@example.com", source: "x" }, first(3000))).toEqual({ outcome: "duplicate" });
      expect(await repo.findWaitlistEntry("b@example.com")).toEqual(sent);
    });

    it("a re-join fills in only the attribution the entry lacks; what it has is kept", async () => {
      const repo = await fresh();
      await repo.waitlist.join({ email: "first@example.com", source: "hero", utm_source: "newsletter" }, first());
      const again = await repo.waitlist.join(
        {
          email: "first@example.com",
          source: "cta",
          utm_source: "attacker",
          utm_medium: "email",
          utm_campaign: "spring",
          referrer_host: "evil.example",
        },
        first(1000),
      );
      const kept = { source: "hero", utmSource: "newsletter", utmMedium: "email", utmCampaign: "spring", referrerHost: "evil.example" };
      expect(again).toMatchObject({ outcome: "joined", entry: kept });
      await repo.waitlist.join(
        { email: "first@example.com", source: null, utm_campaign: "summer", referrer_host: "other.example" },
        first(2000),
      );
      expect(await repo.findWaitlistEntry("first@example.com")).toMatchObject(kept);
    });

    it("a re-join while the notification is being sent does not claim it again", async () => {
      const repo = await fresh();
      const { entry } = await join(repo, "busy@example.com");
      const again = await join(repo, "busy@example.com", 1000);
      expect(again.claimed).toBe(false);
      expect(again.entry).toMatchObject({ notifyAttempts: 1, notifyClaim: entry.notifyClaim, notifyLockedUntil: entry.notifyLockedUntil });
    });

    it("a re-join of an undelivered entry clears its backoff, claims it and starts its attempts over", async () => {
      const repo = await fresh();
      const { entry } = await join(repo, "c@example.com");
      await failed(entry, 300_000, repo);
      for (const ms of [300_000, 900_000]) {
        const [claimed] = await repo.notifications.claimDue("waitlist", due(ms));
        expect(claimed).toBeDefined();
        await failed(claimed!, ms === 300_000 ? 900_000 : 20_000_000, repo);
      }
      const waiting = (await repo.findWaitlistEntry("c@example.com"))!;
      expect(waiting).toMatchObject({ notifyAttempts: 3, notifyNextAttemptAt: at(20_000_000).toISOString(), notifyLastError: "HTTP 500" });
      expect(await repo.notifications.claimDue("waitlist", due(10_000_000))).toEqual([]);

      const again = await join(repo, "c@example.com", 10_000_000);
      expect(again.claimed).toBe(true);
      expect(again.entry).toMatchObject({ notifyAttempts: 1, notifyNextAttemptAt: null, createdAt: t0.toISOString() });
    });

    it("concurrent joins of one e-mail leave exactly one row, claimed by exactly one caller", async () => {
      const repo = await fresh();
      const results = await Promise.all(Array.from({ length: 20 }, () => join(repo, "same@example.com")));
      expect(new Set(results.map((r) => r.entry.id)).size).toBe(1);
      expect(results.filter((r) => r.claimed)).toHaveLength(1);
      expect((await repo.listWaitlist()).filter((e) => e.email === "same@example.com")).toHaveLength(1);
    });

    it("lists the waitlist newest first", async () => {
      const repo = await fresh();
      await join(repo, "first@example.com", 0);
      await join(repo, "second@example.com", 1000);
      await join(repo, "third@example.com", 2000);
      expect((await repo.listWaitlist()).map((e) => e.email)).toEqual(["third@example.com", "second@example.com", "first@example.com"]);
    });

    it("stores form submissions with their data as JSON, their notification claimed", async () => {
      const repo = await fresh();
      const data = { name: "Ada", email: "ada@example.com", message: "Line\nbreak ✓", nested: { a: [1, 2] } };
      const saved = (await repo.contact.insert("Contact Form", data, first())).submission;
      expect(saved).toMatchObject({
        formName: "Contact Form",
        formData: data,
        emailSent: false,
        notifyAttempts: 1,
        notifyLockedUntil: at(LOCK_MS).toISOString(),
        createdAt: t0.toISOString(),
      });
      expect(await repo.findFormSubmission(saved.id)).toEqual(saved);
    });

    it("lets exactly one of several concurrent senders claim a due notification, until its lease lapses", async () => {
      const repo = await fresh();
      const saved = (await repo.contact.insert("Contact Form", { name: "x" }, first())).submission;
      expect(await repo.notifications.claimDue("form", due(LOCK_MS - 1))).toEqual([]); // the inserter's lease
      const claims = await Promise.all(Array.from({ length: 5 }, () => repo.notifications.claimDue("form", due(LOCK_MS))));
      expect(claims.flat()).toHaveLength(1);
      expect(claims.flat()[0]).toMatchObject({ id: saved.id, notifyAttempts: 2 });
      expect(await repo.notifications.claimDue("form", due(2 * LOCK_MS - 1))).toEqual([]);
      expect(await repo.notifications.claimDue("form", due(2 * LOCK_MS))).toMatchObject([{ notifyAttempts: 3 }]);
    });

    it("respects the backoff time and never claims a delivered notification", async () => {
      const repo = await fresh();
      const saved = (await repo.contact.insert("Contact Form", { name: "x" }, first())).submission;
      await repo.notifications.markFailed([{ item: f(saved), error: "HTTP 500", nextAttemptAt: at(300_000) }]);
      expect(await repo.findFormSubmission(saved.id)).toMatchObject({
        notifyLastError: "HTTP 500",
        notifyNextAttemptAt: at(300_000).toISOString(),
        notifyLockedUntil: null,
        notifyClaim: null,
      });
      expect(await repo.notifications.claimDue("form", due(299_999))).toEqual([]);
      expect(await repo.notifications.claimDue("form", due(300_000))).toHaveLength(1);
      await repo.notifications.markSent([f(saved)], at(301_000));
      expect(await repo.findFormSubmission(saved.id)).toMatchObject({
        emailSent: true,
        emailSentAt: at(301_000).toISOString(),
        notifyLastError: null,
        notifyLockedUntil: null,
      });
      expect(await repo.notifications.claimDue("form", due(10_000_000))).toEqual([]);
    });

    it("ignores a failure reported by a sender whose claim was taken over", async () => {
      const repo = await fresh();
      const { entry: stale } = await join(repo, "slow@example.com");
      const [current] = await repo.notifications.claimDue("waitlist", due(LOCK_MS));
      expect(current!.notifyClaim).not.toBe(stale.notifyClaim);
      await repo.notifications.markSent([w(current!)], at(LOCK_MS + 1));
      await failed(stale, 999_999, repo);
      expect(await repo.findWaitlistEntry("slow@example.com")).toMatchObject({
        emailSent: true,
        notifyLastError: null,
        notifyNextAttemptAt: null,
      });
    });

    it("ignores a failure reported by a taken-over claim while the record is unsent: the new holder's claim stands", async () => {
      const repo = await fresh();
      const { entry: stale } = await join(repo, "taken@example.com");
      const [current] = await repo.notifications.claimDue("waitlist", due(LOCK_MS));
      expect(current!.notifyClaim).not.toBe(stale.notifyClaim);
      await failed(stale, 999_999, repo);
      expect(await repo.findWaitlistEntry("taken@example.com")).toMatchObject({
        emailSent: false,
        notifyClaim: current!.notifyClaim,
        notifyLockedUntil: at(2 * LOCK_MS).toISOString(),
        notifyLastError: null,
        notifyNextAttemptAt: null,
      });
      // Its holder can still report: the failure is recorded and the claim given up.
      await failed(current!, 999_999, repo);
      expect(await repo.findWaitlistEntry("taken@example.com")).toMatchObject({
        notifyClaim: null,
        notifyLastError: "HTTP 500",
        notifyNextAttemptAt: at(999_999).toISOString(),
      });
    });

    it("claims due notifications in a batch, oldest first, up to the limit", async () => {
      const repo = await fresh();
      const entries: WaitlistEntry[] = [];
      for (let n = 0; n < 4; n += 1) entries.push((await join(repo, `due${n}@example.com`, n)).entry);
      await repo.notifications.markSent([w(entries[1]!)], at(10));
      const batch = await repo.notifications.claimDue("waitlist", due(LOCK_MS + 10, 2));
      expect(batch.map((e) => e.email)).toEqual(["due0@example.com", "due2@example.com"]);
      const rest = await repo.notifications.claimDue("waitlist", due(LOCK_MS + 10));
      expect(rest.map((e) => e.email)).toEqual(["due3@example.com"]);
      expect(await repo.notifications.claimDue("waitlist", due(LOCK_MS + 10))).toEqual([]);
      expect(await repo.notifications.claimDue("form", due(LOCK_MS + 10))).toEqual([]);
    });

    it("keeps the dev mailbox copy in the same write as the sent flag, listed newest first", async () => {
      const repo = await fresh();
      const one = (await join(repo, "one@example.com")).entry;
      const two = (await repo.contact.insert("Contact Form", { name: "x" }, first())).submission;
      await repo.notifications.markSent([w(one)], at(1), { receivers: ["a@example.com"], title: "one", bodyHtml: "<p>1</p>" });
      await repo.notifications.markSent([f(two)], at(2), {
        receivers: ["a@example.com", "b@example.com"],
        title: "two",
        bodyHtml: "<p>2</p>",
      });
      const mails = await repo.devMail.list();
      expect(mails.map((m) => m.title)).toEqual(["two", "one"]);
      expect(mails[0]).toMatchObject({
        receivers: ["a@example.com", "b@example.com"],
        bodyHtml: "<p>2</p>",
        createdAt: at(2).toISOString(),
      });
      expect(await repo.devMail.list(1)).toHaveLength(1);
      expect((await repo.findFormSubmission(two.id))!.emailSent).toBe(true);
    });

    it("marks every record a digest carried as sent, of both kinds, in one write with its mailbox copy", async () => {
      const repo = await fresh();
      const a = (await join(repo, "digest-a@example.com")).entry;
      const b = (await join(repo, "digest-b@example.com")).entry;
      const c = (await repo.contact.insert("Contact Form", { name: "x" }, first())).submission;
      await repo.notifications.markSent([w(a), w(b), f(c)], at(5), {
        receivers: ["team@example.com"],
        title: "digest",
        bodyHtml: "<p>3</p>",
      });
      expect(await repo.findWaitlistEntry("digest-a@example.com")).toMatchObject({
        emailSent: true,
        emailSentAt: at(5).toISOString(),
        notifyClaim: null,
      });
      expect(await repo.findWaitlistEntry("digest-b@example.com")).toMatchObject({ emailSent: true, emailSentAt: at(5).toISOString() });
      expect(await repo.findFormSubmission(c.id)).toMatchObject({ emailSent: true, emailSentAt: at(5).toISOString() });
      expect((await repo.devMail.list()).map((m) => m.title)).toContain("digest");
    });

    it("a released claim is due at once, without counting an attempt; only its holder may release it", async () => {
      const repo = await fresh();
      const { entry } = await join(repo, "release@example.com");
      await repo.notifications.release(w({ ...entry, notifyClaim: "someone-else" }));
      expect(await repo.findWaitlistEntry("release@example.com")).toMatchObject({ notifyClaim: entry.notifyClaim, notifyAttempts: 1 });
      await repo.notifications.release(w(entry));
      expect(await repo.findWaitlistEntry("release@example.com")).toMatchObject({
        notifyClaim: null,
        notifyLockedUntil: null,
        notifyAttempts: 0,
      });
      expect(await repo.notifications.claimDue("waitlist", due(1))).toMatchObject([{ email: "release@example.com", notifyAttempts: 1 }]);
    });

    it("counts the undelivered notifications of both kinds and finds the oldest", async () => {
      const repo = await fresh();
      expect(await repo.notifications.undelivered()).toEqual({ count: 0, oldestAt: null });
      const sent = (await join(repo, "sent@example.com", 0)).entry;
      await repo.notifications.markSent([w(sent)], at(1));
      (await repo.contact.insert("Contact Form", { name: "x" }, first(100))).submission;
      await join(repo, "waiting@example.com", 200);
      expect(await repo.notifications.undelivered()).toEqual({ count: 2, oldestAt: at(100).toISOString() });
    });

    it("counts requests per key in fixed windows, concurrently exact, and prunes ended windows", async () => {
      const repo = await fresh();
      const window = { start: 1000, end: 1600 };
      const counts = await Promise.all(Array.from({ length: 12 }, () => repo.counters.count("waitlist:203.0.113.1", window)));
      expect([...counts].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(await repo.counters.count("waitlist:203.0.113.2", window)).toBe(1);
      expect(await repo.counters.count("waitlist:203.0.113.1", { start: 1600, end: 2200 })).toBe(1);
      // A request that arrives late for an older window does not reset the newer one.
      expect(await repo.counters.count("waitlist:203.0.113.1", window)).toBe(2);
      await repo.counters.prune(new Date(1_600_000));
      expect(await repo.counters.count("waitlist:203.0.113.2", { start: 1600, end: 2200 })).toBe(1);
      expect(await repo.counters.count("waitlist:203.0.113.1", { start: 1600, end: 2200 })).toBe(3);
    });

    it("finds the schema complete after the migrations, and counts the undelivered in the same call", async () => {
      const repo = await fresh();
      expect(await repo.health.check()).toEqual({ missingSchema: null, undelivered: { count: 0, oldestAt: null } });
      await join(repo, "health@example.com", 100);
      expect(await repo.health.check()).toEqual({ missingSchema: null, undelivered: { count: 1, oldestAt: at(100).toISOString() } });
    });

    it("stores, claims and counts against a budget in one call, for both kinds", async () => {
      const repo = await fresh();
      const budget = { key: "notify:single", window: { start: 0, end: 3600 } };
      const one = await repo.waitlist.join({ email: "budget1@example.com", source: null }, { ...first(), budget });
      const two = await repo.contact.insert("Contact Form", { name: "x" }, { ...first(), budget });
      const three = await repo.waitlist.join({ email: "budget2@example.com", source: null }, { ...first(), budget });
      expect([one.outcome === "joined" && one.budgetUsed, two.budgetUsed, three.outcome === "joined" && three.budgetUsed]).toEqual([
        1, 2, 3,
      ]);
      expect((await repo.contact.insert("Contact Form", { name: "y" }, first())).budgetUsed).toBeNull();
    });
  });

  describe(`operator data on ${driver}`, () => {
    it("stats: totals, 24 hours and 7 days, breakdowns with their no-value count, 30 days by day, messages by form, undelivered", async () => {
      const repo = await fresh();
      const day = 86_400_000;
      await repo.waitlist.join({ email: "a@x.test", source: "hero", utm_source: "news", referrer_host: "news.example" }, first(-1000));
      await repo.waitlist.join({ email: "b@x.test", source: "cta", utm_source: "news", utm_campaign: "launch" }, first(-3 * day));
      await repo.waitlist.join({ email: "c@x.test", source: null }, first(-40 * day));
      await repo.contact.insert("Contact Form", { email: "a@x.test" }, first());

      const stats = await repo.operator.stats(t0, { networkFlag: 5 });
      expect(stats.waitlist).toMatchObject({
        total: 3,
        last24h: 1,
        last7d: 2,
        // Most first, equal counts by value; entries without a value apart, as `none`.
        bySource: {
          top: [
            { value: "cta", count: 1 },
            { value: "hero", count: 1 },
          ],
          none: 1,
          other: { values: 0, count: 0 },
        },
        byUtmSource: { top: [{ value: "news", count: 2 }], none: 1, other: { values: 0, count: 0 } },
        byUtmCampaign: { top: [{ value: "launch", count: 1 }], none: 2, other: { values: 0, count: 0 } },
        byReferrerHost: { top: [{ value: "news.example", count: 1 }], none: 2, other: { values: 0, count: 0 } },
      });
      expect(stats.waitlist.byDay).toHaveLength(30);
      expect(stats.waitlist.byDay.at(-1)).toEqual({ date: "2026-03-01", count: 1 });
      expect(stats.waitlist.byDay.at(-2)).toEqual({ date: "2026-02-28", count: 0 });
      expect(stats.waitlist.byDay[0]!.date).toBe("2026-01-31");
      expect(stats.waitlist.byDay.find((d) => d.date === "2026-02-26")).toEqual({ date: "2026-02-26", count: 1 });
      expect(stats.submissions).toEqual({
        total: 1,
        byForm: { top: [{ value: "contact", count: 1 }], none: 0, other: { values: 0, count: 0 } },
      });
      expect(stats.notifications).toEqual({ undelivered: 4, oldestUndeliveredAt: at(-40 * day).toISOString() });
    });

    it("lists newest first, searches, and continues after a cursor (created_at, then id)", async () => {
      const repo = await fresh();
      for (const [i, email] of ["one@x.test", "two@x.test", "three@x.test"].entries()) await join(repo, email, i === 2 ? 1 : 0);
      const all = await repo.operator.listWaitlist({ q: "", limit: 10, after: null });
      expect(all.map((e) => e.email)).toEqual(["three@x.test", "two@x.test", "one@x.test"]);
      const after = await repo.operator.listWaitlist({ q: "", limit: 10, after: { createdAt: all[1]!.createdAt, id: all[1]!.id } });
      expect(after.map((e) => e.email)).toEqual(["one@x.test"]);
      expect((await repo.operator.listWaitlist({ q: "TW", limit: 10, after: null })).map((e) => e.email)).toEqual(["two@x.test"]);

      await repo.contact.insert("Contact Form", { name: "Ada", message: "About Maths" }, first());
      await repo.contact.insert("Other", { name: "Ada", message: "About maths" }, first());
      const found = await repo.operator.listSubmissions("Contact Form", { q: "maths", limit: 10, after: null });
      expect(found.map((s) => s.formData.message)).toEqual(["About Maths"]);
    });

    it("searches the address and the campaign in any case, and counts every match with the page (issue 15)", async () => {
      const repo = await fresh();
      const joinWith = (email: string, ms: number, campaign: Record<string, string>) =>
        repo.waitlist.join({ email, source: null, ...campaign }, first(ms));
      await joinWith("ann@x.test", 0, { utm_source: "tiktok", utm_campaign: "launch1" });
      await joinWith("bob@x.test", 1, { utm_medium: "tiktok-bio" });
      await joinWith("cy@x.test", 2, { referrer_host: "www.tiktok.com" });
      await joinWith("tiktok.fan@x.test", 3, {});
      await joinWith("dee@x.test", 4, { utm_source: "news", utm_campaign: "Launch1".toLowerCase() });

      const found = await repo.operator.searchWaitlist({ q: "TikTok", limit: 2, after: null });
      expect(found.rows.map((e) => e.email)).toEqual(["tiktok.fan@x.test", "cy@x.test"]);
      expect(found.total).toBe(4);
      const last = found.rows[1]!;
      const rest = await repo.operator.searchWaitlist({ q: "tiktok", limit: 2, after: { createdAt: last.createdAt, id: last.id } });
      expect(rest.rows.map((e) => e.email)).toEqual(["bob@x.test", "ann@x.test"]);
      // The total is of the search, not of the page after the cursor.
      expect(rest.total).toBe(4);
      expect((await repo.operator.searchWaitlist({ q: "LAUNCH1", limit: 10, after: null })).total).toBe(2);
      expect(await repo.operator.searchWaitlist({ q: "", limit: 1, after: null })).toMatchObject({ total: 5 });
      expect(await repo.operator.searchWaitlist({ q: "nowhere", limit: 10, after: null })).toEqual({ rows: [], total: 0 });

      await repo.contact.insert("Contact Form", { name: "Ada", message: "About Maths" }, first());
      await repo.contact.insert("Contact Form", { name: "Bo", message: "maths again" }, first(1));
      await repo.contact.insert("Other", { name: "Ada", message: "About maths" }, first());
      const messages = await repo.operator.searchSubmissions("Contact Form", { q: "MATHS", limit: 1, after: null });
      expect(messages.rows.map((m) => m.formData.name)).toEqual(["Bo"]);
      expect(messages.total).toBe(2);
    });

    it("stats tell the failed notifications (with their earliest next try) apart from those waiting for the digest", async () => {
      const repo = await fresh();
      const { entry } = await join(repo, "fails@x.test");
      await failed(entry, 3_600_000, repo);
      const other = await join(repo, "fails-later@x.test", 10);
      await failed(other.entry, 600_000, repo);
      await join(repo, "waits@x.test", 20);
      const sent = await join(repo, "sent@x.test", 30);
      await repo.notifications.markSent([w(sent.entry)], at(40));

      const stats = await repo.operator.stats(t0, { networkFlag: 5 });
      expect(stats.notifications.undelivered).toBe(3);
      expect(stats.failedNotifications).toEqual({ count: 2, nextAttemptAt: at(600_000).toISOString() });
    });

    it("requeues every undelivered notification and erases a person with the audit record in the same batch", async () => {
      const repo = await fresh();
      const { entry } = await join(repo, "gone@x.test");
      await failed(entry, 3_600_000, repo);
      await join(repo, "kept@x.test");
      // Stored as typed: the first release kept a contact form's address unchanged (the form has
      // lower-cased it since), and a field that becomes an e-mail field keeps what it held, so the
      // look-up and the erasure compare stored addresses lower-cased.
      await repo.contact.insert("Contact Form", { email: "GONE@x.test", message: "delete me" }, first());
      await repo.contact.insert("Contact Form", { email: "kept@x.test", message: "gone@x.test is my friend" }, first());
      expect(await repo.operator.requeueUndelivered()).toBe(4);

      const person = await repo.operator.person("gone@x.test");
      expect(person.waitlist?.email).toBe("gone@x.test");
      expect(person.submissions).toHaveLength(1);

      const counts = await repo.operator.erasePerson("gone@x.test", { operator: "op@x.test", subjectHash: "h".repeat(64), now: t0 });
      expect(counts).toEqual({ waitlist: 1, submissions: 1, users: 0 });
      expect(await repo.operator.person("gone@x.test")).toEqual({
        waitlist: null,
        submissions: [],
        user: null,
        signInCode: null,
        joinerMails: [],
        campaignMails: [],
        parentalRequests: [],
      });
      expect((await repo.operator.person("kept@x.test")).submissions).toHaveLength(1);
      const [record] = await repo.operator.auditTrail(1);
      expect(record).toMatchObject({
        action: "person.erased",
        operator: "op@x.test",
        subjectHash: "h".repeat(64),
        details: { waitlist: 1, submissions: 1, users: 0 },
      });
      expect((await repo.waitlist.join({ email: "gone@x.test", source: null }, first(5))).outcome).toBe("joined");
    });
  });
}
