import { and, asc, eq, gt, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../../platform/db/database";
import { formSubmissions } from "../../../platform/db/schema";
import { FORMS } from "../../../shared/forms";

/**
 * The contact form's submissions in the address backfill (part of repo.addresses, index.ts): the
 * operator's look-up and erasure find a person's submissions by the address in their e-mail
 * field (operator/queries/people.ts), so an address stored before it was canonical is moved too.
 * Nothing else is keyed by it, and one address may have any number of submissions: no collision.
 */

/** The names of the e-mail fields of every form: where a submission holds an address. */
const EMAIL_FIELDS = [
  ...new Set(FORMS.flatMap((form) => form.fields.filter((field) => field.type === "email").map((field) => field.name))),
];

const fieldOf = (name: string): SQL => sql`json_extract(${formSubmissions.formData}, ${`$.${name}`})`;

/** A stored submission as the backfill reads it: its id (the cursor follows it) and its e-mail fields that are not ASCII. */
export type StoredSubmission = { position: number; addresses: Record<string, string> };

export function createSubmissionAddressQueries(db: Database) {
  return {
    /** Submissions after id `after` with an e-mail field holding a character outside ASCII, in id order, at most `limit`. */
    async submissionsToCheck(after: number, limit: number): Promise<StoredSubmission[]> {
      if (EMAIL_FIELDS.length === 0) return [];
      const notAscii = EMAIL_FIELDS.map((name) => sql`length(${fieldOf(name)}) <> length(cast(${fieldOf(name)} as blob))`);
      const rows = await db
        .select({ position: formSubmissions.id, data: formSubmissions.formData })
        .from(formSubmissions)
        .where(and(gt(formSubmissions.id, after), or(...notAscii)))
        .orderBy(asc(formSubmissions.id))
        .limit(limit);
      return rows.map(({ position, data }) => ({
        position,
        addresses: Object.fromEntries(
          EMAIL_FIELDS.flatMap((name) => {
            const value = data[name];
            return typeof value === "string" && !/^\p{ASCII}*$/u.test(value) ? [[name, value]] : [];
          }),
        ),
      }));
    },

    /**
     * Writes the canonical addresses into a submission's e-mail fields (`to`: field name to
     * address), only while each still holds what was read (`from`). Resolves whether it did.
     */
    async moveSubmission(id: number, from: Record<string, string>, to: Record<string, string>): Promise<boolean> {
      const names = Object.keys(to);
      if (names.length === 0) return true;
      const paths = names.map((name) => sql`${`$.${name}`}, ${to[name]}`);
      const rows = await db
        .update(formSubmissions)
        .set({ formData: sql`json_set(${formSubmissions.formData}, ${sql.join(paths, sql`, `)})` })
        .where(and(eq(formSubmissions.id, id), ...names.map((name) => sql`${fieldOf(name)} = ${from[name]}`)))
        .returning({ id: formSubmissions.id });
      return rows.length === 1;
    },
  };
}
