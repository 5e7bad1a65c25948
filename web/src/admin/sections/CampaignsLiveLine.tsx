import type { CampaignJson } from "@shared/campaigns";
import { useState } from "react";
import { admin } from "../content";
import { useConsole } from "../context";
import { doneOf, statusWord, totalOf } from "./CampaignsShared";
import { BusyButton } from "./Section";

/**
 * The live state in one line under the title, with Pause or Resume: on a phone the progress
 * panel is below the fold, and a small wave is done before anyone scrolls to it.
 */
export function CampaignsLiveLine({ campaign, onCampaign }: { campaign: CampaignJson; onCampaign: (campaign: CampaignJson) => void }) {
  const { api, report } = useConsole();
  const text = admin.campaigns;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const done = doneOf(campaign);
  const total = totalOf(campaign);
  const status = statusWord(campaign.status);
  const sending = campaign.status === "sending";

  async function toggle() {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      onCampaign(await (sending ? api.pauseCampaign(campaign.id) : api.resumeCampaign(campaign.id)));
    } catch (failure) {
      setError(report(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="campaign__live">
      <p>
        {done === 0 && !campaign.progress.expansion_done ? text.progress.gettingReady(total) : text.progress.compact(status, done, total)}
        {" · "}
        <BusyButton
          className="link-button"
          busy={busy}
          busyLabel={sending ? text.controls.pausing : text.controls.resuming}
          onClick={toggle}
        >
          {sending ? text.controls.pause : text.controls.resume} <span className="visually-hidden">{text.controls.liveSuffix}</span>
        </BusyButton>
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}
