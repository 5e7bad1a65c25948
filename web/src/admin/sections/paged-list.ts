import type { AdminPage } from "@shared/admin";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { type ListQuery, PAGE_SIZE } from "../api";
import { admin } from "../content";

/**
 * A list of the API read page by page, and searched. Paging is by keyset: each page's
 * `next_cursor` asks for the following page, and the cursors of the pages seen are kept as a
 * stack, so Previous goes back to the cursor before. A search starts again at page one. After
 * Next or Previous the list's heading takes focus once the page is in (`headingRef`).
 */
export function usePagedList<T>({
  load,
  dataVersion,
  report,
}: {
  load: (query: ListQuery) => Promise<AdminPage<T>>;
  /** Changes when the data changed elsewhere (an erasure): the current page is loaded again. */
  dataVersion: number;
  report: (failure: unknown) => string | null;
}) {
  const text = admin.table;
  const [draft, setDraft] = useState("");
  const [query, setQuery] = useState("");
  // cursors[i] asks for page i + 1 (null: the first page).
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [reloads, setReloads] = useState(0);
  const [page, setPage] = useState<AdminPage<T> | null>(null);
  const [loading, setLoading] = useState(true);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const focusHeadingAfterLoad = useRef(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const cursor = cursors[cursors.length - 1] ?? null;
  const pageNumber = cursors.length;

  // biome-ignore lint/correctness/useExhaustiveDependencies: dataVersion and reloads only ask for the same page again.
  useEffect(() => {
    let current = true;
    setLoading(true);
    setError(null);
    load({ q: query, cursor, limit: PAGE_SIZE }).then(
      (result) => {
        if (!current) return;
        setPage(result);
        setLoading(false);
        // The count is null only from an answer without one (an older worker).
        setStatus(text.showing(result.items.length, pageNumber, query, result.total ?? null, PAGE_SIZE));
        if (focusHeadingAfterLoad.current) {
          // After Next or Previous the new page is read from its top: the pager sits below a
          // table taller than a phone's screen, and focusing the table itself scrolled only as
          // far as its bottom edge. The list's heading goes to the top of the window and takes focus.
          focusHeadingAfterLoad.current = false;
          const heading = headingRef.current;
          heading?.scrollIntoView({ block: "start" });
          heading?.focus({ preventScroll: true });
        }
      },
      (failure: unknown) => {
        if (!current) return;
        setLoading(false);
        focusHeadingAfterLoad.current = false;
        setError(report(failure));
      },
    );
    return () => {
      current = false;
    };
    // dataVersion and reloads only ask for the same page again.
  }, [load, query, cursor, pageNumber, dataVersion, reloads, report, text]);

  function search(event: FormEvent) {
    event.preventDefault();
    setQuery(draft.trim());
    setCursors([null]);
    setReloads((n) => n + 1);
  }

  function clear() {
    setDraft("");
    setQuery("");
    setCursors([null]);
    searchRef.current?.focus();
  }

  function next() {
    if (loading || !page?.next_cursor) return;
    focusHeadingAfterLoad.current = true;
    setCursors((stack) => [...stack, page.next_cursor]);
  }

  function previous() {
    if (loading || cursors.length === 1) return;
    focusHeadingAfterLoad.current = true;
    setCursors((stack) => stack.slice(0, -1));
  }

  return {
    draft,
    setDraft,
    query,
    page,
    pageNumber,
    hasNext: Boolean(page?.next_cursor),
    loading,
    status,
    error,
    headingRef,
    searchRef,
    search,
    clear,
    next,
    previous,
    reload: () => setReloads((n) => n + 1),
  };
}
