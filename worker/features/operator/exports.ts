import type { Context } from "hono";
import type { ListCursor } from "./queries";
import type { FormSubmission } from "../../platform/db/schema";
import { csvStream, type CsvColumn } from "../../platform/http/csv";
import { describeError, log } from "../../platform/log";
import { AGE_FIELDS, ATTRIBUTION_FIELDS, type AdminWaitlistEntry, INVITED_FIELDS, JOURNEY_FIELDS } from "../../shared/admin";
import type { FormDefinition } from "../../shared/forms";
import { waitlistJson } from "./json";
import type { OperatorEnv } from "./operator";
import { keysetPage } from "./requests";

/**
 * The CSV exports of the operator API: each declares its columns once (header and cell), read in
 * keyset pages like the lists, streamed (worker/platform/http/csv.ts guards every cell), and recorded in
 * the audit trail.
 */

/** How many rows one read of an export takes: small enough for any Worker's memory. */
const EXPORT_PAGE = 1000;

/**
 * The waitlist export: the operator API's entry fields, each a column headed by its name. Its rows
 * are waitlist entries only: a child's pending parental request (hwh_parental_requests) is never
 * in it; an entry on behalf of a child is the parent's address, marked on_behalf_of_child.
 */
const WAITLIST_COLUMNS: readonly CsvColumn<AdminWaitlistEntry>[] = (
  [
    "id",
    "email",
    "source",
    ...ATTRIBUTION_FIELDS,
    ...JOURNEY_FIELDS,
    ...INVITED_FIELDS,
    ...AGE_FIELDS,
    "email_sent",
    "email_sent_at",
    "created_at",
    "updated_at",
  ] as const
).map((name) => ({ header: name, value: (entry) => entry[name] }));

/** One column per field of the form, between the id and time and the delivery. */
function submissionColumns(form: FormDefinition): CsvColumn<FormSubmission>[] {
  return [
    { header: "id", value: (row) => row.id },
    { header: "created_at", value: (row) => row.createdAt },
    ...form.fields.map(
      ({ name }): CsvColumn<FormSubmission> => ({
        header: name,
        value: (row) => {
          const value = row.formData[name];
          return value === undefined || value === null ? null : typeof value === "string" ? value : JSON.stringify(value);
        },
      }),
    ),
    { header: "email_sent", value: (row) => row.emailSent },
    { header: "email_sent_at", value: (row) => row.emailSentAt },
  ];
}

/**
 * An export's answer, named `<file>-<date>.csv` (the worker's date): `read` gives up to `limit`
 * rows after the cursor, newest first; `label` names the export in a failure's log line.
 */
function csvResponse<R extends { createdAt: string; id: number }, J>(
  c: Context<OperatorEnv>,
  names: { file: string; label: string },
  columns: readonly CsvColumn<J>[],
  read: (limit: number, after: ListCursor | null) => Promise<R[]>,
  toRow: (row: R) => J,
): Response {
  const body = csvStream<J, ListCursor>(
    columns,
    async (after) => {
      const page = keysetPage(await read(EXPORT_PAGE + 1, after), EXPORT_PAGE);
      return { rows: page.rows.map(toRow), next: page.next };
    },
    (error) => log("error", "admin.export_failed", { export: names.label, error: describeError(error) }),
  );
  const date = c.get("deps").now().toISOString().slice(0, 10);
  return c.body(body, 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${names.file}-${date}.csv"`,
  });
}

/**
 * Each export is recorded in the audit trail (who, when, how many rows it holds) before any row
 * goes out, so no download, finished or not, goes unrecorded.
 */
export async function waitlistCsv(c: Context<OperatorEnv>): Promise<Response> {
  const deps = c.get("deps");
  const { operator: admin } = deps.repo;
  await admin.recordExport({ table: "waitlist" }, c.get("operator").name, deps.now());
  return csvResponse(
    c,
    { file: "waitlist", label: "waitlist" },
    WAITLIST_COLUMNS,
    (limit, after) => admin.listWaitlist({ q: "", limit, after }),
    waitlistJson,
  );
}

export async function submissionsCsv(c: Context<OperatorEnv>, form: FormDefinition): Promise<Response> {
  const deps = c.get("deps");
  const { operator: admin } = deps.repo;
  await admin.recordExport({ table: "submissions", form }, c.get("operator").name, deps.now());
  return csvResponse(
    c,
    { file: `${form.slug}-submissions`, label: `submissions:${form.slug}` },
    submissionColumns(form),
    (limit, after) => admin.listSubmissions(form.name, { q: "", limit, after }),
    (row) => row,
  );
}
