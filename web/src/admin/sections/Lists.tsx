import type { AdminListedEntry, AdminSubmission } from "@shared/admin";
import { CONTACT_FORM } from "@shared/forms";
import { useCallback, useEffect, useMemo, useState } from "react";
import type { ListQuery } from "../api";
import { admin } from "../content";
import { useConsole } from "../context";
import { formatTime } from "../format";
import { EntryActions, type EntryActionHandlers, ReferredBy, Referrals, Waves } from "./EntryActions";
import { CampaignSubjects, Delivery, Invited, OnBehalf, Status } from "./ListCells";
import { type Column, PagedList } from "./PagedList";
import { Messages, Value } from "./Section";

/**
 * The console's two lists of records, the waitlist and the contact messages: each a paged,
 * searchable table (./PagedList.tsx) with its columns.
 */

/** A submitted field as text. */
function fieldText(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

const WAITLIST_COLUMNS: readonly Column<AdminListedEntry>[] = [
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
  // Issue 23: the age band (the child's, for an entry on behalf of a child), the country, and whether a parent agreed for a child.
  { key: "age-band", header: admin.waitlist.columns.ageBand, cell: (entry) => admin.waitlist.ageBands[entry.age_band] },
  { key: "country", header: admin.waitlist.columns.country, cell: (entry) => <Value>{entry.country}</Value> },
  { key: "on-behalf", header: admin.waitlist.columns.onBehalf, cell: (entry) => <OnBehalf entry={entry} /> },
  { key: "status", header: admin.waitlist.columns.status, cell: (entry) => <Status entry={entry} />, className: "cell-status" },
  {
    key: "place",
    header: admin.waitlist.columns.place,
    cell: (entry) => <Value>{entry.place === null ? null : admin.waitlist.place(entry.place)}</Value>,
    className: "numeric",
  },
  { key: "invited", header: admin.waitlist.columns.invited, cell: (entry) => <Invited entry={entry} />, className: "cell-invited" },
  { key: "waves", header: admin.waitlist.columns.waves, cell: (entry) => <Waves entry={entry} />, className: "cell-actions" },
  {
    key: "code",
    header: admin.waitlist.columns.referralCode,
    cell: (entry) => <Value>{entry.referral_code && <code>{entry.referral_code}</code>}</Value>,
  },
  {
    key: "referred-by",
    header: admin.waitlist.columns.referredBy,
    cell: (entry) => <ReferredBy entry={entry} />,
    className: "cell-actions",
  },
  {
    key: "referrals",
    header: admin.waitlist.columns.referrals,
    cell: (entry) => <Referrals entry={entry} />,
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

/**
 * The waitlist, with the operator's actions on one entry (./EntryActions.tsx): what each did is
 * said here; after one, `onChanged` loads the list and the figures again.
 */
export function WaitlistSection({ id, dataVersion, onChanged }: { id: string; dataVersion: number; onChanged: () => void }) {
  const { api, report } = useConsole();
  const [subjects, setSubjects] = useState<ReadonlyMap<number, string>>(new Map());
  const [said, setSaid] = useState<{ status: string | null; error: string | null }>({ status: null, error: null });
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
  const actions = useMemo((): EntryActionHandlers => {
    const act = async (call: () => Promise<string>) => {
      setSaid({ status: null, error: null });
      try {
        const status = await call();
        setSaid({ status, error: null });
        onChanged();
        return true;
      } catch (failure) {
        setSaid({ status: null, error: report(failure) });
        return false;
      }
    };
    const words = admin.waitlist;
    return {
      hold: (entry, held, reason) =>
        act(async () => {
          await api.hold(entry.id, held, reason);
          return held ? words.heldDone(entry.email) : words.released(entry.email);
        }),
      voidCredit: (entry, reason) =>
        act(async () => {
          const done = await api.voidReferral(entry.id, reason);
          return words.credit.done(entry.email, entry.referred_by ?? "", done.boost, done.referrer?.place ?? null);
        }),
    };
  }, [api, report, onChanged]);
  const load = useCallback((query: ListQuery) => api.waitlist(query), [api]);
  const download = useCallback(() => api.waitlistCsv(), [api]);
  return (
    <CampaignSubjects.Provider value={subjects}>
      <EntryActions.Provider value={actions}>
        <PagedList id={id} words={admin.waitlist} columns={WAITLIST_COLUMNS} load={load} download={download} dataVersion={dataVersion}>
          <Messages status={said.status} error={said.error} />
        </PagedList>
      </EntryActions.Provider>
    </CampaignSubjects.Provider>
  );
}

export function MessagesSection({ id, dataVersion }: { id: string; dataVersion: number }) {
  const { api } = useConsole();
  const load = useCallback((query: ListQuery) => api.submissions(CONTACT_FORM.slug, query), [api]);
  const download = useCallback(() => api.submissionsCsv(CONTACT_FORM.slug), [api]);
  return <PagedList id={id} words={admin.messages} columns={MESSAGE_COLUMNS} load={load} download={download} dataVersion={dataVersion} />;
}
