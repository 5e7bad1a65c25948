import type { AdminPage, AdminSubmission, AdminWaitlistEntry, DeliveryStatus } from "@shared/admin";
import { CONTACT_FORM } from "@shared/forms";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
  type RefObject,
} from "react";
import type { CsvFile, ListQuery } from "../api";
import { admin } from "../content";
import { formatCount, formatTime } from "../format";
import { useConsole } from "../context";
import { saveFile } from "../download";
import { PAGE_SIZE } from "./paged-list";
import { openCampaign } from "./CampaignsShared";
import { BusyButton, Messages, Section, Value } from "./Section";

/** The campaigns' subjects by id, for the waitlist's Invited column (empty until read, or when the read failed). */
const CampaignSubjects = createContext<ReadonlyMap<number, string>>(new Map());

/**
 * Whether a scrolling box is wider inside than it shows (its table overflows), measured now and
 * whenever it resizes: the scroll hint shows then, at any width, and never when all fits.
 */
function useOverflow(ref: RefObject<HTMLElement | null>, rows: unknown): boolean {
  const [overflow, setOverflow] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again when the rows change.
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => setOverflow(box.scrollWidth > box.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [ref, rows]);
  return overflow;
}

type Column<T> = {
  key: string;
  header: string;
  cell: (item: T) => ReactNode;
  /** The column that names the row (a row header for screen readers). */
  rowHeader?: boolean;
  className?: string;
};

type ListProps<T> = {
  id: string;
  title: string;
  searchLabel: string;
  caption: string;
  columns: readonly Column<T>[];
  load: (query: ListQuery) => Promise<AdminPage<T>>;
  download: () => Promise<CsvFile>;
  /** Changes when the data changed elsewhere (an erasure): the current page is loaded again. */
  dataVersion: number;
};

/**
 * A list of the API as a searchable, paged table. Paging is by keyset: each page's `next_cursor`
 * asks for the following page, and the cursors of the pages seen are kept as a stack, so
 * Previous goes back to the cursor before. A search starts again at page one. The table scrolls
 * sideways inside its own region (focusable, so keyboard users can scroll it too), never the page.
 * "Download CSV" fetches the whole export with the operator's token and saves it.
 */
function PagedList<T extends { id: number }>({ id, title, searchLabel, caption, columns, load, download, dataVersion }: ListProps<T>) {
  const { report } = useConsole();
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
  const [downloading, setDownloading] = useState(false);
  const [downloadStatus, setDownloadStatus] = useState<string | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const focusHeadingAfterLoad = useRef(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const searchId = useId();
  const captionId = `${id}-caption`;

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

  async function downloadCsv() {
    setDownloading(true);
    setDownloadStatus(text.downloading);
    setDownloadError(null);
    try {
      const file = await download();
      saveFile(file.blob, file.fileName);
      setDownloadStatus(text.downloaded(file.fileName));
    } catch (failure) {
      setDownloadStatus(null);
      setDownloadError(report(failure));
    } finally {
      setDownloading(false);
    }
  }

  const items = page?.items ?? [];
  const scrollRef = useRef<HTMLDivElement>(null);
  const overflow = useOverflow(scrollRef, items);
  const hasNext = Boolean(page?.next_cursor);

  return (
    <Section
      id={id}
      title={title}
      headingRef={headingRef}
      actions={
        <BusyButton className="button button--small" onClick={downloadCsv} busy={downloading} busyLabel={text.downloading}>
          {text.download}
        </BusyButton>
      }
    >
      <Messages status={downloadStatus} error={downloadError} />
      {/* biome-ignore lint/a11y/useSemanticElements: the <search> element is too new for some screen readers; the role says the same. */}
      <form role="search" className="search" onSubmit={search} aria-label={searchLabel}>
        <label htmlFor={searchId}>{searchLabel}</label>
        <div className="search__row">
          <input
            id={searchId}
            ref={searchRef}
            className="input"
            type="search"
            name="q"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
          <button type="submit" className="button">
            {text.searchButton}
          </button>
          {(query || draft) && (
            <button type="button" className="button button--quiet" onClick={clear}>
              {text.clear}
            </button>
          )}
        </div>
      </form>

      <Messages status={loading && !page ? admin.loading : status} error={error} />
      {error && (
        <p>
          <button type="button" className="button button--small" onClick={() => setReloads((n) => n + 1)}>
            {admin.tryAgain}
          </button>
        </p>
      )}

      {page && items.length === 0 && !error && <p className="empty">{query ? text.noMatch(query) : text.empty}</p>}
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
                {caption}
                {pageNumber > 1 && <span className="visually-hidden">, {text.page(pageNumber)}</span>}
              </caption>
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
            </table>
          </div>
        </>
      )}

      {(pageNumber > 1 || hasNext) && (
        // biome-ignore lint/a11y/useSemanticElements: two buttons, not form fields: a fieldset would need a legend.
        <div className="pager" role="group" aria-label={text.pages(title)}>
          <button
            type="button"
            className="button button--small"
            onClick={previous}
            disabled={pageNumber === 1}
            aria-disabled={loading || undefined}
          >
            {text.previous}
          </button>
          <span className="pager__page">{text.page(pageNumber)}</span>
          <button type="button" className="button button--small" onClick={next} disabled={!hasNext} aria-disabled={loading || undefined}>
            {text.next}
          </button>
        </div>
      )}
    </Section>
  );
}

/**
 * The team's alert e-mail about a record: sent (and when); failed (its error and next try); or
 * waiting, which is no failure: no attempt failed, and the next run sends it (in the digest once
 * the hour's single e-mails are used up).
 */
function Delivery({ item }: { item: DeliveryStatus }) {
  const text = admin.notification;
  if (item.email_sent) {
    return (
      <>
        <span className="badge badge--sent">{text.sentBadge}</span>
        {item.email_sent_at && <span className="cell-note">{formatTime(item.email_sent_at)}</span>}
      </>
    );
  }
  if (item.notify_last_error) {
    const nextTry = item.notify_next_attempt_at ? formatTime(item.notify_next_attempt_at) : null;
    return (
      <>
        <span className="badge badge--failed">{text.failed}</span>
        <span className="cell-note cell-note--error">{text.failedNote(item.notify_attempts, item.notify_last_error, nextTry)}</span>
      </>
    );
  }
  return (
    <>
      <span className="badge badge--waiting">{text.waiting}</span>
      <span className="cell-note">{text.waitingNote}</span>
    </>
  );
}

/** Whether the joiner confirmed the address (and when), or is still to. */
function Status({ entry }: { entry: AdminWaitlistEntry }) {
  const text = admin.waitlist.status;
  if (entry.status === "confirmed") {
    return (
      <>
        <span className="badge badge--confirmed">{text.confirmed}</span>
        {entry.confirmed_at && <span className="cell-note">{formatTime(entry.confirmed_at)}</span>}
      </>
    );
  }
  return <span className="badge badge--pending">{text.pending}</span>;
}

/** When an invite wave drew the entry, and which campaign it was (issue 17); a dash while not invited. */
function Invited({ entry }: { entry: AdminWaitlistEntry }) {
  const subjects = useContext(CampaignSubjects);
  if (!entry.invited_at) return <Value>{null}</Value>;
  const campaignId = entry.invited_campaign_id;
  const subject = campaignId === null ? undefined : subjects.get(campaignId);
  return (
    <>
      {formatTime(entry.invited_at)}
      {campaignId !== null && (
        <span className="cell-note">
          {/* The campaign by number and subject, opening it in Campaigns (review 17R-ui 7). */}
          <button
            type="button"
            className="link-button"
            aria-label={subject === undefined ? undefined : admin.waitlist.openInvitedBy(campaignId, subject)}
            onClick={() => openCampaign(campaignId)}
          >
            {subject === undefined ? admin.waitlist.invitedBy(campaignId) : admin.waitlist.invitedByNamed(campaignId, subject)}
          </button>
        </span>
      )}
    </>
  );
}

/** A submitted field as text. */
function fieldText(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

const WAITLIST_COLUMNS: readonly Column<AdminWaitlistEntry>[] = [
  { key: "email", header: admin.waitlist.columns.email, cell: (entry) => entry.email, rowHeader: true, className: "cell-email" },
  { key: "joined", header: admin.waitlist.columns.joined, cell: (entry) => formatTime(entry.created_at), className: "cell-time" },
  { key: "source", header: admin.waitlist.columns.source, cell: (entry) => <Value>{entry.source}</Value> },
  {
    key: "campaign",
    header: admin.waitlist.columns.campaign,
    cell: (entry) => {
      const parts = [entry.utm_source, entry.utm_medium, entry.utm_campaign];
      return <Value>{parts.some(Boolean) ? parts.map((part) => part || "–").join(" / ") : null}</Value>;
    },
    className: "cell-campaign",
  },
  { key: "referrer", header: admin.waitlist.columns.referrer, cell: (entry) => <Value>{entry.referrer_host}</Value> },
  { key: "status", header: admin.waitlist.columns.status, cell: (entry) => <Status entry={entry} />, className: "cell-status" },
  {
    key: "place",
    header: admin.waitlist.columns.place,
    cell: (entry) => <Value>{entry.place === null ? null : admin.waitlist.place(entry.place)}</Value>,
    className: "numeric",
  },
  { key: "invited", header: admin.waitlist.columns.invited, cell: (entry) => <Invited entry={entry} />, className: "cell-invited" },
  {
    key: "code",
    header: admin.waitlist.columns.referralCode,
    cell: (entry) => <Value>{entry.referral_code && <code>{entry.referral_code}</code>}</Value>,
  },
  {
    key: "referred-by",
    header: admin.waitlist.columns.referredBy,
    cell: (entry) => <Value>{entry.referred_by && <code>{entry.referred_by}</code>}</Value>,
  },
  {
    key: "referrals",
    header: admin.waitlist.columns.referrals,
    cell: (entry) => formatCount(entry.referrals_confirmed),
    className: "numeric",
  },
  {
    key: "notification",
    header: admin.waitlist.columns.notification,
    cell: (entry) => <Delivery item={entry} />,
    className: "cell-delivery",
  },
];

const MESSAGE_COLUMNS: readonly Column<AdminSubmission>[] = [
  {
    key: "received",
    header: admin.messages.columns.received,
    cell: (message) => formatTime(message.created_at),
    rowHeader: true,
    className: "cell-time",
  },
  { key: "name", header: admin.messages.columns.name, cell: (message) => <Value>{fieldText(message.fields.name)}</Value> },
  {
    key: "email",
    header: admin.messages.columns.email,
    cell: (message) => <Value>{fieldText(message.fields.email)}</Value>,
    className: "cell-email",
  },
  {
    key: "message",
    header: admin.messages.columns.message,
    cell: (message) => <Value>{fieldText(message.fields.message)}</Value>,
    className: "cell-message",
  },
  {
    key: "notification",
    header: admin.messages.columns.notification,
    cell: (message) => <Delivery item={message} />,
    className: "cell-delivery",
  },
];

export function WaitlistSection({ id, dataVersion }: { id: string; dataVersion: number }) {
  const { api } = useConsole();
  const [subjects, setSubjects] = useState<ReadonlyMap<number, string>>(new Map());
  // The Invited column names campaigns by subject: one read of the list (a failure leaves the numbers alone).
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when the data changed elsewhere.
  useEffect(() => {
    let current = true;
    api.campaigns().then(
      (list) => current && setSubjects(new Map(list.campaigns.map((campaign) => [campaign.id, campaign.subject]))),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, dataVersion]);
  const load = useCallback((query: ListQuery) => api.waitlist(query), [api]);
  const download = useCallback(() => api.waitlistCsv(), [api]);
  const text = admin.waitlist;
  return (
    <CampaignSubjects.Provider value={subjects}>
      <PagedList
        id={id}
        title={text.title}
        searchLabel={text.searchLabel}
        caption={text.caption}
        columns={WAITLIST_COLUMNS}
        load={load}
        download={download}
        dataVersion={dataVersion}
      />
    </CampaignSubjects.Provider>
  );
}

export function MessagesSection({ id, dataVersion }: { id: string; dataVersion: number }) {
  const { api } = useConsole();
  const load = useCallback((query: ListQuery) => api.submissions(CONTACT_FORM.slug, query), [api]);
  const download = useCallback(() => api.submissionsCsv(CONTACT_FORM.slug), [api]);
  const text = admin.messages;
  return (
    <PagedList
      id={id}
      title={text.title}
      searchLabel={text.searchLabel}
      caption={text.caption}
      columns={MESSAGE_COLUMNS}
      load={load}
      download={download}
      dataVersion={dataVersion}
    />
  );
}
