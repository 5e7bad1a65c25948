import { CAMPAIGN_POLL_MS, type CampaignJson } from "@shared/campaigns";
import { useEffect, useRef, useState } from "react";
import { admin } from "../content";
import { formatCount, formatTime } from "../format";
import { useConsole } from "../context";
import { LIVE_STATUSES, doneOf, preparing, skippedOf, statusWord, totalOf } from "./CampaignsShared";

/**
 * Reads the campaign again every CAMPAIGN_POLL_MS while it may change on its own (scheduled,
 * sending, paused), without reloading anything else; stops once it is sent or cancelled, or when
 * the screen unmounts (the operator left it). A failed read is said (`onError`) and tried again
 * at the next tick; a failure that changed the whole page (signed out) stops it. A hidden tab
 * asks nothing until it is shown again.
 */
export function useCampaignPolling(
  campaign: CampaignJson | null,
  onCampaign: (campaign: CampaignJson) => void,
  onError: (message: string | null) => void,
) {
  const { api, report } = useConsole();
  const live = campaign !== null && LIVE_STATUSES.has(campaign.status);
  const id = campaign?.id ?? null;
  const handlers = useRef({ onCampaign, onError });
  handlers.current = { onCampaign, onError };

  useEffect(() => {
    if (!live || id === null) return;
    let stopped = false;
    let timer: number | undefined;
    const schedule = () => {
      if (!stopped) timer = window.setTimeout(tick, CAMPAIGN_POLL_MS);
    };
    const tick = async () => {
      if (document.visibilityState === "hidden") return schedule();
      try {
        const next = await api.campaign(id);
        if (stopped) return;
        handlers.current.onError(null);
        handlers.current.onCampaign(next);
      } catch (failure) {
        if (stopped) return;
        const message = report(failure);
        if (message === null) return;
        handlers.current.onError(message);
      }
      schedule();
    };
    schedule();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [api, report, live, id]);
}

/** How many of `done` the live region has said: it speaks in steps of a tenth, and at every status change. */
const STEP = 10;

/**
 * A running campaign's progress: the counts, rate and time left, and a bar. The figures change
 * in place every poll; the live region speaks only at status changes and every tenth of the way,
 * so a screen reader is not read a number every two seconds.
 */
export function CampaignsProgress({ campaign, error }: { campaign: CampaignJson; error: string | null }) {
  const text = admin.campaigns.progress;
  const { progress, status } = campaign;
  const total = totalOf(campaign);
  const done = doneOf(campaign);
  const step = total > 0 ? Math.floor((done / total) * STEP) : 0;
  const word = statusWord(status);
  const [spoken, setSpoken] = useState<string | null>(null);
  const last = useRef<string | null>(null);

  useEffect(() => {
    const key = `${status}:${step}`;
    if (last.current === key) return;
    // The first reading is not news (the screen just opened, and its heading took focus).
    if (last.current !== null) setSpoken(text.live(word, done, total));
    last.current = key;
  }, [status, step, word, done, total, text]);

  // Not yet sent, from the first read: the target's people without a row count too.
  const queued = progress.unsent;
  const expanding = preparing(campaign);
  return (
    <div className="campaign__part progress">
      <h4 id={`campaign-${campaign.id}-progress`}>{text.title}</h4>
      {status === "scheduled" && campaign.send_at && <p className="notice">{text.scheduledNote(formatTime(campaign.send_at))}</p>}
      {status === "paused" && <p className="notice">{expanding ? text.pausedPreparing(total) : text.pausedNote}</p>}
      <div className="progress__bar">
        <label htmlFor={`campaign-${campaign.id}-bar`}>{text.bar}</label>
        {/* The total is the audience confirmed at the start, known before every recipient row exists. */}
        <progress id={`campaign-${campaign.id}-bar`} max={Math.max(total, 1)} value={Math.min(done, total)} />
        <p className="progress__summary">{expanding && done === 0 ? text.gettingReady(total) : text.summary(done, total)}</p>
      </div>
      <dl className="figures figures--compact">
        <Figure label={text.queued} value={formatCount(queued)} />
        <Figure label={text.sent} value={formatCount(progress.counts.sent)} />
        <Figure label={text.failed} value={formatCount(progress.counts.failed)} warn={progress.counts.failed > 0} />
        <Figure label={text.skipped} value={formatCount(skippedOf(campaign))} />
        <Figure label={text.rate} value={progress.rate_per_second > 0 ? text.perSecond(progress.rate_per_second) : text.noRate} small />
        <Figure label={text.left} value={progress.seconds_left === null ? text.noRate : text.leftIn(progress.seconds_left)} small />
      </dl>
      <p role="status" className="visually-hidden">
        {spoken}
      </p>
      <p role="alert" className={error ? "error" : "error error--empty"}>
        {error ? text.refreshFailed(error) : null}
      </p>
    </div>
  );
}

export function Figure({ label, value, warn = false, small = false }: { label: string; value: string; warn?: boolean; small?: boolean }) {
  return (
    <div className={`figure${warn ? " figure--warning" : ""}${small ? " figure--small" : ""}`}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
