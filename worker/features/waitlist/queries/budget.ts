import { and, count, eq, isNull, sql } from "drizzle-orm";
import { COUNT_ON_CONFLICT, type CounterWindow } from "../../../platform/db/counters";
import type { Database } from "../../../platform/db/database";
import { joinerMail, rateLimits } from "../../../platform/db/schema";
import type { JoinerMail } from "../../../platform/db/schema";

/**
 * The daily budget of the joiner's e-mails to visitors (VISITOR_EMAIL_DAILY_BUDGET; part of the
 * waitlist's repository): one counter for the UTC day, taken from before each send, and the
 * mails it holds back, which wait in the outbox for the cron.
 */

/** The counter of the day's joiner e-mails (in the counters table; its window is the UTC day). */
export const VISITOR_MAIL_KEY = "visitor-mail-day";

export function createVisitorMailRepository(db: Database) {
  return {
    /**
     * Takes one e-mail of the day's budget when one is left, in one conditional upsert (so
     * concurrent senders never take more than `budget`): true when taken. A later day starts over.
     */
    async takeVisitorMail(window: CounterWindow, budget: number): Promise<boolean> {
      const taken = await db
        .insert(rateLimits)
        .values({ key: VISITOR_MAIL_KEY, windowStart: window.start, expiresAt: window.end, count: 1 })
        .onConflictDoUpdate({
          ...COUNT_ON_CONFLICT,
          setWhere: sql`(case when excluded.window_start > ${rateLimits.windowStart} then 0 else ${rateLimits.count} end) < ${budget}`,
        })
        .returning({ count: rateLimits.count });
      return taken.length > 0;
    },

    /** The e-mails the day `window` has sent, and the joiner e-mails not sent yet (waiting for the budget, a retry, or their sender). */
    async visitorMailOf(window: CounterWindow): Promise<{ sentToday: number; waiting: number }> {
      const [sent, unsent] = await db.batch([
        db
          .select({ n: rateLimits.count })
          .from(rateLimits)
          .where(and(eq(rateLimits.key, VISITOR_MAIL_KEY), eq(rateLimits.windowStart, window.start))),
        db.select({ n: count() }).from(joinerMail).where(isNull(joinerMail.sentAt)),
      ]);
      return { sentToday: sent[0]?.n ?? 0, waiting: unsent[0]?.n ?? 0 };
    },

    /**
     * Puts back a claimed mail the budget held: unclaimed, its attempt not counted, due at the
     * next cron run (which takes the oldest first). Only the holder of the mail's claim may.
     */
    async holdMail(mail: JoinerMail): Promise<void> {
      await db
        .update(joinerMail)
        .set({ claim: null, lockedUntil: null, attempts: sql`max(${joinerMail.attempts} - 1, 0)` })
        .where(and(eq(joinerMail.id, mail.id), isNull(joinerMail.sentAt), eq(joinerMail.claim, mail.claim ?? "")));
    },
  };
}
