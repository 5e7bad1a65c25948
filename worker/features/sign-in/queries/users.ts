import { count, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { authCodes, authRefreshTokens, authSessions, authUsers } from "../../../platform/db/schema";
import type { AuthUser } from "../../../platform/db/schema";

/** Sign-in's users: finding, listing (the admin routes) and deleting them with all they own. */

export function createUserRepository(db: Database) {
  return {
    async findUserByEmail(email: string): Promise<AuthUser | undefined> {
      const rows = await db.select().from(authUsers).where(eq(authUsers.email, email)).limit(1);
      return rows[0];
    },

    async findUserById(id: string): Promise<AuthUser | undefined> {
      const rows = await db.select().from(authUsers).where(eq(authUsers.id, id)).limit(1);
      return rows[0];
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
  };
}
