import { desc } from "drizzle-orm";
import type { Database } from "../../platform/db/database";
import { type DevMail, type DevMailInput, devMailbox } from "../../platform/db/schema";
import { iso } from "../../platform/db/sql";

/** The dev mailbox's own rows: what the app "sent" in development, shown at /dev/mailbox. */
export function createDevMailQueries(db: Database) {
  return {
    /** Keeps an e-mail that has no delivery record of its own (a sign-in code) in the dev mailbox. */
    async insert(mail: DevMailInput, now: Date): Promise<void> {
      await db.insert(devMailbox).values({ ...mail, createdAt: iso(now) });
    },

    /** Newest first. */
    async list(limit = 100): Promise<DevMail[]> {
      return db.select().from(devMailbox).orderBy(desc(devMailbox.id)).limit(limit);
    },
  };
}
