import { describe, expect, it } from "vitest";
import type { Repository } from "../../worker/db/repository";

/**
 * The repository's behaviour, run once against D1 inside workerd and once against libSQL in
 * Node. `fresh()` must give a repository on an empty, migrated database.
 */
export function repositorySuite(driver: string, fresh: () => Promise<Repository>) {
  const t0 = new Date("2026-03-01T10:00:00.000Z");
  const at = (ms: number) => new Date(t0.getTime() + ms);
  const claim = { now: t0, lockMs: 60_000, maxAttempts: 3 };

  describe(`repository on ${driver}`, () => {
    it("answers a ping", async () => {
      const repo = await fresh();
      await expect(repo.ping()).resolves.toBeUndefined();
    });

    it("joins a new e-mail with delivery state unset", async () => {
      const repo = await fresh();
      const result = await repo.joinWaitlist({ email: "a@example.com", source: "hero" }, t0);
      expect(result.outcome).toBe("joined");
      const entry = result.outcome === "joined" ? result.entry : undefined;
      expect(entry).toMatchObject({
        email: "a@example.com",
        source: "hero",
        emailSent: false,
        emailSentAt: null,
        notifyAttempts: 0,
        createdAt: t0.toISOString(),
        updatedAt: t0.toISOString(),
      });
    });

    it("reports a duplicate only once the notification was sent, and leaves that entry untouched", async () => {
      const repo = await fresh();
      const joined = await repo.joinWaitlist({ email: "b@example.com", source: null }, t0);
      const id = joined.outcome === "joined" ? joined.entry.id : -1;
      const again = await repo.joinWaitlist({ email: "b@example.com", source: "cta" }, at(1000));
      expect(again).toMatchObject({ outcome: "joined", entry: { id, source: "cta", updatedAt: at(1000).toISOString() } });

      await repo.markNotificationSent("waitlist", id, at(2000));
      const sent = await repo.findWaitlistEntry("b@example.com");
      expect(sent).toMatchObject({ emailSent: true, emailSentAt: at(2000).toISOString(), updatedAt: at(2000).toISOString() });
      expect(await repo.joinWaitlist({ email: "b@example.com", source: "x" }, at(3000))).toEqual({ outcome: "duplicate" });
      expect(await repo.findWaitlistEntry("b@example.com")).toEqual(sent);
    });

    it("a re-join of an undelivered entry clears its backoff and starts its attempts over", async () => {
      const repo = await fresh();
      const joined = await repo.joinWaitlist({ email: "c@example.com", source: null }, t0);
      const id = joined.outcome === "joined" ? joined.entry.id : -1;
      for (let n = 0; n < 3; n += 1) {
        const record = await repo.claimNotification("waitlist", id, { ...claim, now: at(n * 1000) });
        expect(record).toBeDefined();
        await repo.markNotificationFailed("waitlist", id, { error: "down", nextAttemptAt: null });
      }
      expect(await repo.claimNotification("waitlist", id, claim)).toBeUndefined(); // capped
      await repo.joinWaitlist({ email: "c@example.com", source: null }, at(5000));
      expect(await repo.findWaitlistEntry("c@example.com")).toMatchObject({ notifyAttempts: 0, notifyLastError: "down" });
      expect(await repo.claimNotification("waitlist", id, { ...claim, now: at(5000) })).toMatchObject({ notifyAttempts: 1 });
    });

    it("concurrent joins of one e-mail leave exactly one row", async () => {
      const repo = await fresh();
      const results = await Promise.all(
        Array.from({ length: 20 }, () => repo.joinWaitlist({ email: "same@example.com", source: null }, t0)),
      );
      expect(results.every((r) => r.outcome === "joined")).toBe(true);
      expect(new Set(results.map((r) => (r.outcome === "joined" ? r.entry.id : 0))).size).toBe(1);
      expect((await repo.listWaitlist()).filter((e) => e.email === "same@example.com")).toHaveLength(1);
    });

    it("lists the waitlist newest first", async () => {
      const repo = await fresh();
      await repo.joinWaitlist({ email: "first@example.com", source: null }, t0);
      await repo.joinWaitlist({ email: "second@example.com", source: null }, at(1000));
      await repo.joinWaitlist({ email: "third@example.com", source: null }, at(2000));
      expect((await repo.listWaitlist()).map((e) => e.email)).toEqual([
        "third@example.com",
        "second@example.com",
        "first@example.com",
      ]);
    });

    it("stores form submissions with their data as JSON", async () => {
      const repo = await fresh();
      const data = { name: "Ada", email: "ada@example.com", message: "Line\nbreak ✓", nested: { a: [1, 2] } };
      const saved = await repo.insertFormSubmission("Contact Form", data, t0);
      expect(saved).toMatchObject({ formName: "Contact Form", formData: data, emailSent: false, createdAt: t0.toISOString() });
      expect(await repo.findFormSubmission(saved.id)).toEqual(saved);
    });

    it("lets exactly one sender claim a notification, until its claim lapses", async () => {
      const repo = await fresh();
      const saved = await repo.insertFormSubmission("Contact Form", { name: "x" }, t0);
      const claims = await Promise.all(Array.from({ length: 5 }, () => repo.claimNotification("form", saved.id, claim)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await repo.claimNotification("form", saved.id, { ...claim, now: at(59_000) })).toBeUndefined();
      expect(await repo.claimNotification("form", saved.id, { ...claim, now: at(60_000) })).toMatchObject({ notifyAttempts: 2 });
    });

    it("respects the backoff time and never claims a delivered notification", async () => {
      const repo = await fresh();
      const saved = await repo.insertFormSubmission("Contact Form", { name: "x" }, t0);
      await repo.claimNotification("form", saved.id, claim);
      await repo.markNotificationFailed("form", saved.id, { error: "HTTP 500", nextAttemptAt: at(300_000) });
      expect(await repo.findFormSubmission(saved.id)).toMatchObject({
        notifyLastError: "HTTP 500",
        notifyNextAttemptAt: at(300_000).toISOString(),
        notifyLockedUntil: null,
      });
      expect(await repo.claimNotification("form", saved.id, { ...claim, now: at(299_999) })).toBeUndefined();
      expect(await repo.claimNotification("form", saved.id, { ...claim, now: at(300_000) })).toBeDefined();
      await repo.markNotificationSent("form", saved.id, at(301_000));
      expect(await repo.findFormSubmission(saved.id)).toMatchObject({
        emailSent: true,
        emailSentAt: at(301_000).toISOString(),
        notifyLastError: null,
        notifyLockedUntil: null,
      });
      expect(await repo.claimNotification("form", saved.id, { ...claim, now: at(10_000_000) })).toBeUndefined();
    });

    it("claims due notifications in a batch, oldest first, up to the limit", async () => {
      const repo = await fresh();
      const ids: number[] = [];
      for (let n = 0; n < 4; n += 1) {
        const joined = await repo.joinWaitlist({ email: `due${n}@example.com`, source: null }, at(n));
        if (joined.outcome === "joined") ids.push(joined.entry.id);
      }
      await repo.markNotificationSent("waitlist", ids[1]!, at(10));
      const batch = await repo.claimDueNotifications("waitlist", { ...claim, now: at(100), limit: 2 });
      expect(batch.map((e) => e.email)).toEqual(["due0@example.com", "due2@example.com"]);
      const rest = await repo.claimDueNotifications("waitlist", { ...claim, now: at(100), limit: 10 });
      expect(rest.map((e) => e.email)).toEqual(["due3@example.com"]);
      expect(await repo.claimDueNotifications("waitlist", { ...claim, now: at(100), limit: 10 })).toEqual([]);
      expect(await repo.claimDueNotifications("form", { ...claim, now: at(100), limit: 10 })).toEqual([]);
    });

    it("keeps dev mailbox messages and lists them newest first", async () => {
      const repo = await fresh();
      await repo.saveDevMail({ receivers: ["a@example.com"], title: "one", bodyHtml: "<p>1</p>" }, t0);
      await repo.saveDevMail({ receivers: ["a@example.com", "b@example.com"], title: "two", bodyHtml: "<p>2</p>" }, at(1));
      const mails = await repo.listDevMail();
      expect(mails.map((m) => m.title)).toEqual(["two", "one"]);
      expect(mails[0]!.receivers).toEqual(["a@example.com", "b@example.com"]);
      expect(await repo.listDevMail(1)).toHaveLength(1);
    });
  });
}
