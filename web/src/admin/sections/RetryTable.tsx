import type { ReactNode } from "react";
import { BusyButton } from "./Section";

/** A column of a RetryTable: its heading, and whether it holds numbers (right-aligned). */
export type RetryColumn = { label: string; numeric?: boolean };

/** What a RetryTable says on its buttons. */
export type RetryWords = { retry: string; retryAll: string; retrying: string };

/**
 * The console's lists of what failed every retry (a campaign's dead letters, the mail queue's, the
 * dead joins): a table in a scrolling region named by its caption, one "Retry" per row (its
 * accessible name says which row) and "Retry all" under it. While one retry runs, every button
 * waits (`busy` names the row's key, or "all"). The rows' cells are the caller's: `cells` gives a
 * row's header cell and data cells, in the columns' order.
 */
export function RetryTable<T>({
  id,
  caption,
  columns,
  rows,
  keyOf,
  cells,
  retryName,
  words,
  busy,
  onRetry,
}: {
  id: string;
  caption: string;
  columns: readonly RetryColumn[];
  rows: readonly T[];
  keyOf: (row: T) => string;
  cells: (row: T) => ReactNode;
  retryName: (row: T) => string;
  words: RetryWords;
  busy: string | null;
  onRetry: (row: T | "all") => void;
}) {
  const captionId = `${id}-caption`;
  return (
    <>
      {/* biome-ignore lint/a11y/useSemanticElements: a scrolling box inside a section, named by its table's caption. */}
      <div
        className="table-scroll"
        role="region"
        aria-labelledby={captionId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (axe: scrollable-region-focusable).
        tabIndex={0}
      >
        <table className="data-table">
          <caption id={captionId}>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.label} scope="col" className={column.numeric ? "numeric" : undefined}>
                  {column.label}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">{words.retry}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={keyOf(row)}>
                {cells(row)}
                <td>
                  <BusyButton
                    className="button button--small"
                    busy={busy === keyOf(row)}
                    busyLabel={words.retrying}
                    inactive={busy !== null}
                    onClick={() => onRetry(row)}
                  >
                    <span aria-hidden="true">{words.retry}</span>
                    <span className="visually-hidden">{retryName(row)}</span>
                  </BusyButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        <BusyButton
          className="button"
          busy={busy === "all"}
          busyLabel={words.retrying}
          inactive={busy !== null}
          onClick={() => onRetry("all")}
        >
          {words.retryAll}
        </BusyButton>
      </p>
    </>
  );
}
