import { and, eq, getTableColumns, getTableName, inArray, sql } from "drizzle-orm";
import type { CounterWindow } from "../../../platform/db/counters";
import type { Database } from "../../../platform/db/database";
import {
  devMailbox,
  formSubmissions,
  joinerMail,
  mailDeadLetters,
  parentalRequests,
  rateLimits,
  waitlist,
} from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";
import { deadLetterQueries } from "./dead-letters";
import { dueQueries } from "./due";
import {
  type BatchClaim,
  chunks,
  type ClaimedBatch,
  columnsOf,
  type MailRowKind,
  type MailRowRef,
  type RowOutcome,
  type Statement,
  takeable,
  unsent,
  updateOf as updateRow,
} from "./rows";

export type { BatchClaim, ClaimedBatch, MailRowKind, MailRowRef, RowOutcome } from "./rows";

/**
 * The mail queue's side of the database (worker/features/mail-queue/consumer.ts): a batch of jobs
 * is claimed and read in ONE call (claimBatch), its outcomes recorded in ONE call (recordBatch),
 * over the four outboxes (hwh_joiner_mail, the notification columns of hwh_waitlist and
 * hwh_form_submissions, hwh_parental_requests); and the dead letters of jobs whose batch could not
 * be recorded. Statements bind at most 90 values each (D1's limit is 100).
 */

/** The place of a confirmed entry (as repo.waitlist.placeOf), as a column of a select over `w`. */
const outer = sql.identifier(getTableName(waitlist));
const placeColumn = sql<number | null>`case when ${outer}.rank_key is null or ${outer}.confirm_seq is null then null else 1
  + (select count(*) from ${waitlist} b where b.rank_key < ${outer}.rank_key)
  + (select count(*) from ${waitlist} t where t.rank_key = ${outer}.rank_key and t.confirm_seq < ${outer}.confirm_seq) end`;

export function createMailQueueRepository(db: Database) {
  const updateOf = (kind: MailRowKind) => updateRow(db, kind);
  return {
    ...deadLetterQueries(db),
    ...dueQueries(db),
    /**
     * Claims every job's row this batch may take (takeable) with `batch.claim` and a fresh lease,
     * reads the joiner mails' entries (with a welcome's place), and takes the day's visitor budget
     * for all the claimed joiner mails at once (at most what is left): ONE database call.
     */
    async claimBatch(refs: readonly MailRowRef[], batch: BatchClaim): Promise<ClaimedBatch> {
      const lease = iso(new Date(batch.now.getTime() + batch.lockMs));
      const statements: { kind: MailRowKind | "entries" | "before" | "budget"; statement: Statement }[] = [];
      for (const kind of ["joiner", "waitlist", "form", "parent"] as const) {
        for (const chunk of chunks(refs.filter((ref) => ref.kind === kind))) {
          const set =
            kind === "joiner" || kind === "parent"
              ? { claim: batch.claim, lockedUntil: lease }
              : { notifyClaim: batch.claim, notifyLockedUntil: lease };
          statements.push({
            kind,
            statement: updateOf(kind)
              .set(set)
              .where(takeable(kind, chunk, batch.now))
              .returning(),
          });
        }
      }
      const joiners = refs.some((ref) => ref.kind === "joiner");
      if (joiners) {
        const mine = sql`(select count(*) from ${joinerMail} m where m.claim = ${batch.claim})`;
        const { key, window, max } = batch.budget;
        statements.push(
          {
            kind: "entries",
            statement: db
              .select({ ...getTableColumns(waitlist), place: placeColumn })
              .from(waitlist)
              .where(inArray(waitlist.id, db.select({ id: joinerMail.entryId }).from(joinerMail).where(eq(joinerMail.claim, batch.claim)))),
          },
          {
            kind: "before",
            statement: db
              .select({ count: rateLimits.count })
              .from(rateLimits)
              .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, window.start))),
          },
          {
            // Takes min(claimed, what is left) in one upsert; a later day starts over; never lowers a count past the budget.
            kind: "budget",
            statement: db
              .insert(rateLimits)
              .select(sql`select ${key}, ${window.start}, ${window.end}, min(${mine}, ${max}) where ${mine} > 0`)
              .onConflictDoUpdate({
                target: rateLimits.key,
                set: {
                  count: sql`case when excluded.window_start > ${rateLimits.windowStart} then excluded.count
                    else max(${rateLimits.count}, min(${rateLimits.count} + ${mine}, ${max})) end`,
                  windowStart: sql`max(excluded.window_start, ${rateLimits.windowStart})`,
                  expiresAt: sql`max(excluded.expires_at, ${rateLimits.expiresAt})`,
                },
              })
              .returning({ count: rateLimits.count }),
          },
        );
      }
      const claimed: ClaimedBatch = { joiner: [], entries: [], waitlist: [], form: [], parent: [], budgetTaken: 0 };
      if (statements.length === 0) return claimed;
      const results = (await db.batch(statements.map((s) => s.statement) as [Statement, ...Statement[]])) as unknown[][];
      let before = 0;
      statements.forEach(({ kind }, i) => {
        const rows = results[i] ?? [];
        if (kind === "before") before = (rows[0] as { count: number } | undefined)?.count ?? 0;
        else if (kind === "budget") {
          const after = (rows[0] as { count: number } | undefined)?.count;
          claimed.budgetTaken = after === undefined ? 0 : Math.max(0, after - before);
        } else if (kind === "entries") claimed.entries = rows as ClaimedBatch["entries"];
        else (claimed[kind] as unknown[]).push(...rows);
      });
      return claimed;
    },

    /**
     * Records every outcome of a batch in ONE call: sent (with the dev mailbox's copies; the
     * row's dead letter, if any, deleted), failed with the next attempt, held; each only while
     * the row still holds `batchClaim` (sent is a fact whoever holds it). `giveBack`: visitor
     * budget taken but not used (failed, held or nothing to say), returned to the day's counter.
     */
    async recordBatch(
      outcomes: readonly RowOutcome[],
      batch: { claim: string; now: Date; giveBack: number; budget: BatchClaim["budget"] },
    ) {
      const at = iso(batch.now);
      const statements: Statement[] = [];
      const mails = outcomes.flatMap((o) => (o.outcome === "sent" && o.devMail ? [o.devMail] : []));
      for (const chunk of chunks(mails, 12))
        statements.push(db.insert(devMailbox).values(chunk.map((mail) => ({ ...mail, createdAt: at }))));
      for (const kind of ["joiner", "waitlist", "form", "parent"] as const) {
        const c = columnsOf(kind);
        const of = (outcome: RowOutcome["outcome"]) => outcomes.filter((o) => o.kind === kind && o.outcome === outcome).map((o) => o.id);
        for (const ids of chunks(of("sent"))) {
          if (kind === "joiner" || kind === "parent") {
            const t = kind === "joiner" ? joinerMail : parentalRequests;
            statements.push(
              db
                .update(t)
                .set({ sentAt: at, lastError: null, nextAttemptAt: null, lockedUntil: null, claim: null })
                .where(inArray(t.id, ids)),
            );
          } else {
            const delivered = {
              emailSent: true,
              emailSentAt: at,
              notifyLastError: null,
              notifyNextAttemptAt: null,
              notifyLockedUntil: null,
              notifyClaim: null,
            };
            statements.push(
              kind === "waitlist"
                ? db
                    .update(waitlist)
                    .set({ ...delivered, updatedAt: at })
                    .where(inArray(waitlist.id, ids))
                : db.update(formSubmissions).set(delivered).where(inArray(formSubmissions.id, ids)),
            );
          }
          statements.push(db.delete(mailDeadLetters).where(and(eq(mailDeadLetters.kind, kind), inArray(mailDeadLetters.rowId, ids))));
        }
        const held = and(eq(c.claim, batch.claim), unsent(kind));
        for (const ids of chunks(of("held"))) {
          if (kind === "joiner" || kind === "parent") {
            const t = kind === "joiner" ? joinerMail : parentalRequests;
            statements.push(
              db
                .update(t)
                .set({ claim: null, lockedUntil: null, attempts: sql`max(${t.attempts} - 1, 0)` })
                .where(and(inArray(t.id, ids), held)),
            );
          } else {
            const t = kind === "waitlist" ? waitlist : formSubmissions;
            statements.push(
              updateOf(kind)
                .set({
                  notifyAttempts: sql`max(${t.notifyAttempts} - 1, 0)`,
                  notifyNextAttemptAt: null,
                  notifyLockedUntil: null,
                  notifyClaim: null,
                })
                .where(and(inArray(t.id, ids), held)),
            );
          }
        }
        for (const o of outcomes) {
          if (o.kind !== kind || o.outcome !== "failed") continue;
          const error = o.error.slice(0, 500);
          const next = iso(o.nextAttemptAt);
          const which = and(eq(c.t.id, o.id), held);
          statements.push(
            kind === "joiner" || kind === "parent"
              ? updateOf(kind).set({ lastError: error, nextAttemptAt: next, lockedUntil: null, claim: null }).where(which)
              : updateOf(kind)
                  .set({ notifyLastError: error, notifyNextAttemptAt: next, notifyLockedUntil: null, notifyClaim: null })
                  .where(which),
          );
        }
      }
      if (batch.giveBack > 0) {
        const { key, window } = batch.budget;
        statements.push(
          db
            .update(rateLimits)
            .set({ count: sql`max(${rateLimits.count} - ${batch.giveBack}, 0)` })
            .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, window.start))),
        );
      }
      const [first, ...rest] = statements;
      if (first) await db.batch([first, ...rest]);
    },

    /**
     * Counts `n` events against `key` in its window in one upsert (a later window starts over at
     * n): the count so far, these included (the cron's notifications against the hour's singles).
     */
    async countMany(key: string, window: CounterWindow, n: number): Promise<number> {
      const rows = await db
        .insert(rateLimits)
        .values({ key, windowStart: window.start, expiresAt: window.end, count: n })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`case when excluded.window_start > ${rateLimits.windowStart} then ${n} else ${rateLimits.count} + ${n} end`,
            windowStart: sql`max(excluded.window_start, ${rateLimits.windowStart})`,
            expiresAt: sql`max(excluded.expires_at, ${rateLimits.expiresAt})`,
          },
        })
        .returning({ count: rateLimits.count });
      return rows[0]!.count;
    },
  };
}
