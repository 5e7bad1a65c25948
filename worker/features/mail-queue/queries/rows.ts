import { and, eq, inArray, isNull, lte, or, type SQL } from "drizzle-orm";
import type { CounterWindow } from "../../../platform/db/counters";
import type { Database } from "../../../platform/db/database";
import { formSubmissions, joinerMail, parentalRequests, waitlist } from "../../../platform/db/schema";
import type { DevMailInput, FormSubmission, JoinerMail, MailDeadLetter, ParentalRequest, WaitlistEntry } from "../../../platform/db/schema";
import { iso } from "../../../platform/db/sql";

/** The outbox rows of the mail queue, named alike over the four outboxes: shared by its queries (index.ts, dead-letters.ts). */

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

export const CHUNK = 45;
export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

export type Statement = Parameters<Database["batch"]>[0][number];

/** The outbox columns of each kind's table, named alike. */
export function columnsOf(kind: MailRowKind) {
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

export function unsent(kind: MailRowKind): SQL {
  if (kind === "joiner") return isNull(joinerMail.sentAt);
  if (kind === "parent") return isNull(parentalRequests.sentAt);
  return eq((kind === "waitlist" ? waitlist : formSubmissions).emailSent, false);
}

/**
 * Which rows of `refs` a batch may take: unsent, and either still holding the job's claim, or
 * free (its lease lapsed, or released) and due (past its backoff). A row the cron or another
 * batch claimed since holds another claim under a live lease: not taken.
 */
export function takeable(kind: MailRowKind, refs: MailRowRef[], now: Date): SQL {
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

/**
 * An update of one outbox's table: drizzle types each table apart, and the four share their
 * outbox columns only by name (columnsOf), so the statement is built untyped, once, here.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above; every caller names only columns the table has.
export const updateOf = (db: Database, kind: MailRowKind): any => db.update(columnsOf(kind).t as typeof joinerMail);
