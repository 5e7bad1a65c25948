import { and, eq, getTableColumns, isNotNull, isNull, sql } from "drizzle-orm";
import { ATTRIBUTION_FIELDS, type Attribution } from "../../../shared/waitlist";
import type { AgeBandStored } from "../../../shared/age";
import { countOne } from "../../../platform/db/counters";
import type { Database } from "../../../platform/db/database";
import { type FirstClaim, newClaim } from "../../notifications/queries";
import { iso } from "../../../platform/db/sql";
import {
  type ConfirmWrite,
  confirmingStatements,
  confirmMailStatements,
  type MailCap,
  type QueueMail,
  queuedMail,
  welcomeStatements,
} from "./journey";
import { waitlist } from "../../../platform/db/schema";
import type { JoinerMail, WaitlistEntry } from "../../../platform/db/schema";
import { waitingJoinQueries } from "./waiting";
import { confirmedEventStatements, joinedEventStatements } from "../../webhooks/queries/record";

export type { WaitingBatch, WaitingJoin } from "./waiting";

/**
 * What a join does for the joiner's journey, in the join's own batch: the mailbox key and the
 * referral code it came with (kept only if it is a known code, with `referralJoin`, this join's
 * random value, which its confirmation link carries), and either a confirmation e-mail (while
 * unconfirmed) or a confirmation at once with a welcome, either within the mailbox's daily cap.
 */
export type JoinJourney = { mailboxKey: string; ref: string | null; referralJoin: string; mail: QueueMail; cap: MailCap } & (
  | { kind: "confirm" }
  | { kind: "welcome"; confirm: ConfirmWrite }
);

/** The joiner's side of a join: the entry as the batch left it, and the joiner mail it queued (null: none). */
export type JoinerSide = { current: WaitlistEntry | null; joinerMail: JoinerMail | null };

export type JoinResult =
  | ({ outcome: "joined"; entry: WaitlistEntry; claimed: boolean; budgetUsed: number | null } & Partial<JoinerSide>)
  | ({ outcome: "duplicate" } & Partial<JoinerSide>);

/**
 * What a join knows of the joiner's age (issue 23): the band the neutral question gave (never the
 * birth month or year), the visitor's country, and, for a parent's entry on behalf of a child
 * (worker/features/waitlist/join.ts joinOnBehalfOfChild), that flag and when the parent agreed.
 */
export type AgeOfEntry = { ageBand: AgeBandStored; country: string | null; onBehalfOfChild: boolean; parentalConsentAt: Date | null };

export type WaitlistColumns = ReturnType<typeof getTableColumns<typeof waitlist>>;

/**
 * The waitlist's column of each attribution field, found by its name (the column utm_source
 * stores the field utm_source), so the fields are listed once, in ATTRIBUTION_FIELDS.
 */
export const ATTRIBUTION_COLUMNS = ATTRIBUTION_FIELDS.map((field) => {
  const found = Object.entries(getTableColumns(waitlist)).find(([, column]) => column.name === field);
  if (!found) throw new Error(`The waitlist has no column ${field} for the attribution field of that name.`);
  return { field, key: found[0] as keyof WaitlistColumns, column: found[1] };
});

/** What a join stores for a new entry, before its journey (mailbox key, referral): the same for a join on the request path and one that waited (joinWaiting). */
export function newEntryValues(input: JoinInput, at: string, mine: ReturnType<typeof newClaim>) {
  return {
    email: input.email,
    source: input.source,
    ...Object.fromEntries(ATTRIBUTION_COLUMNS.map(({ field, key }) => [key, input[field] ?? null])),
    ageBand: input.ageBand ?? "unknown",
    country: input.country ?? null,
    onBehalfOfChild: input.onBehalfOfChild ?? false,
    parentalConsentAt: input.parentalConsentAt ? iso(input.parentalConsentAt) : null,
    createdAt: at,
    updatedAt: at,
    notifyAttempts: 1,
    ...mine,
  };
}

/** A join's input as the repository reads it: the address, the placement, the ATTRIBUTION_FIELDS and what it knows of the age. */
export type JoinInput = { email: string; source: string | null } & Partial<Attribution> & Partial<AgeOfEntry>;

export function createWaitlistRepository(db: Database) {
  return {
    ...waitingJoinQueries(db),
    /**
     * Gives an entry made before the age question (band "unknown") the band and country of an
     * answer its owner gave (a signed-in join: the address is proven); any other entry is left as
     * it is. Whether it changed the entry.
     */
    async fillAge(email: string, age: Pick<AgeOfEntry, "ageBand" | "country">): Promise<boolean> {
      const rows = await db
        .update(waitlist)
        .set({ ageBand: age.ageBand, country: sql`coalesce(${waitlist.country}, ${age.country})` })
        .where(and(eq(waitlist.email, email), eq(waitlist.ageBand, "unknown")))
        .returning({ id: waitlist.id });
      return rows.length > 0;
    },

    /**
     * Adds an e-mail to the waitlist in one upsert, which also claims its notification for the
     * caller (claimed: true) unless another sender holds it. An entry whose notification was
     * delivered is a duplicate and is left untouched; an undelivered one is joined again:
     * updated_at moves, attribution it lacks is filled in (what it has is kept), its backoff is
     * cleared and, when nobody is sending it right now, its attempts start over with this one.
     */
    async join(input: JoinInput, claim: FirstClaim, journey?: JoinJourney): Promise<JoinResult> {
      const at = iso(claim.now);
      const mine = newClaim(claim);
      // SQLite evaluates every SET expression against the row as it was, so all three agree.
      const free = sql`(${waitlist.notifyLockedUntil} is null or ${waitlist.notifyLockedUntil} <= ${at})`;
      // Only a code that exists now is kept: an unknown one is dropped and the join goes on.
      const known = journey?.ref ? sql`(select r.referral_code from ${waitlist} r where r.referral_code = ${journey.ref})` : null;
      const upsert = db
        .insert(waitlist)
        .values({
          ...newEntryValues(input, at, mine),
          ...(journey
            ? {
                mailboxKey: journey.mailboxKey,
                referredBy: known,
                referralJoin: sql`case when ${known} is not null then ${journey.referralJoin} end`,
              }
            : {}),
        })
        .onConflictDoUpdate({
          target: waitlist.email,
          set: {
            updatedAt: at,
            // Attribution only fills what is empty: anyone can join with someone else's address,
            // so a re-join must not rewrite how that person came (the first visit's values stay).
            source: sql`coalesce(${waitlist.source}, excluded.source)`,
            ...Object.fromEntries(
              ATTRIBUTION_COLUMNS.map(({ key, column }) => [key, sql`coalesce(${column}, excluded.${sql.identifier(column.name)})`]),
            ),
            // The referral is never set by a re-join: only the join that made the entry carries one,
            // so nobody can attach their code to a stranger's pending entry (and a re-join that
            // does not carry the same code drops it: keptReferral).
            // A band and a country fill only what is unknown (an entry made before the question);
            // the on-behalf flag and the consent time are never set by a re-join.
            ageBand: sql`case when ${waitlist.ageBand} = 'unknown' then excluded.age_band else ${waitlist.ageBand} end`,
            country: sql`coalesce(${waitlist.country}, excluded.country)`,
            mailboxKey: sql`case when excluded.mailbox_key <> '' then excluded.mailbox_key else ${waitlist.mailboxKey} end`,
            notifyNextAttemptAt: null,
            notifyAttempts: sql`case when ${free} then 1 else ${waitlist.notifyAttempts} end`,
            notifyLockedUntil: sql`case when ${free} then excluded.notify_locked_until else ${waitlist.notifyLockedUntil} end`,
            notifyClaim: sql`case when ${free} then excluded.notify_claim else ${waitlist.notifyClaim} end`,
          },
          setWhere: eq(waitlist.emailSent, false),
        })
        .returning();
      const budget = claim.budget ? [countOne(db, claim.budget.key, claim.budget.window)] : [];
      // A later join of a pending entry keeps its referral only when it carries the same code; any
      // other join (none, another, a one-click join) drops it: a referral planted by a stranger's
      // join never rides on the person's own join (docs/api.md "The joiner's journey").
      const keptReferral = journey
        ? [
            db
              .update(waitlist)
              .set({ referredBy: null, referralJoin: null })
              .where(
                and(
                  eq(waitlist.email, input.email),
                  isNull(waitlist.confirmedAt),
                  isNotNull(waitlist.referredBy),
                  sql`${waitlist.referredBy} is not ${journey.ref}`,
                ),
              ),
          ]
        : [];
      // The journey's statements select the entry by its address, so they run whether the upsert
      // joined it or found it a duplicate: a re-join of an unconfirmed address re-sends.
      const steps = !journey
        ? []
        : journey.kind === "confirm"
          ? confirmMailStatements(db, input.email, journey.cap, journey.mail, true)
          : [
              ...confirmingStatements(db, eq(waitlist.email, input.email), input.email, journey.confirm),
              ...welcomeStatements(db, input.email, journey.confirm.claim, journey.cap, journey.mail),
            ];
      // The webhooks' events (issue 25), after every write: waitlist.joined of a new entry (made
      // at this join's time: a re-join made none), and the confirmation's events when it confirmed here.
      const events = [
        ...joinedEventStatements(db, { which: sql`j.email = ${input.email} and j.created_at = ${at}` }, claim.now),
        ...(journey?.kind === "welcome"
          ? confirmedEventStatements(db, { which: sql`j.email = ${input.email} and j.confirm_claim = ${journey.confirm.claim}` }, claim.now)
          : []),
      ];
      const reads = journey
        ? [db.select().from(waitlist).where(eq(waitlist.email, input.email)), queuedMail(db, input.email, journey.mail.claim)]
        : [];
      const results = (await db.batch([upsert, ...budget, ...keptReferral, ...steps, ...events, ...reads] as unknown as [
        typeof upsert,
      ])) as unknown[];
      const entry = (results[0] as WaitlistEntry[])[0];
      const budgetUsed = claim.budget ? (results[1] as { count: number }[])[0]!.count : null;
      const side: Partial<JoinerSide> = journey
        ? {
            current: (results.at(-2) as WaitlistEntry[])[0] ?? null,
            joinerMail: (results.at(-1) as JoinerMail[])[0] ?? null,
          }
        : {};
      return entry
        ? { outcome: "joined", entry, claimed: entry.notifyClaim === mine.notifyClaim, budgetUsed, ...side }
        : { outcome: "duplicate", ...side };
    },
  };
}
