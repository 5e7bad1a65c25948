import { describe, expect, it } from "vitest";
import type { Repository } from "../../worker/db/repository";

/**
 * The sign-in storage's guarantees, run against D1 in workerd and libSQL in Node, like the
 * repository suite. `fresh()` must give a repository on an empty, migrated database.
 */
export function authRepositorySuite(driver: string, fresh: () => Promise<Repository>) {
  const t0 = new Date("2026-03-01T10:00:00.000Z");
  const at = (ms: number) => new Date(t0.getTime() + ms);
  const user = (repo: Repository, email: string, id = crypto.randomUUID(), ms = 0) =>
    repo.auth.findOrCreateUser({ id, email, userMetadata: { via: "test" }, now: at(ms) });
  const code = (userId: string, hash: string, ms = 0) => ({
    userId,
    codeHash: hash,
    now: at(ms),
    expiresAt: at(ms + 600_000),
    cooldownSeconds: 60,
  });
  const session = (userId: string, id = crypto.randomUUID()) => ({ id, userId, userAgent: "test", ip: "192.0.2.1" });

  describe(`sign-in storage on ${driver}`, () => {
    it("creates a user once per e-mail; later calls return the existing row unchanged", async () => {
      const repo = await fresh();
      const created = await user(repo, "u@example.com", "11111111-1111-4111-8111-111111111111");
      const again = await user(repo, "u@example.com", "22222222-2222-4222-8222-222222222222", 5000);
      expect(again).toEqual(created);
      expect(created).toMatchObject({ id: "11111111-1111-4111-8111-111111111111", userMetadata: { via: "test" }, emailConfirmedAt: null });
      expect(await repo.auth.findUserByEmail("u@example.com")).toEqual(created);
      expect(await repo.auth.findUserById(created.id)).toEqual(created);
    });

    it("stores a code unless the last one was sent within the cooldown; a stored code replaces the last", async () => {
      const repo = await fresh();
      const { id } = await user(repo, "c@example.com");
      expect(await repo.auth.storeCode(code(id, "hash-1"))).toBe(true);
      expect(await repo.auth.storeCode(code(id, "hash-2", 59_999))).toBe(false);
      expect(await repo.auth.codeSentAt(id)).toEqual(at(0));
      expect(await repo.auth.storeCode(code(id, "hash-3", 60_000))).toBe(true);
      expect(await repo.auth.consumeCode({ userId: id, codeHash: "hash-1", now: at(60_001), maxAttempts: 5 })).toBe(false);
      expect(await repo.auth.consumeCode({ userId: id, codeHash: "hash-3", now: at(60_001), maxAttempts: 5 })).toBe(true);
      expect(await repo.auth.consumeCode({ userId: id, codeHash: "hash-3", now: at(60_002), maxAttempts: 5 })).toBe(false);
    });

    it("a withdrawn code cannot be used and does not hold the cooldown", async () => {
      const repo = await fresh();
      const { id } = await user(repo, "w@example.com");
      await repo.auth.storeCode(code(id, "hash-1"));
      await repo.auth.withdrawCode(id, "hash-1");
      expect(await repo.auth.consumeCode({ userId: id, codeHash: "hash-1", now: at(1), maxAttempts: 5 })).toBe(false);
      expect(await repo.auth.storeCode(code(id, "hash-2", 1))).toBe(true);
    });

    it("a code expires, and wrong attempts wear it out", async () => {
      const repo = await fresh();
      const { id } = await user(repo, "e@example.com");
      await repo.auth.storeCode(code(id, "hash-1"));
      expect(await repo.auth.consumeCode({ userId: id, codeHash: "hash-1", now: at(600_000), maxAttempts: 5 })).toBe(false);

      await repo.auth.storeCode(code(id, "hash-2", 700_000));
      for (let attempt = 0; attempt < 5; attempt += 1) await repo.auth.recordWrongCode({ userId: id, maxAttempts: 5 });
      expect(await repo.auth.consumeCode({ userId: id, codeHash: "hash-2", now: at(700_001), maxAttempts: 5 })).toBe(false);
    });

    it("creates a session with its first refresh token and records the sign-in", async () => {
      const repo = await fresh();
      const { id } = await user(repo, "s@example.com");
      const signedIn = await repo.auth.createSession({ session: session(id, "33333333-3333-4333-8333-333333333333"), refreshTokenHash: "rt-1", now: at(1000) });
      expect(signedIn).toMatchObject({ id, emailConfirmedAt: at(1000).toISOString(), lastSignInAt: at(1000).toISOString() });
      const again = await repo.auth.createSession({ session: session(id), refreshTokenHash: "rt-2", now: at(2000) });
      expect(again).toMatchObject({ emailConfirmedAt: at(1000).toISOString(), lastSignInAt: at(2000).toISOString() });
      expect((await repo.auth.findSession("33333333-3333-4333-8333-333333333333"))?.user.id).toBe(id);
      expect(await repo.auth.findRefreshToken("rt-1")).toMatchObject({ token: { revokedAt: null }, session: { id: "33333333-3333-4333-8333-333333333333" } });
    });

    it("rotates a refresh token once: a second rotation of the same token stores nothing more", async () => {
      const repo = await fresh();
      const { id } = await user(repo, "r@example.com");
      const sessionId = crypto.randomUUID();
      await repo.auth.createSession({ session: session(id, sessionId), refreshTokenHash: "rt-1", now: at(0) });
      const parent = (await repo.auth.findRefreshToken("rt-1"))!.token;
      await repo.auth.rotateRefreshToken({ tokenId: parent.id, sessionId, successorHash: "rt-2", now: at(1000) });
      await repo.auth.rotateRefreshToken({ tokenId: parent.id, sessionId, successorHash: "rt-2", now: at(1001) });
      await repo.auth.rotateRefreshToken({ tokenId: parent.id, sessionId, successorHash: "rt-other", now: at(1002) });
      expect(await repo.auth.findRefreshToken("rt-1")).toMatchObject({ token: { revokedAt: at(1000).toISOString(), replacedByHash: "rt-2" } });
      expect(await repo.auth.isLiveRefreshToken("rt-2")).toBe(true);
      expect(await repo.auth.findRefreshToken("rt-other")).toBeUndefined();
      expect((await repo.auth.findSession(sessionId))!.session.refreshedAt).toBe(at(1002).toISOString());
    });

    it("stores no successor for a session that has ended", async () => {
      const repo = await fresh();
      const { id } = await user(repo, "gone@example.com");
      const sessionId = crypto.randomUUID();
      await repo.auth.createSession({ session: session(id, sessionId), refreshTokenHash: "rt-1", now: at(0) });
      const parent = (await repo.auth.findRefreshToken("rt-1"))!.token;
      await repo.auth.deleteSessions({ userId: id, only: sessionId });
      await repo.auth.rotateRefreshToken({ tokenId: parent.id, sessionId, successorHash: "rt-2", now: at(1) });
      expect(await repo.auth.isLiveRefreshToken("rt-2")).toBe(false);
    });

    it("ends sessions by scope with their refresh tokens", async () => {
      const repo = await fresh();
      const me = await user(repo, "me@example.com");
      const other = await user(repo, "other@example.com");
      const [a, b, c, d] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      for (const [sessionId, owner] of [[a, me.id], [b, me.id], [c, me.id], [d, other.id]] as const) {
        await repo.auth.createSession({ session: session(owner, sessionId), refreshTokenHash: `rt-${sessionId}`, now: at(0) });
      }
      expect(await repo.auth.deleteSessions({ userId: me.id, only: a })).toBe(1);
      expect(await repo.auth.findRefreshToken(`rt-${a}`)).toBeUndefined();
      expect(await repo.auth.deleteSessions({ userId: me.id, except: b })).toBe(1);
      expect(await repo.auth.findSession(c)).toBeUndefined();
      expect(await repo.auth.findSession(b)).toBeDefined();
      expect(await repo.auth.deleteSessions({ userId: me.id })).toBe(1);
      expect(await repo.auth.findSession(d)).toBeDefined();
      // A session id of another user is not ended through "only".
      expect(await repo.auth.deleteSessions({ userId: me.id, only: d })).toBe(0);
    });

    it("deletes a user with everything of theirs", async () => {
      const repo = await fresh();
      const { id } = await user(repo, "del@example.com");
      await repo.auth.storeCode(code(id, "hash"));
      const sessionId = crypto.randomUUID();
      await repo.auth.createSession({ session: session(id, sessionId), refreshTokenHash: "rt-del", now: at(0) });
      expect((await repo.auth.deleteUser(id))?.email).toBe("del@example.com");
      expect(await repo.auth.findUserById(id)).toBeUndefined();
      expect(await repo.auth.findSession(sessionId)).toBeUndefined();
      expect(await repo.auth.findRefreshToken("rt-del")).toBeUndefined();
      expect(await repo.auth.codeSentAt(id)).toBeUndefined();
      expect(await repo.auth.deleteUser(id)).toBeUndefined();
    });

    it("lists users newest first, a page at a time, with the total", async () => {
      const repo = await fresh();
      for (let index = 0; index < 5; index += 1) await user(repo, `p${index}@example.com`, crypto.randomUUID(), index * 1000);
      const page = await repo.auth.listUsers(2, 2);
      expect(page.total).toBe(5);
      expect(page.users.map((u) => u.email)).toEqual(["p2@example.com", "p1@example.com"]);
    });

    it("counts requests per key and window; a later window starts over, an earlier one cannot reset it", async () => {
      const repo = await fresh();
      expect(await repo.auth.countRequest("otp:a", 300)).toBe(1);
      expect(await repo.auth.countRequest("otp:a", 300)).toBe(2);
      expect(await repo.auth.countRequest("otp:b", 300)).toBe(1);
      expect(await repo.auth.countRequest("otp:a", 600)).toBe(1);
      expect(await repo.auth.countRequest("otp:a", 300)).toBe(2);
      const counts = await Promise.all(Array.from({ length: 10 }, () => repo.auth.countRequest("otp:c", 300)));
      expect(counts.sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it("prunes old counters, long-expired codes and long-revoked refresh tokens only", async () => {
      const repo = await fresh();
      const { id } = await user(repo, "prune@example.com");
      await repo.auth.countRequest("old", 0);
      await repo.auth.countRequest("current", 900);
      await repo.auth.storeCode(code(id, "hash"));
      const sessionId = crypto.randomUUID();
      await repo.auth.createSession({ session: session(id, sessionId), refreshTokenHash: "rt-a", now: at(0) });
      const parent = (await repo.auth.findRefreshToken("rt-a"))!.token;
      await repo.auth.rotateRefreshToken({ tokenId: parent.id, sessionId, successorHash: "rt-b", now: at(0) });

      await repo.auth.pruneAuth({ now: at(31 * 86_400_000), oldestWindowStart: 900, revokedTokenDays: 30 });
      expect(await repo.auth.countRequest("old", 0)).toBe(1);
      expect(await repo.auth.countRequest("current", 900)).toBe(2);
      expect(await repo.auth.codeSentAt(id)).toBeUndefined();
      expect(await repo.auth.findRefreshToken("rt-a")).toBeUndefined();
      expect(await repo.auth.isLiveRefreshToken("rt-b")).toBe(true);
    });
  });
}
