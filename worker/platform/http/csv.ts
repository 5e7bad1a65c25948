/**
 * CSV exports (RFC 4180): a header row, CRLF line ends, UTF-8, the file starting with a byte
 * order mark so Excel reads it as UTF-8 (other programs skip it).
 *
 * An export holds what strangers typed into public forms, and a spreadsheet must never run it as
 * a formula on the team's machines, however it splits the lines: Excel splits on its list
 * separator, which is `;` in much of Europe, and a program told the file is tab-separated splits
 * on tabs. So a text cell is guarded wherever a piece of it could become a cell of its own:
 *
 * - a formula trigger (=, +, -, @, tab, carriage return) at the start of the text, or after a
 *   `,`, `;`, tab or line break (spaces and quotes in between count as nothing), gets a `'`
 *   just before it, which a spreadsheet shows as the text it is: `Eve;=cmd` is written
 *   `"Eve;'=cmd"`, so splitting on `;` gives `'=cmd`, never `=cmd`;
 * - a cell holding any separator (`,` `;` tab), a quote or a line break is quoted, quotes
 *   doubled, so a program that honours quotes keeps it one cell with either separator.
 *
 * Numbers and booleans (ids, flags) are written as they are; so are the column names.
 */

export type CsvValue = string | number | boolean | null | undefined;

/** One column of an export: its header and how each row gives its cell. */
export type CsvColumn<R> = { header: string; value: (row: R) => CsvValue };

/** A trigger where a piece of the text may start: its start, or after a separator or line break. */
const FORMULA = /(?<=^|[,;\t\r\n])([ "]*)(?=[=+\-@\t\r])/g;
const NEEDS_QUOTES = /[",;\t\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") return String(value);
  const text = value.replace(FORMULA, "$1'");
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

const BOM = "\uFEFF";

/**
 * A CSV file as a stream: the columns' header row, then each page of rows as `nextPage` gives
 * them (each row's cells from the same columns), read only when the receiver wants more (a pull
 * stream), so an export of any size holds one page in memory at a time. `nextPage` returns the
 * rows and where the next page starts (null: no more).
 */
export function csvStream<R, C>(
  columns: readonly CsvColumn<R>[],
  nextPage: (cursor: C | null) => Promise<{ rows: R[]; next: C | null }>,
  onError: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const line = (row: R) => csvRow(columns.map((column) => column.value(row)));
  let cursor: C | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(BOM + csvRow(columns.map((column) => column.header))));
        return;
      }
      try {
        const page = await nextPage(cursor);
        if (page.rows.length > 0) controller.enqueue(encoder.encode(page.rows.map(line).join("")));
        cursor = page.next;
        if (cursor === null) controller.close();
      } catch (error) {
        // The status line has gone out already: the download ends with an error, never as a
        // complete-looking file that lacks rows.
        onError(error);
        controller.error(error);
      }
    },
  });
}
