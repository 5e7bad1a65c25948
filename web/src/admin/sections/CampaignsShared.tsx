import type { CampaignAudience, CampaignJson, CampaignStatus } from "@shared/campaigns";
import { CAMPAIGN_LIMITS } from "@shared/campaigns";
import { useEffect, useRef, type ReactNode } from "react";
import { admin } from "../content";

/**
 * What the Campaigns view's parts share: the heading each screen of it starts with (focused when
 * the operator moved to that screen), the status badge and word, and the audience as the form holds it.
 */

/** A screen's <h3>: it takes focus when `focus` changes to a number above 0 (the operator moved here). */
export function ScreenHeading({ focus, children }: { focus: number; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus > 0) ref.current?.focus();
  }, [focus]);
  return (
    <h3 ref={ref} tabIndex={-1} className="campaign__title">
      {children}
    </h3>
  );
}

const BADGE: Record<CampaignStatus, string> = {
  draft: "badge--pending",
  scheduled: "badge--waiting",
  sending: "badge--sending",
  paused: "badge--waiting",
  cancelled: "badge--failed",
  sent: "badge--sent",
};

export function StatusBadge({ status }: { status: CampaignStatus }) {
  return <span className={`badge ${BADGE[status]}`}>{statusWord(status)}</span>;
}

/** A campaign's status in words; a status this console does not know yet (a newer worker) as the API named it. */
export function statusWord(status: CampaignStatus): string {
  return admin.campaigns.status[status] ?? status;
}

/**
 * The people a campaign goes to: before sending, its audience now; once started, the audience
 * confirmed at the start until every recipient row exists, then the rows (review 17R-ui 2: never
 * "0 of 0" while the list is prepared).
 */
export function totalOf(campaign: CampaignJson): number {
  const { target, expanded, expansion_done } = campaign.progress;
  if (target === null || expansion_done) return campaign.audience_size;
  return Math.max(target, expanded);
}

/** Recipients settled (sent, failed or skipped) of the campaign's audience. */
export function doneOf(campaign: CampaignJson): number {
  const { counts } = campaign.progress;
  return counts.sent + counts.failed + counts.skipped;
}

/** Whether sending started and the recipient list is still being prepared. */
export function preparing(campaign: CampaignJson): boolean {
  return !campaign.progress.expansion_done && (campaign.status === "sending" || campaign.status === "paused");
}

/**
 * Skipped for a reason of the person's own (unsubscribed, bounced, complained, erased), apart
 * from the rows skipped because the campaign was cancelled. `progress.cancelled` also counts the
 * people who never had a row (a cancel before the list was ready): those are not rows.
 */
export function skippedOf(campaign: CampaignJson): number {
  const { counts, cancelled, target, expanded, expansion_done } = campaign.progress;
  const neverPrepared = campaign.status === "cancelled" && !expansion_done && target !== null ? Math.max(0, target - expanded) : 0;
  return Math.max(0, counts.skipped - (cancelled - neverPrepared));
}

/** The window event another section sends to open a campaign (the waitlist's Invited column). */
export const OPEN_CAMPAIGN_EVENT = "admin:open-campaign";

/** Asks the Campaigns section to open campaign `id` (it reads it and moves focus to its heading). */
export function openCampaign(id: number): void {
  window.dispatchEvent(new CustomEvent<number>(OPEN_CAMPAIGN_EVENT, { detail: id }));
}

/** Statuses in which a campaign may still change on its own (sending, a scheduled start): the view polls them. */
export const LIVE_STATUSES: ReadonlySet<CampaignStatus> = new Set(["scheduled", "sending", "paused"]);

/** The audience as the composer's fields hold it (text, as typed). */
export type AudienceFields = { kind: "all" | "wave"; size: string; utmSource: string };

export function audienceFieldsOf(audience: CampaignAudience | null): AudienceFields {
  if (!audience) return { kind: "all", size: "", utmSource: "" };
  return {
    kind: audience.kind,
    size: audience.kind === "wave" ? String(audience.size) : "",
    utmSource: audience.utm_source ?? "",
  };
}

/** A wave's size as typed, when it is one (a whole number from 1 to the API's maximum). */
export function waveSizeOf(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const size = Number(text.trim());
  return size >= 1 && size <= CAMPAIGN_LIMITS.waveMax ? size : null;
}

/**
 * The audience the API takes, or null while a wave's size is not a valid number. utm_source
 * is sent lower-cased (as the waitlist stores it); empty means no narrowing.
 */
export function audienceOf(fields: AudienceFields): CampaignAudience | null {
  const utm = fields.utmSource.trim().toLowerCase();
  const utm_source = utm === "" ? null : utm;
  if (fields.kind === "all") return { kind: "all", utm_source };
  const size = waveSizeOf(fields.size);
  return size === null ? null : { kind: "wave", size, utm_source };
}
