// The sign-in storage suite (worker/features/sign-in/queries/index.ts), shared by the D1 and libSQL test files.
import { describe, expect, it } from "vitest";
import type { Repository } from "../../worker/repository";

/**
 * The sign-in storage's guarantees, run against D1 in workerd and libSQL in Node, like the
 * repository suite. `fresh()` must give a repository on an empty, migrated database.
 */
export function authRepositorySuite(driver: string, fresh: () => Promise<Repository>) {
  const t0 = new Date("2026-03-01T10:00:00.000Z");
  const at = (ms: number) => new Date(t0.getTime() + ms);
  const SECOND = 1000;
  const HOUR = 60 * 60 * SECOND;
  const DAY = 24 * HOUR;
  /** A code request for `email` at t0 + ms, valid 10 minutes, with a 60 s cooldown. */
  const code = (
    email: string,
    hash: string | null,
    ms = 0,
    more: { cooldownSeconds?: number; userMetadata?: Record<string, unknown> | null; ttlMs?: number } = {},
  ) => ({
    email,
    codeHash: hash,
    userMetadata: more.userMetadata === undefined ? {} : more.userMetadata,
    now: at(ms),
    expiresAt: at(ms + (more.ttlMs ?? 600_000)),
    cooldownSeconds: more.cooldownSeconds ?? 60,
  });
  const guess = (repo: Repository, email: string, hash: string, ms = 0) =>
    repo.signIn.useCode({ email, codeHash: hash, now: at(ms), maxAttempts: 5 });
  const stored = { stored: true };
  const refused = (retryAfterSeconds: number) => ({ stored: false, retryAfterSeconds });

  /** A verified sign-in: creates the user on the first one, and starts a session. */
  const signIn = (
    repo: Repository,
    email: string,
    options: { id?: string; userMetadata?: Record<string, unknown>; sessionId?: string; refreshTokenHash?: string; ms?: number } = {},
  ) =>
    repo.signIn.signIn({
      candidate: { id: options.id ?? crypto.randomUUID(), email, userMetadata: options.userMetadata ?? { via: "test" } },
      session: { id: options.sessionId ?? crypto.randomUUID(), userAgent: "test", ip: "192.0.2.1" },
      refreshTokenHash: options.refreshTokenHash ?? `rt-${crypto.randomUUID()}`,
      now: at(options.ms ?? 0),
    });

  describe(`sign-in storage on ${driver}`, () => {
    it("the first sign-in creates the user; later ones never change its id, metadata or confirmation", async () => {
      const repo = await fresh();
      const created = await signIn(repo, "u@example.com", {
        id: "11111111-1111-4111-8111-111111111111",
        userMetadata: { via: "first" },
        ms: 1000,
      });
      expect(created).toMatchObject({
        id: "11111111-1111-4111-8111-111111111111",
        email: "u@example.com",
        userMetadata: { via: "first" },
        createdAt: at(1000).toISOString(),
        emailConfirmedAt: at(1000).toISOString(),
        lastSignInAt: at(1000).toISOString(),
      });
      const again = await signIn(repo, "u@example.com", {
        id: "22222222-2222-4222-8222-222222222222",
        userMetadata: { via: "second" },
        ms: 5000,
      });
      expect(again).toMatchObject({
        id: created.id,
        userMetadata: { via: "first" },
        createdAt: created.createdAt,
        emailConfirmedAt: created.emailConfirmedAt,
        lastSignInAt: at(5000).toISOString(),
      });
      expect(await repo.signIn.findUserByEmail("u@example.com")).toEqual(again);
      expect(await repo.signIn.findUserById(created.id)).toEqual(again);
      expect(await repo.signIn.findUserById("22222222-2222-4222-8222-222222222222")).toBeUndefined();
      expect((await repo.signIn.listUsers(1, 10)).total).toBe(1);
    });

    it("a code request creates no user", async () => {
      const repo = await fresh();
      expect(await repo.signIn.storeCode(code("nouser@example.com", "hash-1"))).toEqual(stored);
      expect(await repo.signIn.findUserByEmail("nouser@example.com")).toBeUndefined();
      expect((await repo.signIn.listUsers(1, 10)).total).toBe(0);
    });

    it("stores a code unless the last one was sent within the cooldown; a stored code replaces the last", async () => {
      const repo = await fresh();
      const email = "c@example.com";
      expect(await repo.signIn.storeCode(code(email, "hash-1"))).toEqual(stored);
      expect(await repo.signIn.storeCode(code(email, "hash-2", 45_000))).toEqual(refused(15));
      expect(await repo.signIn.storeCode(code(email, "hash-2", 59_999))).toEqual(refused(1));
      expect(await repo.signIn.storeCode(code(email, "hash-3", 60_000))).toEqual(stored);
      expect(await guess(repo, email, "hash-1", 60_001)).toBeNull();
      expect(await guess(repo, email, "hash-2", 60_001)).toBeNull();
      expect(await guess(repo, email, "hash-3", 60_001)).toEqual({ userMetadata: {} });
      expect(await guess(repo, email, "hash-3", 60_002)).toBeNull();
    });

    it("codes of one address never touch another's", async () => {
      const repo = await fresh();
      expect(await repo.signIn.storeCode(code("a@example.com", "hash-a"))).toEqual(stored);
      expect(await repo.signIn.storeCode(code("b@example.com", "hash-b"))).toEqual(stored);
      expect(await guess(repo, "a@example.com", "hash-b")).toBeNull();
      expect(await guess(repo, "b@example.com", "hash-b")).toEqual({ userMetadata: {} });
      expect(await guess(repo, "a@example.com", "hash-a")).toEqual({ userMetadata: {} });
    });

    it("of concurrent requests for one address within the cooldown, one stores its code", async () => {
      const repo = await fresh();
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, index) => repo.signIn.storeCode(code("burst@example.com", `hash-${index}`))),
      );
      expect(results.filter((result) => result.stored)).toHaveLength(1);
      expect(results.filter((result) => !result.stored)).toEqual(Array.from({ length: 9 }, () => refused(60)));
    });

    it("the cooldown is a setting; a refusal says how long until it ends", async () => {
      const repo = await fresh();
      const email = "cool@example.com";
      expect(await repo.signIn.storeCode(code(email, "h1", 0, { cooldownSeconds: 600 }))).toEqual(stored);
      expect(await repo.signIn.storeCode(code(email, "h2", 60_000, { cooldownSeconds: 600 }))).toEqual(refused(540));
      expect(await repo.signIn.storeCode(code(email, "h2", 599_001, { cooldownSeconds: 600 }))).toEqual(refused(1));
      expect(await repo.signIn.storeCode(code(email, "h3", 600_000, { cooldownSeconds: 600 }))).toEqual(stored);
    });

    it("counts several counters in one call (the caps of a mailbox); each starts over in its next window", async () => {
      const repo = await fresh();
      const hour = { key: "code-mail-hour:m1", window: { start: 3600, end: 7200 } };
      const day = { key: "code-mail-day:m1", window: { start: 0, end: 86_400 } };
      expect(await repo.counters.countAll([hour, day])).toEqual([1, 1]);
      expect(await repo.counters.countAll([hour, day])).toEqual([2, 2]);
      const nextHour = { ...hour, window: { start: 7200, end: 10_800 } };
      expect(await repo.counters.countAll([nextHour, day])).toEqual([1, 3]);
      // Another mailbox's counters are its own.
      expect(await repo.counters.countAll([{ ...nextHour, key: "code-mail-hour:m2" }])).toEqual([1]);
      expect(await repo.counters.countAll([])).toEqual([]);
      // Concurrent calls each get their own counts.
      const counts = await Promise.all(Array.from({ length: 8 }, () => repo.counters.countAll([nextHour, day])));
      expect(counts.map(([h]) => h).sort((a, b) => a! - b!)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
      expect(counts.map(([, d]) => d).sort((a, b) => a! - b!)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    });

    it("takes counts back: one each, never below zero, and not from a counter whose window has moved on", async () => {
      const repo = await fresh();
      const hour = { key: "code-mail-hour:back", window: { start: 3600, end: 7200 } };
      const day = { key: "code-mail-day:back", window: { start: 0, end: 86_400 } };
      await repo.counters.countAll([hour, day]);
      await repo.counters.countAll([hour, day]);
      await repo.counters.uncountAll([hour, day]);
      expect(await repo.counters.countAll([hour, day])).toEqual([2, 2]);
      await repo.counters.uncountAll([hour]);
      await repo.counters.uncountAll([hour]);
      await repo.counters.uncountAll([hour]);
      expect(await repo.counters.countAll([hour])).toEqual([1]);
      // The hour has moved on: taking back the last hour's count leaves the new hour's alone.
      const nextHour = { ...hour, window: { start: 7200, end: 10_800 } };
      expect(await repo.counters.countAll([nextHour])).toEqual([1]);
      await repo.counters.uncountAll([hour]);
      expect(await repo.counters.countAll([nextHour])).toEqual([2]);
      // A counter that does not exist is not created.
      await repo.counters.uncountAll([{ key: "code-mail-hour:never", window: hour.window }]);
      expect(await repo.counters.countAll([{ key: "code-mail-hour:never", window: hour.window }])).toEqual([1]);
      await repo.counters.uncountAll([]);
    });

    it("keeps the data of the request that sent the live code, for the sign-in that creates the user", async () => {
      const repo = await fresh();
      const email = "data@example.com";
      await repo.signIn.storeCode(code(email, "h1", 0, { userMetadata: { by: "first" } }));
      await repo.signIn.storeCode(code(email, "h2", 60_000, { userMetadata: { by: "second" } }));
      expect(await guess(repo, email, "h2", 60_001)).toEqual({ userMetadata: { by: "second" } });
      // A request that may not create a user keeps no data: the sign-in gets {}.
      await repo.signIn.storeCode(code(email, "h3", 120_000, { userMetadata: null }));
      expect(await guess(repo, email, "h3", 120_001)).toEqual({ userMetadata: {} });
    });

    it("a code stored without a hash (an address that may not sign up) counts, but nothing matches it", async () => {
      const repo = await fresh();
      const email = "nohash@example.com";
      expect(await repo.signIn.storeCode(code(email, null, 0, { userMetadata: null }))).toEqual(stored);
      expect(await repo.signIn.storeCode(code(email, null, 30_000, { userMetadata: null }))).toEqual(refused(30));
      expect(await guess(repo, email, "anything", 1)).toBeNull();
    });

    it("a withdrawn code cannot be used and does not hold the cooldown; a newer code is left alone", async () => {
      const repo = await fresh();
      const email = "w@example.com";
      expect(await repo.signIn.storeCode(code(email, "hash-1", 0))).toEqual(stored);
      await repo.signIn.withdrawCode(email, "hash-1");
      expect(await guess(repo, email, "hash-1", 1)).toBeNull();
      expect(await repo.signIn.storeCode(code(email, "hash-2", 1))).toEqual(stored);
      expect(await repo.signIn.storeCode(code(email, "hash-3", 60_001))).toEqual(stored);
      // Withdrawing a code that was replaced leaves the newer one, and its cooldown, alone.
      await repo.signIn.withdrawCode(email, "hash-2");
      expect(await repo.signIn.storeCode(code(email, "hash-4", 90_001))).toEqual(refused(30));
      expect(await guess(repo, email, "hash-3", 90_002)).toEqual({ userMetadata: {} });
    });

    it("a cleared code cannot be used but keeps its cooldown, like a request that stored no code", async () => {
      const repo = await fresh();
      const email = "cleared@example.com";
      expect(await repo.signIn.storeCode(code(email, "hash-1", 0, { userMetadata: null }))).toEqual(stored);
      await repo.signIn.clearCode(email, "hash-1");
      expect(await guess(repo, email, "hash-1", 1)).toBeNull();
      expect(await repo.signIn.storeCode(code(email, "hash-2", 15_000, { userMetadata: null }))).toEqual(refused(45));
      expect(await repo.signIn.storeCode(code("nohash-twin@example.com", null, 0, { userMetadata: null }))).toEqual(stored);
      expect(await repo.signIn.storeCode(code("nohash-twin@example.com", null, 15_000, { userMetadata: null }))).toEqual(refused(45));
      // Clearing a code that was replaced leaves the newer one alone.
      expect(await repo.signIn.storeCode(code(email, "hash-3", 60_000))).toEqual(stored);
      await repo.signIn.clearCode(email, "hash-1");
      expect(await guess(repo, email, "hash-3", 60_001)).toEqual({ userMetadata: {} });
    });

    it("every guess counts: 4 wrong guesses leave the code usable, after 5 even the right one fails", async () => {
      const repo = await fresh();
      const email = "guess@example.com";
      await repo.signIn.storeCode(code(email, "right-1"));
      for (let attempt = 0; attempt < 4; attempt += 1) expect(await guess(repo, email, `wrong-${attempt}`, 1)).toBeNull();
      expect(await guess(repo, email, "right-1", 2)).toEqual({ userMetadata: {} });

      await repo.signIn.storeCode(code(email, "right-2", 60_000));
      for (let attempt = 0; attempt < 5; attempt += 1) expect(await guess(repo, email, `wrong-${attempt}`, 60_001)).toBeNull();
      expect(await guess(repo, email, "right-2", 60_002)).toBeNull();

      // A new code starts with no guesses.
      await repo.signIn.storeCode(code(email, "right-3", 120_000));
      for (let attempt = 0; attempt < 4; attempt += 1) await guess(repo, email, `wrong-${attempt}`, 120_001);
      expect(await guess(repo, email, "right-3", 120_002)).toEqual({ userMetadata: {} });
    });

    it("concurrent wrong guesses are counted too: the right code sent after 20 of them fails", async () => {
      const repo = await fresh();
      for (let round = 0; round < 3; round += 1) {
        const email = `concurrent-${round}@example.com`;
        await repo.signIn.storeCode(code(email, "right"));
        const wrong = Array.from({ length: 20 }, (_, index) => guess(repo, email, `wrong-${index}`, 1));
        const right = guess(repo, email, "right", 1);
        expect(await Promise.all(wrong)).toEqual(Array.from({ length: 20 }, () => null));
        expect(await right).toBeNull();
      }
    });

    it("a code expires, and an address that never asked has nothing to guess", async () => {
      const repo = await fresh();
      await repo.signIn.storeCode(code("e@example.com", "hash-1"));
      expect(await guess(repo, "e@example.com", "hash-1", 600_000)).toBeNull();
      expect(await guess(repo, "never@example.com", "hash-1", 1)).toBeNull();
    });

    it("of concurrent guesses of the right code exactly one uses it", async () => {
      const repo = await fresh();
      await repo.signIn.storeCode(code("once@example.com", "hash"));
      const results = await Promise.all(Array.from({ length: 5 }, () => guess(repo, "once@example.com", "hash", 1)));
      expect(results.filter((result) => result !== null)).toHaveLength(1);
    });

    it("a sign-in starts a session with its first refresh token", async () => {
      const repo = await fresh();
      const sessionId = "33333333-3333-4333-8333-333333333333";
      const user = await signIn(repo, "s@example.com", { sessionId, refreshTokenHash: "rt-1", ms: 1000 });
      const found = await repo.signIn.findSession(sessionId);
      expect(found?.user).toEqual(user);
      expect(found?.session).toMatchObject({
        id: sessionId,
        userId: user.id,
        userAgent: "test",
        ip: "192.0.2.1",
        createdAt: at(1000).toISOString(),
        refreshedAt: null,
      });
      expect(await repo.signIn.findRefreshToken("rt-1")).toMatchObject({
        token: { revokedAt: null },
        session: { id: sessionId },
        user: { id: user.id },
      });
    });

    it("rotates a refresh token once: a second rotation of the same token stores nothing more", async () => {
      const repo = await fresh();
      const sessionId = crypto.randomUUID();
      await signIn(repo, "r@example.com", { sessionId, refreshTokenHash: "rt-1" });
      const parent = (await repo.signIn.findRefreshToken("rt-1"))!.token;
      await repo.signIn.rotateRefreshToken({ tokenId: parent.id, sessionId, successorHash: "rt-2", now: at(1000) });
      await repo.signIn.rotateRefreshToken({ tokenId: parent.id, sessionId, successorHash: "rt-2", now: at(1001) });
      await repo.signIn.rotateRefreshToken({ tokenId: parent.id, sessionId, successorHash: "rt-other", now: at(1002) });
      expect(await repo.signIn.findRefreshToken("rt-1")).toMatchObject({
        token: { revokedAt: at(1000).toISOString(), replacedByHash: "rt-2" },
      });
      expect(await repo.signIn.isLiveRefreshToken("rt-2")).toBe(true);
      expect(await repo.signIn.findRefreshToken("rt-other")).toBeUndefined();
      expect((await repo.signIn.findSession(sessionId))!.session.refreshedAt).toBe(at(1002).toISOString());
    });

    it("stores no successor for a session that has ended", async () => {
      const repo = await fresh();
      const sessionId = crypto.randomUUID();
      const { id } = await signIn(repo, "gone@example.com", { sessionId, refreshTokenHash: "rt-1" });
      const parent = (await repo.signIn.findRefreshToken("rt-1"))!.token;
      await repo.signIn.deleteSessions({ userId: id, only: sessionId });
      await repo.signIn.rotateRefreshToken({ tokenId: parent.id, sessionId, successorHash: "rt-2", now: at(1) });
      expect(await repo.signIn.isLiveRefreshToken("rt-2")).toBe(false);
    });

    it("ends sessions by scope with their refresh tokens", async () => {
      const repo = await fresh();
      const [a, b, c, d] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      const me = await signIn(repo, "me@example.com", { sessionId: a, refreshTokenHash: `rt-${a}` });
      await signIn(repo, "me@example.com", { sessionId: b, refreshTokenHash: `rt-${b}` });
      await signIn(repo, "me@example.com", { sessionId: c, refreshTokenHash: `rt-${c}` });
      await signIn(repo, "other@example.com", { sessionId: d, refreshTokenHash: `rt-${d}` });
      expect(await repo.signIn.deleteSessions({ userId: me.id, only: a })).toBe(1);
      expect(await repo.signIn.findRefreshToken(`rt-${a}`)).toBeUndefined();
      expect(await repo.signIn.deleteSessions({ userId: me.id, except: b })).toBe(1);
      expect(await repo.signIn.findSession(c)).toBeUndefined();
      expect(await repo.signIn.findSession(b)).toBeDefined();
      expect(await repo.signIn.deleteSessions({ userId: me.id })).toBe(1);
      expect(await repo.signIn.findSession(d)).toBeDefined();
      // A session id of another user is not ended through "only".
      expect(await repo.signIn.deleteSessions({ userId: me.id, only: d })).toBe(0);
    });

    it("deletes a user with everything of theirs, their code included", async () => {
      const repo = await fresh();
      const sessionId = crypto.randomUUID();
      const { id } = await signIn(repo, "del@example.com", { sessionId, refreshTokenHash: "rt-del" });
      expect(await repo.signIn.storeCode(code("del@example.com", "hash"))).toEqual(stored);
      expect(await repo.signIn.storeCode(code("keep@example.com", "hash-keep"))).toEqual(stored);
      expect((await repo.signIn.deleteUser(id))?.email).toBe("del@example.com");
      expect(await repo.signIn.findUserById(id)).toBeUndefined();
      expect(await repo.signIn.findSession(sessionId)).toBeUndefined();
      expect(await repo.signIn.findRefreshToken("rt-del")).toBeUndefined();
      // The code is gone: it cannot be used, and it no longer holds the cooldown.
      expect(await guess(repo, "del@example.com", "hash", 1)).toBeNull();
      expect(await repo.signIn.storeCode(code("del@example.com", "hash-2", 1))).toEqual(stored);
      // Another address's code stays.
      expect(await guess(repo, "keep@example.com", "hash-keep", 1)).toEqual({ userMetadata: {} });
      expect(await repo.signIn.deleteUser(id)).toBeUndefined();
    });

    it("lists users newest first, a page at a time, with the total", async () => {
      const repo = await fresh();
      for (let index = 0; index < 5; index += 1) await signIn(repo, `p${index}@example.com`, { ms: index * 1000 });
      const page = await repo.signIn.listUsers(2, 2);
      expect(page.total).toBe(5);
      expect(page.users.map((u) => u.email)).toEqual(["p2@example.com", "p1@example.com"]);
    });

    it("prunes refresh tokens revoked over 30 days ago and expired codes last sent over a day ago; keeps tokens revoked 29 days ago, live and recent codes", async () => {
      const repo = await fresh();
      const sessionId = crypto.randomUUID();
      await signIn(repo, "prune@example.com", { sessionId, refreshTokenHash: "rt-a" });
      const parent = (await repo.signIn.findRefreshToken("rt-a"))!.token;
      await repo.signIn.rotateRefreshToken({ tokenId: parent.id, sessionId, successorHash: "rt-b", now: at(0) });
      await repo.signIn.storeCode(code("old@example.com", "old"));

      const now = 31 * DAY;
      // A token used 29 days before the run is kept (its reuse is still recognised).
      const keptSession = crypto.randomUUID();
      await signIn(repo, "kept@example.com", { sessionId: keptSession, refreshTokenHash: "rt-c" });
      const kept = (await repo.signIn.findRefreshToken("rt-c"))!.token;
      await repo.signIn.rotateRefreshToken({ tokenId: kept.id, sessionId: keptSession, successorHash: "rt-d", now: at(now - 29 * DAY) });
      // A code sent 23 hours ago with a 24-hour lifetime is still live.
      await repo.signIn.storeCode(code("live@example.com", "live", now - 23 * HOUR, { ttlMs: DAY }));
      // An expired code sent 23 hours ago stays too (a day is the rule), with its cooldown.
      await repo.signIn.storeCode(code("recent@example.com", "recent", now - 23 * HOUR, { cooldownSeconds: 24 * 3600 }));

      await repo.signIn.pruneAuth({ now: at(now), revokedTokenDays: 30 });
      expect(await repo.signIn.findRefreshToken("rt-a")).toBeUndefined();
      expect(await repo.signIn.isLiveRefreshToken("rt-b")).toBe(true);
      expect((await repo.signIn.findRefreshToken("rt-c"))?.token.revokedAt).toBe(at(now - 29 * DAY).toISOString());
      expect(await guess(repo, "live@example.com", "live", now + 1)).toEqual({ userMetadata: {} });
      expect(await repo.signIn.storeCode(code("recent@example.com", "r2", now, { cooldownSeconds: 24 * 3600 }))).toEqual(refused(3600));
      // The old code's row is gone: a new code for it is stored at once, whatever the cooldown.
      expect(await repo.signIn.storeCode(code("old@example.com", "old-2", now, { cooldownSeconds: 3600 * 24 * 40 }))).toEqual(stored);
    });
  });
}
