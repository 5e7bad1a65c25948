import type { AdminSubmission, AdminWaitlistEntry } from "@shared/admin";
import { CONTACT_FORM } from "@shared/forms";
import { useCallback, useEffect, useState } from "react";
import type { ListQuery } from "../api";
import { admin } from "../content";
import { useConsole } from "../context";
import { formatCount, formatTime } from "../format";
import { CampaignSubjects, Delivery, Invited, Status } from "./ListCells";
import { type Column, PagedList } from "./PagedList";
import { Value } from "./Section";

/**
 * The console's two lists of records, the waitlist and the contact messages: each a paged,
 * searchable table (./PagedList.tsx) with its columns.
 */

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
  return (
    <CampaignSubjects.Provider value={subjects}>
      <PagedList id={id} words={admin.waitlist} columns={WAITLIST_COLUMNS} load={load} download={download} dataVersion={dataVersion} />
    </CampaignSubjects.Provider>
  );
}

export function MessagesSection({ id, dataVersion }: { id: string; dataVersion: number }) {
  const { api } = useConsole();
  const load = useCallback((query: ListQuery) => api.submissions(CONTACT_FORM.slug, query), [api]);
  const download = useCallback(() => api.submissionsCsv(CONTACT_FORM.slug), [api]);
  return <PagedList id={id} words={admin.messages} columns={MESSAGE_COLUMNS} load={load} download={download} dataVersion={dataVersion} />;
}
