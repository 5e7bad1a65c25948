import { and, count, desc, eq, gt, inArray, isNotNull, isNull, lt, lte, ne, sql } from "drizzle-orm";
import type { Database } from "./repository";
import { authCodes, authRateLimits, authRefreshTokens, authSessions, authUsers } from "./schema";
import type { AuthRefreshToken, AuthSession, AuthUser } from "./schema";

/**
 * The sign-in tables. As for the rest of the repository, every guarantee that matters under
 * concurrency (one user per e-mail, a code used once, a refresh token rotated once, counters)
 * comes from one conditional statement or one batch, never from a read followed by a write.
 */

const iso = (date: Date) => date.toISOString();

/** What ends a user's sessions: all of them, only one, or all but one. */
export type SessionScope = { userId: string; only?: string; except?: string };

export type RefreshTokenRecord = { token: AuthRefreshToken; session: AuthSession; user: AuthUser };

export function createAuthRepository(db: Database) {
  /** The sessions a scope selects, as a subquery. */
  const sessionsIn = ({ userId, only, except }: SessionScope) =>
    and(
      eq(authSessions.userId, userId),
      only === undefined ? undefined : eq(authSessions.id, only),
      except === undefined ? undefined : ne(authSessions.id, except),
    );

  return {
    async findUserByEmail(email: string): Promise<AuthUser | undefined> {
      const rows = await db.select().from(authUsers).where(eq(authUsers.email, email)).limit(1);
      return rows[0];
    },

    async findUserById(id: string): Promise<AuthUser | undefined> {
      const rows = await db.select().from(authUsers).where(eq(authUsers.id, id)).limit(1);
      return rows[0];
    },

    /**
     * The user with this e-mail, created with `candidate`'s id and metadata if there is none.
     * One upsert: concurrent first requests for an address create one user.
     */
    async findOrCreateUser(candidate: { id: string; email: string; userMetadata: Record<string, unknown>; now: Date }): Promise<AuthUser> {
      const at = iso(candidate.now);
      const rows = await db
        .insert(authUsers)
        .values({ id: candidate.id, email: candidate.email, userMetadata: candidate.userMetadata, createdAt: at, updatedAt: at })
        // A no-op update, so that RETURNING gives the existing row as well.
        .onConflictDoUpdate({ target: authUsers.email, set: { email: sql`${authUsers.email}` } })
        .returning();
      return rows[0]!;
    },

    /**
     * Stores a new code for the user, replacing any earlier one, unless the previous code was
     * sent less than `cooldownSeconds` ago. Returns whether the code was stored; a concurrent
     * second request within the cooldown is refused by the same statement.
     */
    async storeCode(input: { userId: string; codeHash: string; now: Date; expiresAt: Date; cooldownSeconds: number }): Promise<boolean> {
      const sentAt = iso(input.now);
      const cooledDownBefore = iso(new Date(input.now.getTime() - input.cooldownSeconds * 1000));
      const rows = await db
        .insert(authCodes)
        .values({ userId: input.userId, codeHash: input.codeHash, sentAt, expiresAt: iso(input.expiresAt), failedAttempts: 0 })
        .onConflictDoUpdate({
          target: authCodes.userId,
          set: { codeHash: input.codeHash, sentAt, expiresAt: iso(input.expiresAt), failedAttempts: 0 },
          setWhere: lte(authCodes.sentAt, cooledDownBefore),
        })
        .returning({ userId: authCodes.userId });
      return rows.length === 1;
    },

    /** When the user's last code was sent, for the "try again in N seconds" answer. */
    async codeSentAt(userId: string): Promise<Date | undefined> {
      const rows = await db.select({ sentAt: authCodes.sentAt }).from(authCodes).where(eq(authCodes.userId, userId)).limit(1);
      return rows[0] ? new Date(rows[0].sentAt) : undefined;
    },

    /**
     * Takes back a code whose e-mail could not be sent, so the cooldown does not make the user
     * wait for a code that never arrived. Only that code: a newer one is left alone.
     */
    async withdrawCode(userId: string, codeHash: string): Promise<void> {
      await db
        .update(authCodes)
        .set({ codeHash: null, sentAt: iso(new Date(0)) })
        .where(and(eq(authCodes.userId, userId), eq(authCodes.codeHash, codeHash)));
    },

    /**
     * Uses the code if it is the user's live code: right hash, not expired, not worn out by
     * wrong attempts. One conditional update, so of any number of concurrent verifies of the
     * same code exactly one gets true.
     */
    async consumeCode(input: { userId: string; codeHash: string; now: Date; maxAttempts: number }): Promise<boolean> {
      const rows = await db
        .update(authCodes)
        .set({ codeHash: null })
        .where(
          and(
            eq(authCodes.userId, input.userId),
            eq(authCodes.codeHash, input.codeHash),
            gt(authCodes.expiresAt, iso(input.now)),
            lt(authCodes.failedAttempts, input.maxAttempts),
          ),
        )
        .returning({ userId: authCodes.userId });
      return rows.length === 1;
    },

    /** Counts a wrong attempt against the user's live code; the last allowed one kills it. */
    async recordWrongCode(input: { userId: string; maxAttempts: number }): Promise<void> {
      await db
        .update(authCodes)
        .set({
          failedAttempts: sql`${authCodes.failedAttempts} + 1`,
          codeHash: sql`case when ${authCodes.failedAttempts} + 1 >= ${input.maxAttempts} then null else ${authCodes.codeHash} end`,
        })
        .where(and(eq(authCodes.userId, input.userId), isNotNull(authCodes.codeHash)));
    },

    /**
     * Starts a session after a verified code: the session, its first refresh token and the
     * user's sign-in times in one batch (all or nothing). Returns the updated user.
     */
    async createSession(input: {
      session: { id: string; userId: string; userAgent: string | null; ip: string | null };
      refreshTokenHash: string;
      now: Date;
    }): Promise<AuthUser> {
      const at = iso(input.now);
      const [, , users] = await db.batch([
        db.insert(authSessions).values({ ...input.session, createdAt: at, updatedAt: at }),
        db.insert(authRefreshTokens).values({ tokenHash: input.refreshTokenHash, sessionId: input.session.id, createdAt: at }),
        db
          .update(authUsers)
          .set({ emailConfirmedAt: sql`coalesce(${authUsers.emailConfirmedAt}, ${at})`, lastSignInAt: at, updatedAt: at })
          .where(eq(authUsers.id, input.session.userId))
          .returning(),
      ]);
      return users[0]!;
    },

    /** A session with its user, when both still exist. */
    async findSession(sessionId: string): Promise<{ session: AuthSession; user: AuthUser } | undefined> {
      const rows = await db
        .select({ session: authSessions, user: authUsers })
        .from(authSessions)
        .innerJoin(authUsers, eq(authUsers.id, authSessions.userId))
        .where(eq(authSessions.id, sessionId))
        .limit(1);
      return rows[0];
    },

    /** A refresh token by digest, with its session and user when both still exist. */
    async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
      const rows = await db
        .select({ token: authRefreshTokens, session: authSessions, user: authUsers })
        .from(authRefreshTokens)
        .innerJoin(authSessions, eq(authSessions.id, authRefreshTokens.sessionId))
        .innerJoin(authUsers, eq(authUsers.id, authSessions.userId))
        .where(eq(authRefreshTokens.tokenHash, tokenHash))
        .limit(1);
      return rows[0];
    },

    /**
     * Rotates a live refresh token: revokes it, naming its successor, and stores the successor,
     * in one batch. The successor is only inserted if this batch's revocation named it, and
     * its digest is unique, so a racing second rotation of the same token stores nothing.
     */
    async rotateRefreshToken(input: { tokenId: number; sessionId: string; successorHash: string; now: Date }): Promise<void> {
      const at = iso(input.now);
      await db.batch([
        db
          .update(authRefreshTokens)
          .set({ revokedAt: at, replacedByHash: input.successorHash })
          .where(and(eq(authRefreshTokens.id, input.tokenId), isNull(authRefreshTokens.revokedAt))),
        db
          .insert(authRefreshTokens)
          .select(
            db
              .select({
                id: sql<number>`null`.as("id"),
                tokenHash: sql<string>`${input.successorHash}`.as("token_hash"),
                sessionId: authSessions.id,
                revokedAt: sql<null>`null`.as("revoked_at"),
                replacedByHash: sql<null>`null`.as("replaced_by_hash"),
                createdAt: sql<string>`${at}`.as("created_at"),
              })
              .from(authSessions)
              .where(
                and(
                  eq(authSessions.id, input.sessionId),
                  sql`exists (select 1 from ${authRefreshTokens} where ${authRefreshTokens.id} = ${input.tokenId} and ${authRefreshTokens.replacedByHash} = ${input.successorHash})`,
                ),
              ),
          )
          .onConflictDoNothing(),
        db.update(authSessions).set({ refreshedAt: at, updatedAt: at }).where(eq(authSessions.id, input.sessionId)),
      ]);
    },

    /** Whether a refresh token exists and has not been used. */
    async isLiveRefreshToken(tokenHash: string): Promise<boolean> {
      const rows = await db
        .select({ id: authRefreshTokens.id })
        .from(authRefreshTokens)
        .where(and(eq(authRefreshTokens.tokenHash, tokenHash), isNull(authRefreshTokens.revokedAt)))
        .limit(1);
      return rows.length === 1;
    },

    /** Ends sessions with their refresh tokens (one batch). Returns how many sessions ended. */
    async deleteSessions(scope: SessionScope): Promise<number> {
      const ids = db.select({ id: authSessions.id }).from(authSessions).where(sessionsIn(scope));
      const [, deleted] = await db.batch([
        db.delete(authRefreshTokens).where(inArray(authRefreshTokens.sessionId, ids)),
        db.delete(authSessions).where(sessionsIn(scope)).returning({ id: authSessions.id }),
      ]);
      return deleted.length;
    },

    /** Deletes a user with their sessions, tokens and code (one batch). */
    async deleteUser(userId: string): Promise<AuthUser | undefined> {
      const ids = db.select({ id: authSessions.id }).from(authSessions).where(eq(authSessions.userId, userId));
      const [, , , users] = await db.batch([
        db.delete(authRefreshTokens).where(inArray(authRefreshTokens.sessionId, ids)),
        db.delete(authSessions).where(eq(authSessions.userId, userId)),
        db.delete(authCodes).where(eq(authCodes.userId, userId)),
        db.delete(authUsers).where(eq(authUsers.id, userId)).returning(),
      ]);
      return users[0];
    },

    /** Newest first, one page, with the total for pagination. */
    async listUsers(page: number, perPage: number): Promise<{ users: AuthUser[]; total: number }> {
      const [users, totals] = await db.batch([
        db
          .select()
          .from(authUsers)
          .orderBy(desc(authUsers.createdAt), desc(authUsers.id))
          .limit(perPage)
          .offset((page - 1) * perPage),
        db.select({ total: count() }).from(authUsers),
      ]);
      return { users, total: totals[0]?.total ?? 0 };
    },

    /**
     * Counts one request against `key` in the fixed window starting at `windowStart` (Unix
     * seconds) and returns the count so far in that window. A later window starts over at 1.
     */
    async countRequest(key: string, windowStart: number): Promise<number> {
      const rows = await db
        .insert(authRateLimits)
        .values({ key, windowStart, count: 1 })
        .onConflictDoUpdate({
          target: authRateLimits.key,
          set: {
            count: sql`case when excluded.window_start > ${authRateLimits.windowStart} then 1 else ${authRateLimits.count} + 1 end`,
            windowStart: sql`max(excluded.window_start, ${authRateLimits.windowStart})`,
          },
        })
        .returning({ count: authRateLimits.count });
      return rows[0]!.count;
    },

    /**
     * Housekeeping for the cron trigger: counters of past windows, codes long expired, and
     * refresh tokens revoked more than `revokedTokenDays` ago (a reuse of a token that old is
     * answered "not found" rather than ending the session).
     */
    async pruneAuth(input: { now: Date; oldestWindowStart: number; revokedTokenDays: number }): Promise<void> {
      const dayAgo = iso(new Date(input.now.getTime() - 24 * 60 * 60 * 1000));
      const revokedBefore = iso(new Date(input.now.getTime() - input.revokedTokenDays * 24 * 60 * 60 * 1000));
      await db.batch([
        db.delete(authRateLimits).where(lt(authRateLimits.windowStart, input.oldestWindowStart)),
        db.delete(authCodes).where(lt(authCodes.expiresAt, dayAgo)),
        db.delete(authRefreshTokens).where(lt(authRefreshTokens.revokedAt, revokedBefore)),
      ]);
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
