/**
 * CSV exports (RFC 4180): a header row, CRLF line ends, UTF-8. A cell holding a comma, a quote
 * or a line break is quoted (quotes doubled). A cell a spreadsheet would run as a formula
 * (starting with =, +, -, @, a tab or a carriage return) is prefixed with ' so it shows as the
 * text it is: an export of what strangers typed into a public form must not run their formulas
 * on the team's machines.
 *
 * The file starts with a byte order mark, so Excel reads it as UTF-8 (other programs skip it).
 */

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

const BOM = "\uFEFF";

/**
 * A CSV file as a stream: the header row, then each page of rows as `nextPage` gives them, read
 * only when the receiver wants more (a pull stream), so an export of any size holds one page in
 * memory at a time. `nextPage` returns the rows and whether more may follow.
 */
export function csvStream<C>(
  header: readonly string[],
  nextPage: (cursor: C | null) => Promise<{ rows: CsvValue[][]; next: C | null }>,
  onError: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: C | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(BOM + csvRow(header)));
        return;
      }
      try {
        const page = await nextPage(cursor);
        if (page.rows.length > 0) controller.enqueue(encoder.encode(page.rows.map(csvRow).join("")));
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
