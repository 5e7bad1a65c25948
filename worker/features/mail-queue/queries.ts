import { and, desc, eq, getTableColumns, getTableName, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { CounterWindow } from "../../platform/db/counters";
import type { Database } from "../../platform/db/database";
import { devMailbox, formSubmissions, joinerMail, mailDeadLetters, parentalRequests, rateLimits, waitlist } from "../../platform/db/schema";
import type { DevMailInput, FormSubmission, JoinerMail, MailDeadLetter, ParentalRequest, WaitlistEntry } from "../../platform/db/schema";
import { iso } from "../../platform/db/sql";

/**
 * The mail queue's side of the database (worker/features/mail-queue/consumer.ts): a batch of jobs
 * is claimed and read in ONE call (claimBatch), its outcomes recorded in ONE call (recordBatch),
 * over the four outboxes (hwh_joiner_mail, the notification columns of hwh_waitlist and
 * hwh_form_submissions, hwh_parental_requests); and the dead letters of jobs whose batch could not
 * be recorded. Statements bind at most 90 values each (D1's limit is 100).
 */

/** An outbox row as a job names it (MailJob without its claim). */
export type MailRowKind = MailDeadLetter["kind"];
export type MailRowRef = { kind: MailRowKind; id: number; claim: string };

/** What claimBatch hands back: every row this batch now holds (claim `batchClaim`), with what its message needs. */
export type ClaimedBatch = {
  joiner: JoinerMail[];
  /** The joiner mails' entries, with a welcome's place (null: not confirmed). */
  entries: (WaitlistEntry & { place: number | null })[];
  waitlist: WaitlistEntry[];
  form: FormSubmission[];
  parent: ParentalRequest[];
  /** How many joiner e-mails of the day's visitor budget this batch took (at most its claimed joiner mails). */
  budgetTaken: number;
};

export type BatchClaim = {
  /** The batch's own claim token, written on every row it takes. */
  claim: string;
  now: Date;
  lockMs: number;
  /** The day's visitor e-mail budget (VISITOR_EMAIL_DAILY_BUDGET) and its counter's key and window. */
  budget: { key: string; window: CounterWindow; max: number };
};

/** What became of one row, for recordBatch. */
export type RowOutcome =
  | { kind: MailRowKind; id: number; outcome: "sent"; devMail?: DevMailInput }
  | { kind: MailRowKind; id: number; outcome: "failed"; error: string; nextAttemptAt: Date }
  /** Put back unsent and unclaimed, its attempt not counted: over the visitor budget (joiner) or the hour's cap (notifications, for the digest). */
  | { kind: MailRowKind; id: number; outcome: "held" };

const CHUNK = 45;
function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

type Statement = Parameters<Database["batch"]>[0][number];

/** The outbox columns of each kind's table, named alike. */
function columnsOf(kind: MailRowKind) {
  if (kind === "joiner")
    return { t: joinerMail, claim: joinerMail.claim, lockedUntil: joinerMail.lockedUntil, next: joinerMail.nextAttemptAt };
  if (kind === "parent")
    return {
      t: parentalRequests,
      claim: parentalRequests.claim,
      lockedUntil: parentalRequests.lockedUntil,
      next: parentalRequests.nextAttemptAt,
    };
  const t = kind === "waitlist" ? waitlist : formSubmissions;
  return { t, claim: t.notifyClaim, lockedUntil: t.notifyLockedUntil, next: t.notifyNextAttemptAt };
}

function unsent(kind: MailRowKind): SQL {
  if (kind === "joiner") return isNull(joinerMail.sentAt);
  if (kind === "parent") return isNull(parentalRequests.sentAt);
  return eq((kind === "waitlist" ? waitlist : formSubmissions).emailSent, false);
}

/**
 * Which rows of `refs` a batch may take: unsent, and either still holding the job's claim, or
 * free (its lease lapsed, or released) and due (past its backoff). A row the cron or another
 * batch claimed since holds another claim under a live lease: not taken.
 */
function takeable(kind: MailRowKind, refs: MailRowRef[], now: Date): SQL {
  const c = columnsOf(kind);
  const at = iso(now);
  return and(
    unsent(kind),
    inArray(c.t.id, [...new Set(refs.map((ref) => ref.id))]),
    or(
      inArray(c.claim, [...new Set(refs.map((ref) => ref.claim))]),
      and(or(isNull(c.lockedUntil), lte(c.lockedUntil, at)), or(isNull(c.next), lte(c.next, at))),
    ),
  ) as SQL;
}

/** The place of a confirmed entry (as repo.waitlist.placeOf), as a column of a select over `w`. */
const outer = sql.identifier(getTableName(waitlist));
const placeColumn = sql<number | null>`case when ${outer}.rank_key is null or ${outer}.confirm_seq is null then null else 1
  + (select count(*) from ${waitlist} b where b.rank_key < ${outer}.rank_key)
  + (select count(*) from ${waitlist} t where t.rank_key = ${outer}.rank_key and t.confirm_seq < ${outer}.confirm_seq) end`;

export function createMailQueueRepository(db: Database) {
  /**
   * An update of one outbox's table: drizzle types each table apart, and the four share their
   * outbox columns only by name (columnsOf), so the statement is built untyped, once, here.
   */
  // biome-ignore lint/suspicious/noExplicitAny: see above; every caller names only columns the table has.
  const updateOf = (kind: MailRowKind): any => db.update(columnsOf(kind).t as typeof joinerMail);
  return {
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
            statement: updateOf(kind)
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
          statement: updateOf(kind)
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
