import { and, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import type { joinerMail, waitlist } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";
import { columnsOf, type MailRowKind, type MailRowRef, type Statement, unsent, updateOf } from "./rows";

/** The cron's side of the mail queue: what is due and unclaimed, claimed again for the queue. */
export function dueQueries(db: Database) {
  return {
    /**
     * The cron's re-queue: claims due unsent rows of each kind whose lease lapsed (oldest first,
     * at most `limits[kind]`), each kind's with a claim of its own and the attempt counted: one
     * call. The jobs to enqueue. Notifications are claimed here too: the caller decides which go
     * single (within the hour's cap) and which wait for the digest.
     */
    async claimDue(
      limits: Record<MailRowKind, number>,
      claim: { now: Date; lockMs: number },
    ): Promise<(MailRowRef & { attempts: number })[]> {
      const at = iso(claim.now);
      const lease = iso(new Date(claim.now.getTime() + claim.lockMs));
      const statements: { kind: MailRowKind; claim: string; statement: Statement }[] = [];
      for (const kind of ["joiner", "waitlist", "form", "parent"] as const) {
        if (limits[kind] <= 0) continue;
        const c = columnsOf(kind);
        const due = and(unsent(kind), or(isNull(c.next), lte(c.next, at)), or(isNull(c.lockedUntil), lte(c.lockedUntil, at)));
        const order = kind === "waitlist" || kind === "form" ? [c.t.createdAt, c.t.id] : [c.t.id];
        const ids = db
          .select({ id: c.t.id })
          .from(c.t as typeof joinerMail)
          .where(due)
          .orderBy(...order)
          .limit(limits[kind]);
        const token = crypto.randomUUID();
        const attempts =
          kind === "joiner" || kind === "parent" ? (c.t as typeof joinerMail).attempts : (c.t as typeof waitlist).notifyAttempts;
        const set =
          kind === "joiner" || kind === "parent"
            ? { claim: token, lockedUntil: lease, attempts: sql`${attempts} + 1` }
            : { notifyClaim: token, notifyLockedUntil: lease, notifyAttempts: sql`${attempts} + 1` };
        statements.push({
          kind,
          claim: token,
          statement: updateOf(db, kind)
            .set(set)
            .where(and(inArray(c.t.id, ids), due))
            .returning({ id: c.t.id, attempts }),
        });
      }
      if (statements.length === 0) return [];
      const results = (await db.batch(statements.map((s) => s.statement) as [Statement, ...Statement[]])) as unknown[][];
      return statements.flatMap(({ kind, claim: token }, i) =>
        (results[i] as { id: number; attempts: number }[]).map((row) => ({ kind, id: row.id, claim: token, attempts: row.attempts })),
      );
    },
  };
}
