import { eq, getTableColumns, sql } from "drizzle-orm";
import { ATTRIBUTION_FIELDS, type Attribution } from "../shared/waitlist";
import { countOne } from "./counter-repository";
import type { Database } from "./database";
import { type FirstClaim, iso, newClaim } from "./outbox-repository";
import { waitlist } from "./schema";
import type { WaitlistEntry } from "./schema";

export type JoinResult =
  | { outcome: "joined"; entry: WaitlistEntry; claimed: boolean; budgetUsed: number | null }
  | { outcome: "duplicate" };

type WaitlistColumns = ReturnType<typeof getTableColumns<typeof waitlist>>;

/**
 * The waitlist's column of each attribution field, found by its name (the column utm_source
 * stores the field utm_source), so the fields are listed once, in ATTRIBUTION_FIELDS.
 */
export const ATTRIBUTION_COLUMNS = ATTRIBUTION_FIELDS.map((field) => {
  const found = Object.entries(getTableColumns(waitlist)).find(([, column]) => column.name === field);
  if (!found) throw new Error(`The waitlist has no column ${field} for the attribution field of that name.`);
  return { field, key: found[0] as keyof WaitlistColumns, column: found[1] };
});

/** A stored entry's attribution, by field (the operator API's JSON names them as the fields). */
export function attributionOf(entry: WaitlistEntry): Attribution {
  return Object.fromEntries(ATTRIBUTION_COLUMNS.map(({ field, key }) => [field, entry[key]])) as Attribution;
}

export function createWaitlistRepository(db: Database) {
  return {
    /**
     * Adds an e-mail to the waitlist in one upsert, which also claims its notification for the
     * caller (claimed: true) unless another sender holds it. An entry whose notification was
     * delivered is a duplicate and is left untouched; an undelivered one is joined again:
     * updated_at moves, attribution it lacks is filled in (what it has is kept), its backoff is
     * cleared and, when nobody is sending it right now, its attempts start over with this one.
     */
    async joinWaitlist(input: { email: string; source: string | null } & Partial<Attribution>, claim: FirstClaim): Promise<JoinResult> {
      const at = iso(claim.now);
      const mine = newClaim(claim);
      // SQLite evaluates every SET expression against the row as it was, so all three agree.
      const free = sql`(${waitlist.notifyLockedUntil} is null or ${waitlist.notifyLockedUntil} <= ${at})`;
      const upsert = db
        .insert(waitlist)
        .values({
          email: input.email,
          source: input.source,
          ...Object.fromEntries(ATTRIBUTION_COLUMNS.map(({ field, key }) => [key, input[field] ?? null])),
          createdAt: at,
          updatedAt: at,
          notifyAttempts: 1,
          ...mine,
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
            notifyNextAttemptAt: null,
            notifyAttempts: sql`case when ${free} then 1 else ${waitlist.notifyAttempts} end`,
            notifyLockedUntil: sql`case when ${free} then excluded.notify_locked_until else ${waitlist.notifyLockedUntil} end`,
            notifyClaim: sql`case when ${free} then excluded.notify_claim else ${waitlist.notifyClaim} end`,
          },
          setWhere: eq(waitlist.emailSent, false),
        })
        .returning();
      const [rows, budgetUsed] = claim.budget
        ? await db
            .batch([upsert, countOne(db, claim.budget.key, claim.budget.window)])
            .then(([entries, counts]) => [entries, counts[0]!.count] as const)
        : [await upsert, null];
      const entry = rows[0];
      return entry ? { outcome: "joined", entry, claimed: entry.notifyClaim === mine.notifyClaim, budgetUsed } : { outcome: "duplicate" };
    },
  };
}
