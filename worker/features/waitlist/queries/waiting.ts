import { and, eq, getTableColumns, inArray, type SQL, sql } from "drizzle-orm";
import type { CounterWindow } from "../../../platform/db/counters";
import { rateLimits } from "../../../platform/db/schema";
import type { Database } from "../../../platform/db/database";
import { type FirstClaim, newClaim } from "../../notifications/queries";
import { iso } from "../../../platform/db/sql";
import { type ConfirmWrite, confirmMailOfMany, confirmingStatements, type QueueMail, welcomeStatements } from "./journey";
import { joinerMail, waitlist } from "../../../platform/db/schema";
import type { JoinerMail, WaitlistEntry } from "../../../platform/db/schema";
import { type JoinInput, type JoinResult, newEntryValues, type WaitlistColumns } from "./join";
import { confirmedEventStatements, joinedEventStatements } from "../../webhooks/queries/record";

/**
 * A join that waited on the joins queue (worker/features/joins), as the consumer stores it: the
 * input, when the visitor was answered (the entry's created_at), its mailbox key and the counter
 * of that mailbox's daily cap on joiner e-mails, the referral code it came with and its random
 * value, and the site its e-mail's links use.
 */
export type WaitingJoin = JoinInput & {
  at: Date;
  mailboxKey: string;
  capKey: string;
  ref: string | null;
  referralJoin: string;
  origin: string;
  /** With double opt-in off: the confirmation the join makes at once (then a welcome instead of a confirmation e-mail). */
  confirm?: ConfirmWrite;
};

/** What a batch of waiting joins shares: the notification's lease and hourly budget, the joiner mail's claim, the daily cap's window and allowance. */
export type WaitingBatch = {
  claim: FirstClaim;
  mail: Omit<QueueMail, "origin">;
  cap: { window: CounterWindow; max: number };
};

/** A counted event of `excluded.count` events at once (COUNT_ON_CONFLICT for many). */
const COUNT_MANY_ON_CONFLICT = {
  target: rateLimits.key,
  set: {
    count: sql`case when excluded.window_start > ${rateLimits.windowStart} then excluded.count else ${rateLimits.count} + excluded.count end`,
    windowStart: sql`max(excluded.window_start, ${rateLimits.windowStart})`,
    expiresAt: sql`max(excluded.expires_at, ${rateLimits.expiresAt})`,
  },
};

/** The joins that waited on the joins queue, stored many in one call (worker/features/joins). */
export function waitingJoinQueries(db: Database) {
  return {
    /**
     * Stores joins that waited on the joins queue, any number (the consumer's batch: up to 100)
     * in one batch of six statements, whatever their count: each a new entry as `join` stores it
     * with a confirmation journey (its notification claimed and counted against the hour's single
     * e-mails, its known referral kept, its confirmation e-mail queued within its mailbox's daily
     * cap). An address already on the list, by an earlier join or an earlier delivery of the same
     * join, is left as it is and not returned (nobody can be told the 409 any more); so is the
     * second of two waiting joins of one address. Every statement reads the joins from one JSON
     * parameter (json_each), so the count never meets the bound parameters' limit.
     * The stored ones, in the order given, as `join`'s results.
     */
    async joinWaiting(joins: readonly WaitingJoin[], batch: WaitingBatch): Promise<Extract<JoinResult, { outcome: "joined" }>[]> {
      if (joins.length === 0) return [];
      const rows = joins.map((one) => {
        const values = { ...newEntryValues(one, iso(one.at), newClaim(batch.claim)), mailboxKey: one.mailboxKey };
        const columns = getTableColumns(waitlist);
        return {
          ...Object.fromEntries(
            Object.entries(values).map(([key, value]) => [
              columns[key as keyof WaitlistColumns].name,
              typeof value === "boolean" ? Number(value) : value,
            ]),
          ),
          ref: one.ref,
          referral_join: one.referralJoin,
          cap_key: one.capKey,
          origin: one.origin,
          // Not a column (insert-select takes only the table's): which confirmation is this join's (its webhook event).
          confirm_write_claim: one.confirm?.claim ?? null,
        };
      });
      const json = JSON.stringify(rows);
      const field = (name: string) => sql`json_extract(w.value, ${`$.${name}`})`;
      // Only a code that exists now is kept: an unknown one is dropped and the join goes on (as in `join`).
      const known = sql`(select r.referral_code from ${waitlist} r where r.referral_code = ${field("ref")})`;
      const given = new Set(Object.keys(rows[0]!));
      // insert ... select names every column in the table's order: each takes the join's value,
      // the referral's, or the column's default (the id its autoincrement).
      const select = Object.values(getTableColumns(waitlist)).map((column) => {
        if (column.name === "referred_by") return known;
        if (column.name === "referral_join") return sql`case when ${known} is not null then ${field("referral_join")} end`;
        if (column.name !== "id" && given.has(column.name)) return field(column.name);
        return column.default === undefined || column.name === "id" ? sql`null` : sql`${column.mapToDriverValue(column.default)}`;
      });
      const insert = db
        .insert(waitlist)
        .select(sql`select ${sql.join(select, sql`, `)} from json_each(${json}) w where true`)
        .onConflictDoNothing({ target: waitlist.email });
      // The entries this call stored: each with its own new claim (an entry there before keeps its own).
      const stored = sql`join json_each(${json}) w on j.email = ${field("email")} and j.notify_claim = ${field("notify_claim")}`;
      const budget = batch.claim.budget
        ? [
            db
              .insert(rateLimits)
              .select(
                sql`select ${batch.claim.budget.key}, ${batch.claim.budget.window.start}, ${batch.claim.budget.window.end}, count(*) from ${waitlist} j ${stored} where true having count(*) > 0`,
              )
              .onConflictDoUpdate(COUNT_MANY_ON_CONFLICT)
              .returning({ count: rateLimits.count }),
          ]
        : [];
      // Double opt-in off: each entry this call stored is confirmed at once, with its welcome, as
      // a join confirmed at once is (five statements each); the confirmation e-mails after them
      // then find nothing unconfirmed.
      const confirming = joins.flatMap((one, i) =>
        one.confirm
          ? [
              ...confirmingStatements(
                db,
                and(
                  eq(waitlist.email, one.email),
                  eq(waitlist.notifyClaim, String((rows[i] as Record<string, unknown>).notify_claim)),
                ) as SQL,
                one.email,
                one.confirm,
              ),
              ...welcomeStatements(
                db,
                one.email,
                one.confirm.claim,
                { key: one.capKey, window: batch.cap.window, max: batch.cap.max },
                { ...batch.mail, origin: one.origin },
              ),
            ]
          : [],
      );
      // The webhooks' events (issue 25) of the entries this call stored, after every write: each
      // one's waitlist.joined, and with double opt-in off its confirmation's events.
      const at = batch.claim.now;
      const events = [
        ...joinedEventStatements(db, { which: sql`true`, join: stored }, at),
        ...(joins.some((one) => one.confirm)
          ? confirmedEventStatements(db, { which: sql`j.confirm_claim = ${field("confirm_write_claim")}`, join: stored }, at)
          : []),
      ];
      const mail = confirmMailOfMany(db, stored, batch.cap.window, batch.cap.max, batch.mail);
      const ofThisCall = inArray(waitlist.id, sql`(select j.id from ${waitlist} j ${stored})`);
      const entries = db.select().from(waitlist).where(ofThisCall).orderBy(waitlist.id);
      const mails = db
        .select()
        .from(joinerMail)
        .where(and(inArray(joinerMail.entryId, sql`(select j.id from ${waitlist} j ${stored})`), eq(joinerMail.claim, batch.mail.claim)));
      const results = (await db.batch([insert, ...budget, ...confirming, ...mail, ...events, entries, mails] as unknown as [
        typeof entries,
      ])) as unknown[];
      const storedEntries = results.at(-2) as WaitlistEntry[];
      const queuedMails = results.at(-1) as JoinerMail[];
      const total = batch.claim.budget ? ((results[1] as { count: number }[])[0]?.count ?? null) : null;
      return storedEntries.map((entry, i) => ({
        outcome: "joined" as const,
        entry,
        claimed: true,
        // The hour's count as each one's own count would have left it (the stored ones in order).
        budgetUsed: total === null ? null : total - storedEntries.length + 1 + i,
        current: entry,
        joinerMail: queuedMails.find((mail) => mail.entryId === entry.id) ?? null,
      }));
    },
  };
}
