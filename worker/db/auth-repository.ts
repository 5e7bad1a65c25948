import { and, count, desc, eq, gt, inArray, isNotNull, isNull, lt, lte, ne, sql } from "drizzle-orm";
import type { Database } from "./database";
import { authCodes, authRefreshTokens, authSessions, authUsers } from "./schema";
import type { AuthRefreshToken, AuthSession, AuthUser } from "./schema";

/**
 * The sign-in tables. As for the rest of the repository, every guarantee that matters under
 * concurrency (one user per e-mail, a code used once, a refresh token rotated once, counters)
 * comes from one conditional statement or one batch, never from a read followed by a write.
 */

const iso = (date: Date) => date.toISOString();

/** What ends a user's sessions: all of them, only one, or all but one. */
export type SessionScope = { userId: string; only?: string; except?: string };

const DAY = 24 * 60 * 60;

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
     * Stores a new code for the address, replacing any earlier one, unless the address is
     * within its cooldown (a code was stored less than `cooldownSeconds` ago). One upsert
     * decides, so concurrent requests for one address store (and send) one code. `codeHash`
     * null counts a request that sends nothing (an address that may not sign up) exactly like
     * one that does, so the answers cannot tell them apart. The hourly and daily caps are not
     * kept here: they count per mailbox in the counters table (worker/auth/mailbox.ts).
     */
    async storeCode(input: {
      email: string;
      codeHash: string | null;
      userMetadata: Record<string, unknown> | null;
      now: Date;
      expiresAt: Date;
      cooldownSeconds: number;
    }): Promise<{ stored: true } | { stored: false; retryAfterSeconds: number }> {
      const { now, cooldownSeconds } = input;
      const sentAt = iso(now);
      const rows = await db
        .insert(authCodes)
        .values({
          email: input.email,
          codeHash: input.codeHash,
          userMetadata: input.userMetadata,
          sentAt,
          expiresAt: iso(input.expiresAt),
          attempts: 0,
        })
        .onConflictDoUpdate({
          target: authCodes.email,
          set: {
            codeHash: sql`excluded.code_hash`,
            userMetadata: sql`excluded.user_metadata`,
            sentAt,
            expiresAt: iso(input.expiresAt),
            attempts: 0,
          },
          setWhere: lte(authCodes.sentAt, iso(new Date(now.getTime() - cooldownSeconds * 1000))),
        })
        .returning({ email: authCodes.email });
      if (rows.length === 1) return { stored: true };

      // Refused: how long until the cooldown lets a code through again.
      const [row] = await db.select({ sentAt: authCodes.sentAt }).from(authCodes).where(eq(authCodes.email, input.email)).limit(1);
      const until = row ? Date.parse(row.sentAt) + cooldownSeconds * 1000 : now.getTime();
      return { stored: false, retryAfterSeconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)) };
    },

    /**
     * Takes back a code whose e-mail could not be sent while the user waits for the answer:
     * the code cannot be used, and its cooldown no longer holds, so the user may ask again at
     * once. Only that code: a newer one is left alone.
     */
    async withdrawCode(email: string, codeHash: string): Promise<void> {
      await db
        .update(authCodes)
        .set({ codeHash: null, sentAt: iso(new Date(0)) })
        .where(and(eq(authCodes.email, email), eq(authCodes.codeHash, codeHash)));
    },

    /**
     * Makes a code unusable and nothing else: its cooldown keeps holding. For a code whose
     * e-mail failed after the answer was given (create_user false): the row ends up exactly as
     * a request for an address without a user leaves it. Only that code: a newer one is left
     * alone.
     */
    async clearCode(email: string, codeHash: string): Promise<void> {
      await db
        .update(authCodes)
        .set({ codeHash: null })
        .where(and(eq(authCodes.email, email), eq(authCodes.codeHash, codeHash)));
    },

    /**
     * One guess at the address's live code, in one statement: the guess is counted, and the
     * code used if it is right, only while the code is live (not used, not expired, fewer than
     * `maxAttempts` guesses so far). So however many guesses arrive at once, at most
     * `maxAttempts` are ever compared, and a right code is used exactly once. Resolves the
     * `data` stored with the code when the guess used it, or null.
     */
    async useCode(input: {
      email: string;
      codeHash: string;
      now: Date;
      maxAttempts: number;
    }): Promise<{ userMetadata: Record<string, unknown> } | null> {
      const rows = await db
        .update(authCodes)
        .set({
          attempts: sql`${authCodes.attempts} + 1`,
          codeHash: sql`case when ${authCodes.codeHash} = ${input.codeHash} then null else ${authCodes.codeHash} end`,
        })
        .where(
          and(
            eq(authCodes.email, input.email),
            isNotNull(authCodes.codeHash),
            gt(authCodes.expiresAt, iso(input.now)),
            lt(authCodes.attempts, input.maxAttempts),
          ),
        )
        // After the update: the hash is gone only if this guess matched it.
        .returning({ used: sql<number>`${authCodes.codeHash} is null`, userMetadata: authCodes.userMetadata });
      const row = rows[0];
      return row && Number(row.used) === 1 ? { userMetadata: row.userMetadata ?? {} } : null;
    },

    /**
     * Signs in the owner of a verified address, in one batch: creates the user if there is none
     * (with `candidate`'s id and metadata; an existing user is never changed by it), starts the
     * session with its first refresh token, and records the sign-in on the user. Returns the
     * user.
     */
    async signIn(input: {
      candidate: { id: string; email: string; userMetadata: Record<string, unknown> };
      session: { id: string; userAgent: string | null; ip: string | null };
      refreshTokenHash: string;
      now: Date;
    }): Promise<AuthUser> {
      const at = iso(input.now);
      const { candidate, session } = input;
      const [, , , users] = await db.batch([
        db
          .insert(authUsers)
          .values({ ...candidate, createdAt: at, updatedAt: at })
          .onConflictDoNothing({ target: authUsers.email }),
        db.insert(authSessions).select(
          db
            .select({
              id: sql<string>`${session.id}`.as("id"),
              userId: authUsers.id,
              createdAt: sql<string>`${at}`.as("created_at"),
              updatedAt: sql<string>`${at}`.as("updated_at"),
              refreshedAt: sql<null>`null`.as("refreshed_at"),
              userAgent: sql<string | null>`${session.userAgent}`.as("user_agent"),
              ip: sql<string | null>`${session.ip}`.as("ip"),
            })
            .from(authUsers)
            .where(eq(authUsers.email, candidate.email)),
        ),
        db.insert(authRefreshTokens).values({ tokenHash: input.refreshTokenHash, sessionId: session.id, createdAt: at }),
        db
          .update(authUsers)
          .set({ emailConfirmedAt: sql`coalesce(${authUsers.emailConfirmedAt}, ${at})`, lastSignInAt: at, updatedAt: at })
          .where(eq(authUsers.email, candidate.email))
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
        db
          .delete(authCodes)
          .where(eq(authCodes.email, db.select({ email: authUsers.email }).from(authUsers).where(eq(authUsers.id, userId)))),
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
     * Housekeeping for the cron trigger: expired codes whose last e-mail went out more than a
     * day ago (past any cooldown), and refresh tokens revoked more than
     * `revokedTokenDays` ago (a reuse of a token that old is answered "not found" rather than
     * ending the session).
     */
    async pruneAuth(input: { now: Date; revokedTokenDays: number }): Promise<void> {
      const dayAgo = iso(new Date(input.now.getTime() - DAY * 1000));
      const revokedBefore = iso(new Date(input.now.getTime() - input.revokedTokenDays * DAY * 1000));
      await db.batch([
        db.delete(authCodes).where(and(lt(authCodes.sentAt, dayAgo), lt(authCodes.expiresAt, iso(input.now)))),
        db.delete(authRefreshTokens).where(lt(authRefreshTokens.revokedAt, revokedBefore)),
      ]);
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
