import { and, count, eq, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { COUNT_ON_CONFLICT, type CounterWindow } from "../../../platform/db/counters";
import type { Database } from "../../../platform/db/database";
import { iso } from "../../../platform/db/sql";
import type { DevMailInput } from "../../../platform/db/schema";
import { devMailbox, joinerMail, rateLimits, waitlist } from "../../../platform/db/schema";
import type { JoinerMail, WaitlistEntry } from "../../../platform/db/schema";
import { RANK_KEY, referralCreditStatement, referralStatement, type ReferralWrite } from "../../referrals/queries";
import { confirmedEventStatements } from "../../webhooks/queries/record";
import { leaveEntry } from "./leave";

/**
 * The joiner's journey in the database: confirmation, places and the joiner-mail outbox (the
 * referral a confirmation counts is worker/features/referrals/queries.ts'). The rules' reasons
 * are in worker/features/waitlist/ (join.ts, confirm.ts); here each write is one batch.
 */

/**
 * Which referral a confirmation may count (docs/api.md "The joiner's journey"): the one of the
 * join whose link it came through (`{link}`: the join its token carries, null for a link that
 * carries none), the one of the join that confirms itself (`"join"`: double opt-in off), or
 * none (`"none"`: a signed-in one-click join). Any other referral is dropped.
 */
export type ReferralProof = { link: string | null } | "join" | "none";

/** What the confirming statement writes: the winner's random claim, its code, the boost in force, the keys it keeps, the referral's proof. */
export type ConfirmWrite = ReferralWrite & { referralCode: string; mailboxKey: string; network: string | null; referral: ReferralProof };

/** The daily cap on joiner e-mails (confirmations and welcomes) of one mailbox: its counter and how many it allows. */
export type MailCap = { key: string; window: CounterWindow; max: number };

/** A joiner mail to queue, claimed for the sender right away (like a notification's first claim). */
export type QueueMail = { claim: string; now: Date; lockMs: number; origin: string };

/** The next confirmation's number (the same subquery wherever the confirming statement needs it). */
const nextSeq = sql`(select coalesce(max(confirm_seq), 0) + 1 from ${waitlist})`;

/** Whether the entry's referral is the one the confirmation's proof names (SQL, of the row as it was). */
function proves(referral: ReferralProof): SQL {
  if (referral === "join") return sql`1`;
  if (referral === "none" || referral.link === null) return sql`0`;
  return sql`${waitlist.referralJoin} = ${referral.link}`;
}

/**
 * Confirms the entry `which` selects, unless it is confirmed already (then nothing changes):
 * the next confirm_seq (unique: a conflict is retried by the caller), its referral code (none
 * for an entry on behalf of a child), its rank key, the mailbox key, and the claim that lets only this confirmation count its referral.
 * A referral its proof does not name is dropped here, so the statements after count nothing.
 */
function confirmStatement(db: Database, which: SQL, write: ConfirmWrite) {
  const proved = proves(write.referral);
  return db
    .update(waitlist)
    .set({
      confirmedAt: iso(write.at),
      confirmSeq: nextSeq,
      rankKey: RANK_KEY.confirmed(nextSeq),
      // An entry a parent made on behalf of a child (issue 23) never gets a code, nor counts a referral.
      referralCode: sql`case when ${waitlist.onBehalfOfChild} = 0 then ${write.referralCode} end`,
      mailboxKey: write.mailboxKey,
      confirmClaim: write.claim,
      referredBy: sql`case when ${proved} and ${waitlist.onBehalfOfChild} = 0 then ${waitlist.referredBy} else null end`,
      referralJoin: null,
      referralNetwork: sql`case when ${proved} and ${waitlist.onBehalfOfChild} = 0 and ${waitlist.referredBy} is not null then ${write.network} else null end`,
      updatedAt: iso(write.at),
    })
    .where(and(which, isNull(waitlist.confirmedAt)));
}

/**
 * A confirmation with the referral it counts, in this order, for one batch: the confirming
 * statement (of the entry `which` selects, whose address is `email`), the referral, its credit.
 */
export function confirmingStatements(db: Database, which: SQL, email: string, write: ConfirmWrite) {
  return [confirmStatement(db, which, write), referralStatement(db, email, write), referralCreditStatement(db, email, write)] as const;
}

/**
 * A joiner mail row for the entry `j` of the query it ends (every column, in the table's order,
 * as insert-select wants); a confirmation of a join copies the entry's referral_join, which its link carries.
 */
const queued = (kind: "confirm" | "welcome", mail: QueueMail, referralJoin = sql`null`, origin: SQL | string = mail.origin) =>
  sql`select null, j.id, ${kind}, ${origin}, ${iso(mail.now)}, null, 1, null, ${iso(new Date(mail.now.getTime() + mail.lockMs))}, ${mail.claim}, null, ${referralJoin} from ${waitlist} j`;

/** How many joiner e-mails the mailbox whose cap counter is `key` got in the cap's window (SQL). */
const usedOf = (key: SQL | string, window: CounterWindow) =>
  sql`coalesce((select c.count from ${rateLimits} c where c.key = ${key} and c.window_start >= ${window.start}), 0)`;

/**
 * Queues a joiner mail of `kind` for the entry (by address) when `when` holds for it and its
 * mailbox's daily count is under the cap, which confirmations and welcomes share; then counts
 * it, only if it was queued.
 */
function cappedMailStatements(db: Database, email: string, cap: MailCap, mail: QueueMail, kind: JoinerMail["kind"], when: SQL, join?: SQL) {
  const used = usedOf(cap.key, cap.window);
  const mine = sql`(select 1 from ${joinerMail} m where m.entry_id = (select w.id from ${waitlist} w where w.email = ${email}) and m.claim = ${mail.claim})`;
  return [
    db.insert(joinerMail).select(sql`${queued(kind, mail, join)} where j.email = ${email} and ${when} and ${used} < ${cap.max}`),
    db
      .insert(rateLimits)
      .select(sql`select ${cap.key}, ${cap.window.start}, ${cap.window.end}, 1 where exists ${mine}`)
      .onConflictDoUpdate(COUNT_ON_CONFLICT),
  ] as const;
}

/** Queues a welcome for the entry (by address) that the confirmation holding `confirmClaim` confirmed, within the mailbox's daily cap. */
export function welcomeStatements(db: Database, email: string, confirmClaim: string, cap: MailCap, mail: QueueMail) {
  return cappedMailStatements(db, email, cap, mail, "welcome", sql`j.confirm_claim = ${confirmClaim}`);
}

/**
 * Queues a confirmation e-mail for the entry (by address) while it is unconfirmed, within the
 * mailbox's daily cap. `ofJoin`: the e-mail of a join, whose link carries the entry's
 * referral_join (a confirmation sent again from My place carries none: it confirms the place,
 * not a referral).
 */
export function confirmMailStatements(db: Database, email: string, cap: MailCap, mail: QueueMail, ofJoin: boolean) {
  return cappedMailStatements(db, email, cap, mail, "confirm", sql`j.confirmed_at is null`, ofJoin ? sql`j.referral_join` : undefined);
}

/**
 * The set form of confirmMailStatements (a join's e-mail, carrying the entry's referral_join) for
 * the entries `stored` joins in (SQL: a join clause giving each entry `j` a row `w` of the
 * waiting joins, whose `cap_key` names its mailbox's cap counter and `origin` its links' site):
 * a confirmation queued for each one still unconfirmed whose mailbox is under the cap, then each
 * counted. Two statements for any number of entries (worker/features/waitlist/queries/join.ts joinWaiting).
 */
export function confirmMailOfMany(db: Database, stored: SQL, window: CounterWindow, max: number, mail: Omit<QueueMail, "origin">) {
  const capKey = sql`json_extract(w.value, '$.cap_key')`;
  const origin = sql`json_extract(w.value, '$.origin')`;
  const mine = sql`(select 1 from ${joinerMail} m where m.entry_id = j.id and m.claim = ${mail.claim})`;
  return [
    db
      .insert(joinerMail)
      .select(
        sql`${queued("confirm", { ...mail, origin: "" }, sql`j.referral_join`, origin)} ${stored} where j.confirmed_at is null and ${usedOf(capKey, window)} < ${max}`,
      ),
    db
      .insert(rateLimits)
      .select(sql`select ${capKey}, ${window.start}, ${window.end}, 1 from ${waitlist} j ${stored} where exists ${mine}`)
      .onConflictDoUpdate(COUNT_ON_CONFLICT),
  ] as const;
}

/** The mail a queueing statement stored (by its claim), read in the same batch. */
export function queuedMail(db: Database, email: string, claim: string) {
  return db
    .select()
    .from(joinerMail)
    .where(and(eq(joinerMail.entryId, sql`(select id from ${waitlist} where email = ${email})`), eq(joinerMail.claim, claim)));
}

const mailDue = (now: Date) =>
  and(
    isNull(joinerMail.sentAt),
    or(isNull(joinerMail.nextAttemptAt), lte(joinerMail.nextAttemptAt, iso(now))),
    or(isNull(joinerMail.lockedUntil), lte(joinerMail.lockedUntil, iso(now))),
  );

export function createJourneyRepository(db: Database) {
  return {
    async entryById(id: number): Promise<WaitlistEntry | null> {
      return (await db.select().from(waitlist).where(eq(waitlist.id, id)).limit(1))[0] ?? null;
    },

    async entryByEmail(email: string): Promise<WaitlistEntry | null> {
      return (await db.select().from(waitlist).where(eq(waitlist.email, email)).limit(1))[0] ?? null;
    },

    /** Confirms one entry (one batch): the confirmation, its referral, their webhook events, and the entry as it is after. */
    async confirm(entry: Pick<WaitlistEntry, "id" | "email">, write: ConfirmWrite): Promise<WaitlistEntry | null> {
      const results = await db.batch([
        ...confirmingStatements(db, eq(waitlist.id, entry.id), entry.email, write),
        ...confirmedEventStatements(db, { which: sql`j.id = ${entry.id} and j.confirm_claim = ${write.claim}` }, write.at),
        db.select().from(waitlist).where(eq(waitlist.id, entry.id)),
      ]);
      return (results.at(-1) as WaitlistEntry[])[0] ?? null;
    },

    /**
     * A confirmed entry's place: 1 + the confirmed entries with a lower rank key + those with
     * the same key confirmed earlier. Two counts over the rank index (covering: they name only
     * rank_key and confirm_seq; rank_key is set exactly when confirmed), never a read of the rows.
     */
    async placeOf(entry: Pick<WaitlistEntry, "rankKey" | "confirmSeq">): Promise<number | null> {
      if (entry.rankKey === null || entry.confirmSeq === null) return null;
      const [below, tied] = await db.batch([
        db.select({ n: count() }).from(waitlist).where(lt(waitlist.rankKey, entry.rankKey)),
        db
          .select({ n: count() })
          .from(waitlist)
          .where(and(eq(waitlist.rankKey, entry.rankKey), lt(waitlist.confirmSeq, entry.confirmSeq))),
      ]);
      return 1 + below[0]!.n + tied[0]!.n;
    },

    /** Queues a confirmation e-mail (within the cap, while unconfirmed) in one batch; the mail, or null when none was queued. */
    async queueConfirmation(email: string, cap: MailCap, mail: QueueMail): Promise<JoinerMail | null> {
      const [, , rows] = await db.batch([...confirmMailStatements(db, email, cap, mail, false), queuedMail(db, email, mail.claim)]);
      return rows[0] ?? null;
    },

    /** Leaves the waitlist: the entry and its joiner mails, carried downstream, in one batch (leave.ts). False when there was no entry. */
    leave: (email: string, now = new Date()): Promise<boolean> => leaveEntry(db, email, now),

    /** Claims up to `limit` due joiner mails, oldest first, in one statement, counting the attempt. */
    async claimDueMail(options: Omit<QueueMail, "origin"> & { limit: number }): Promise<JoinerMail[]> {
      if (options.limit <= 0) return [];
      const due = db.select({ id: joinerMail.id }).from(joinerMail).where(mailDue(options.now)).orderBy(joinerMail.id).limit(options.limit);
      return db
        .update(joinerMail)
        .set({
          claim: options.claim,
          lockedUntil: iso(new Date(options.now.getTime() + options.lockMs)),
          attempts: sql`${joinerMail.attempts} + 1`,
        })
        .where(and(inArray(joinerMail.id, due), mailDue(options.now)))
        .returning();
    },

    /** Records a delivered joiner mail (sent is a fact whoever holds the claim), with the dev mailbox's copy. */
    async markMailSent(mail: JoinerMail, now: Date, devMail?: DevMailInput) {
      const sent = db
        .update(joinerMail)
        .set({ sentAt: iso(now), lastError: null, nextAttemptAt: null, lockedUntil: null, claim: null })
        .where(eq(joinerMail.id, mail.id));
      if (!devMail) return void (await sent);
      await db.batch([db.insert(devMailbox).values({ ...devMail, createdAt: iso(now) }), sent]);
    },

    /** Records a failed attempt and when to try again; only the holder of the mail's claim may. */
    async markMailFailed(mail: JoinerMail, error: string, nextAttemptAt: Date): Promise<void> {
      await db
        .update(joinerMail)
        .set({ lastError: error.slice(0, 500), nextAttemptAt: iso(nextAttemptAt), lockedUntil: null, claim: null })
        .where(and(eq(joinerMail.id, mail.id), isNull(joinerMail.sentAt), eq(joinerMail.claim, mail.claim ?? "")));
    },

    /** Entries by id (the mails' addressees), for a cron run. */
    async entriesByIds(ids: number[]): Promise<WaitlistEntry[]> {
      return ids.length === 0 ? [] : db.select().from(waitlist).where(inArray(waitlist.id, ids));
    },
  };
}
