import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { mailDeadLetters } from "../../../platform/db/schema";
import type { MailDeadLetter } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";
import { chunks, columnsOf, type MailRowKind, type MailRowRef, type Statement, unsent, updateOf } from "./rows";

/** The mail queue's dead letters: jobs whose batch could not be recorded through every retry (the DLQ), and their retry. */
export function deadLetterQueries(db: Database) {
  return {
    /** Records dead letters (the DLQ's jobs), one per row, the latest error kept: one call. */
    async recordDeadLetters(letters: readonly { kind: MailRowKind; id: number; error: string }[], now: Date): Promise<void> {
      const [first, ...rest] = chunks(letters, 20).map((chunk) =>
        db
          .insert(mailDeadLetters)
          .values(chunk.map((l) => ({ kind: l.kind, rowId: l.id, error: l.error.slice(0, 500), deadLetteredAt: iso(now) })))
          .onConflictDoUpdate({
            target: [mailDeadLetters.kind, mailDeadLetters.rowId],
            set: { error: sql`excluded.error`, deadLetteredAt: sql`excluded.dead_lettered_at` },
          }),
      );
      if (first) await db.batch([first, ...rest]);
    },

    /** The dead letters, newest first (at most `limit`), and how many there are. */
    async deadLetters(limit: number): Promise<{ total: number; items: MailDeadLetter[] }> {
      const [items, total] = await db.batch([
        db
          .select()
          .from(mailDeadLetters)
          .orderBy(desc(mailDeadLetters.deadLetteredAt), mailDeadLetters.kind, mailDeadLetters.rowId)
          .limit(limit),
        db.select({ n: sql<number>`count(*)` }).from(mailDeadLetters),
      ]);
      return { items, total: Number(total[0]?.n ?? 0) };
    },

    /**
     * Takes dead letters back for a retry (all, or those named): each still-unsent row claimed
     * afresh (claim, lease) whatever its backoff, the dead letters deleted, in one call. The jobs
     * to enqueue; a row sent or gone meanwhile only loses its dead letter.
     */
    async retryDeadLetters(
      which: readonly { kind: MailRowKind; id: number }[] | "all",
      claim: { now: Date; lockMs: number },
    ): Promise<MailRowRef[]> {
      const letters =
        which === "all"
          ? await db.select({ kind: mailDeadLetters.kind, id: mailDeadLetters.rowId }).from(mailDeadLetters).limit(1000)
          : which;
      if (letters.length === 0) return [];
      const lease = iso(new Date(claim.now.getTime() + claim.lockMs));
      const statements: { kind: MailRowKind; claim: string; statement: Statement }[] = [];
      const deletes: Statement[] = [];
      for (const kind of ["joiner", "waitlist", "form", "parent"] as const) {
        for (const ids of chunks(letters.filter((l) => l.kind === kind).map((l) => l.id))) {
          const c = columnsOf(kind);
          const token = crypto.randomUUID();
          const set =
            kind === "joiner" || kind === "parent"
              ? { claim: token, lockedUntil: lease }
              : { notifyClaim: token, notifyLockedUntil: lease };
          statements.push({
            kind,
            claim: token,
            statement: updateOf(db, kind)
              .set(set)
              .where(and(inArray(c.t.id, ids), unsent(kind)))
              .returning({ id: c.t.id }),
          });
          deletes.push(db.delete(mailDeadLetters).where(and(eq(mailDeadLetters.kind, kind), inArray(mailDeadLetters.rowId, ids))));
        }
      }
      const results = (await db.batch([...statements.map((s) => s.statement), ...deletes] as [Statement, ...Statement[]])) as unknown[][];
      return statements.flatMap(({ kind, claim: token }, i) =>
        (results[i] as { id: number }[]).map(({ id }) => ({ kind, id, claim: token })),
      );
    },
  };
}
