import { and, lt } from "drizzle-orm";
import { createCodeRepository } from "./codes";
import { createSessionRepository } from "./sessions";
import { createUserRepository } from "./users";
import type { Database } from "../../../platform/db/database";
import { authCodes, authRefreshTokens } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";

export type { RefreshTokenRecord, SessionScope } from "./sessions";

/**
 * The sign-in tables, as `repo.signIn`: codes (auth-codes.ts), sessions and refresh tokens
 * (auth-sessions.ts) and users (auth-users.ts). As for the rest of the repository, every
 * guarantee that matters under concurrency (one user per e-mail, a code used once, a refresh
 * token rotated once, counters) comes from one conditional statement or one batch, never from a
 * read followed by a write.
 */

const DAY = 24 * 60 * 60;

export function createAuthRepository(db: Database) {
  return {
    ...createUserRepository(db),
    ...createCodeRepository(db),
    ...createSessionRepository(db),

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
