import { count, isNotNull } from "drizzle-orm";
import type { Database } from "../../platform/db/database";
import { waitlist } from "../../platform/db/schema";

/** What the pages read: the confirmed count behind the page's "students waiting" claim. */
export function createPagesRepository(db: Database) {
  return {
    /**
     * How many entries are confirmed: one count over the rank index (rank_key is set exactly
     * when an entry is confirmed; the index holds those only, so SQLite never reads a row).
     * Read at most once per PAGE_CACHE_SECONDS per location (worker/features/pages/live-count.ts).
     */
    async confirmedCount(): Promise<number> {
      const [row] = await db.select({ confirmed: count() }).from(waitlist).where(isNotNull(waitlist.rankKey));
      return row?.confirmed ?? 0;
    },
  };
}
