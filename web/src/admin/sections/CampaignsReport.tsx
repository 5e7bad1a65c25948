import type { CampaignJson } from "@shared/campaigns";
import { type Ref, useState } from "react";
import { admin } from "../content";
import { formatCount, formatTime } from "../format";
import { useConsole } from "../context";
import { saveFile } from "../download";
import { Figure } from "./CampaignsProgress";
import { doneOf, skippedOf, totalOf } from "./CampaignsShared";
import { BusyButton, Messages } from "./Section";

/**
 * A finished (sent or cancelled) campaign's report: its counts, when it ran, and the recipients
 * with their outcome as a CSV (fetched with the operator's token, saved through download.ts). A
 * cancelled one says how many got it and how many did not (a wave's are back in line), with the
 * people not sent apart from those skipped for a reason of their own. `headingRef` takes focus
 * when the live controls above it went away (CampaignsCampaign).
 */
export function CampaignsReport({ campaign, headingRef }: { campaign: CampaignJson; headingRef?: Ref<HTMLHeadingElement> }) {
  const { api, report } = useConsole();
  const text = admin.campaigns.report;
  const progress = admin.campaigns.progress;
  const { counts } = campaign.progress;
  const cancelled = campaign.status === "cancelled";
  const total = totalOf(campaign);
  const [downloading, setDownloading] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setDownloading(true);
    setError(null);
    setStatus(admin.table.downloading);
    try {
      const file = await api.recipientsCsv(campaign.id);
      saveFile(file.blob, file.fileName);
      setStatus(admin.table.downloaded(file.fileName));
    } catch (failure) {
      setStatus(null);
      setError(report(failure));
    } finally {
      setDownloading(false);
    }
  }

  return (
    <div className="campaign__part report">
      <h4 ref={headingRef} tabIndex={-1}>
        {text.title}
      </h4>
      <p className="progress__summary">
        {cancelled
          ? text.cancelledSummary(
              campaign.finished_at ? formatTime(campaign.finished_at) : admin.none,
              counts.sent,
              campaign.progress.cancelled,
              campaign.audience.kind === "wave",
            )
          : progress.summary(doneOf(campaign), total)}
      </p>
      <dl className="figures figures--compact">
        <Figure label={text.audience} value={formatCount(total)} />
        <Figure label={progress.sent} value={formatCount(counts.sent)} />
        <Figure label={progress.failed} value={formatCount(counts.failed)} warn={counts.failed > 0} />
        <Figure label={progress.skipped} value={formatCount(skippedOf(campaign))} />
        {(cancelled || campaign.progress.cancelled > 0) && <Figure label={text.notSent} value={formatCount(campaign.progress.cancelled)} />}
        {counts.queued + counts.sending > 0 && <Figure label={progress.queued} value={formatCount(counts.queued + counts.sending)} />}
      </dl>
      <p className="hint">{text.skippedNote}</p>
      <dl className="fields">
        <div className="field">
          <dt>{text.started}</dt>
          <dd>{campaign.started_at ? formatTime(campaign.started_at) : admin.none}</dd>
        </div>
        <div className="field">
          <dt>{cancelled ? text.cancelledAt : text.finished}</dt>
          <dd>{campaign.finished_at ? formatTime(campaign.finished_at) : admin.none}</dd>
        </div>
      </dl>
      <p>
        <BusyButton className="button" busy={downloading} busyLabel={admin.table.downloading} onClick={download}>
          {text.download}
        </BusyButton>
      </p>
      <Messages status={status} error={error} />
    </div>
  );
}
