import type { AdminWaitlistEntry, DeliveryStatus } from "@shared/admin";
import { createContext, useContext } from "react";
import { admin } from "../content";
import { formatTime } from "../format";
import { openCampaign } from "./CampaignsShared";
import { Value } from "./Section";

/** The campaigns' subjects by id, for the waitlist's Invited column (empty until read, or when the read failed). */
export const CampaignSubjects = createContext<ReadonlyMap<number, string>>(new Map());

/**
 * The team's alert e-mail about a record: sent (and when); failed (its error and next try); or
 * waiting, which is no failure: no attempt failed, and the next run sends it (in the digest once
 * the hour's single e-mails are used up).
 */
export function Delivery({ item }: { item: DeliveryStatus }) {
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
export function Status({ entry }: { entry: AdminWaitlistEntry }) {
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
export function Invited({ entry }: { entry: AdminWaitlistEntry }) {
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

/** An entry a parent or guardian agreed to on behalf of a child (issue 23): a badge and what it means; a dash otherwise. */
export function OnBehalf({ entry }: { entry: AdminWaitlistEntry }) {
  if (!entry.on_behalf_of_child) return <Value>{null}</Value>;
  return (
    <>
      <span className="badge badge--child">{admin.waitlist.onBehalf}</span>
      <span className="cell-note">{admin.waitlist.onBehalfNote}</span>
    </>
  );
}
