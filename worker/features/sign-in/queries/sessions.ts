import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { authRefreshTokens, authSessions, authUsers } from "../../../platform/db/schema";
import type { AuthRefreshToken, AuthSession, AuthUser } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";

/**
 * Sessions and their refresh tokens: signing in, finding, rotating and ending them. Every
 * guarantee under concurrency comes from one conditional statement or one batch.
 */

/** What ends a user's sessions: all of them, only one, or all but one. */
export type SessionScope = { userId: string; only?: string; except?: string };

export type RefreshTokenRecord = { token: AuthRefreshToken; session: AuthSession; user: AuthUser };

/** The sessions a scope selects, as a subquery. */
const sessionsIn = ({ userId, only, except }: SessionScope) =>
  and(
    eq(authSessions.userId, userId),
    only === undefined ? undefined : eq(authSessions.id, only),
    except === undefined ? undefined : ne(authSessions.id, except),
  );

export function createSessionRepository(db: Database) {
  return {
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
  };
}
