import type { AdminPage } from "@shared/admin";
import { type ReactNode, useId, useRef } from "react";
import type { CsvFile, ListQuery } from "../api";
import { admin } from "../content";
import { useConsole } from "../context";
import { usePagedList } from "./paged-list";
import { BusyButton, Messages, Section, TryAgain } from "./Section";
import { useCsvDownload } from "./use-csv-download";
import { useOverflow } from "./use-overflow";

export type Column<T> = {
  key: string;
  header: string;
  cell: (item: T) => ReactNode;
  /** The column that names the row (a row header for screen readers). */
  rowHeader?: boolean;
  className?: string;
};

type ListProps<T> = {
  id: string;
  /** The list's heading, its search field's label and its table's caption. */
  words: { title: string; searchLabel: string; caption: string };
  columns: readonly Column<T>[];
  load: (query: ListQuery) => Promise<AdminPage<T>>;
  download: () => Promise<CsvFile>;
  /** Changes when the data changed elsewhere (an erasure): the current page is loaded again. */
  dataVersion: number;
  /** What the list says about its rows' own actions (the waitlist's, issue 22), above the search. */
  children?: ReactNode;
};

/**
 * A list of the API as a searchable, paged table (./paged-list.ts reads it). The table scrolls
 * sideways inside its own region (focusable, so keyboard users can scroll it too), never the
 * page. "Download CSV" fetches the whole export with the operator's token and saves it.
 */
export function PagedList<T extends { id: number }>({ id, words, columns, load, download, dataVersion, children }: ListProps<T>) {
  const { report } = useConsole();
  const text = admin.table;
  const list = usePagedList({ load, dataVersion, report });
  const csv = useCsvDownload(download, report);
  const searchId = useId();
  const captionId = `${id}-caption`;
  const { page, pageNumber, loading, query, draft } = list;
  const items = page?.items ?? [];
  const scrollRef = useRef<HTMLDivElement>(null);
  const overflow = useOverflow(scrollRef, items);

  return (
    <Section
      id={id}
      title={words.title}
      headingRef={list.headingRef}
      actions={
        <BusyButton className="button button--small" onClick={csv.start} busy={csv.downloading} busyLabel={text.downloading}>
          {text.download}
        </BusyButton>
      }
    >
      <Messages status={csv.status} error={csv.error} />
      {children}
      {/* biome-ignore lint/a11y/useSemanticElements: the <search> element is too new for some screen readers; the role says the same. */}
      <form role="search" className="search" onSubmit={list.search} aria-label={words.searchLabel}>
        <label htmlFor={searchId}>{words.searchLabel}</label>
        <div className="search__row">
          <input
            id={searchId}
            ref={list.searchRef}
            className="input"
            type="search"
            name="q"
            value={draft}
            onChange={(event) => list.setDraft(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
          <button type="submit" className="button">
            {text.searchButton}
          </button>
          {(query || draft) && (
            <button type="button" className="button button--quiet" onClick={list.clear}>
              {text.clear}
            </button>
          )}
        </div>
      </form>

      <Messages status={loading && !page ? admin.loading : list.status} error={list.error} />
      {list.error && <TryAgain onClick={list.reload} />}

      {page && items.length === 0 && !list.error && <p className="empty">{query ? text.noMatch(query) : text.empty}</p>}
      {items.length > 0 && (
        <>
          <p className={overflow ? "scroll-hint scroll-hint--shown" : "scroll-hint"} id={`${id}-hint`}>
            {text.scrollHint}
          </p>
          {/* biome-ignore lint/a11y/useSemanticElements: a scrolling box inside a section, named by its table's caption. */}
          <div
            ref={scrollRef}
            className={overflow ? "table-scroll table-scroll--overflow" : "table-scroll"}
            role="region"
            aria-labelledby={captionId}
            aria-describedby={`${id}-hint`}
            aria-busy={loading || undefined}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (axe: scrollable-region-focusable).
            tabIndex={0}
          >
            <table className="data-table">
              <caption id={captionId}>
                {words.caption}
                {pageNumber > 1 && <span className="visually-hidden">, {text.page(pageNumber)}</span>}
              </caption>
              <Rows columns={columns} items={items} />
            </table>
          </div>
        </>
      )}

      {(pageNumber > 1 || list.hasNext) && (
        // biome-ignore lint/a11y/useSemanticElements: two buttons, not form fields: a fieldset would need a legend.
        <div className="pager" role="group" aria-label={text.pages(words.title)}>
          <button
            type="button"
            className="button button--small"
            onClick={list.previous}
            disabled={pageNumber === 1}
            aria-disabled={loading || undefined}
          >
            {text.previous}
          </button>
          <span className="pager__page">{text.page(pageNumber)}</span>
          <button
            type="button"
            className="button button--small"
            onClick={list.next}
            disabled={!list.hasNext}
            aria-disabled={loading || undefined}
          >
            {text.next}
          </button>
        </div>
      )}
    </Section>
  );
}

/** The table's head and rows: a cell per column, the naming column as the row's header. */
function Rows<T extends { id: number }>({ columns, items }: { columns: readonly Column<T>[]; items: readonly T[] }) {
  return (
    <>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.key} scope="col" className={column.className}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.id}>
            {columns.map((column) =>
              column.rowHeader ? (
                <th key={column.key} scope="row" className={column.className}>
                  {column.cell(item)}
                </th>
              ) : (
                <td key={column.key} className={column.className}>
                  {column.cell(item)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </>
  );
}
