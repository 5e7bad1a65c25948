import type { CampaignJson } from "@shared/campaigns";
import { useState } from "react";
import { admin } from "../content";
import { useConsole } from "../context";
import { BusyButton, Messages } from "./Section";
import { useFocusRequest } from "./use-focus-request";

type Action = "pause" | "resume" | "cancel";

/**
 * Pause, Resume and Cancel of a scheduled, sending or paused campaign. Cancel asks first (its
 * question takes focus and says who will not get it; "Keep it" gives focus back); each answer
 * is the campaign as it is now, which the screen shows.
 */
export function CampaignsControls({
  campaign,
  onCampaign,
}: {
  campaign: CampaignJson;
  /** The campaign as the action left it, and the action (a cancel ends the screen's controls). */
  onCampaign: (campaign: CampaignJson, action: Action) => void;
}) {
  const { api, report } = useConsole();
  const text = admin.campaigns.controls;
  const [busy, setBusy] = useState<Action | null>(null);
  const [asking, setAsking] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const question = useFocusRequest<HTMLParagraphElement>();
  // "Keep it": the Cancel button is back once the question is gone, and focus returns to it.
  const cancelButton = useFocusRequest<HTMLButtonElement>();

  async function run(action: Action) {
    if (busy) return;
    setBusy(action);
    setError(null);
    setStatus(null);
    try {
      const call = { pause: api.pauseCampaign, resume: api.resumeCampaign, cancel: api.cancelCampaign }[action];
      const next = await call(campaign.id);
      setAsking(false);
      setStatus({ pause: text.paused, resume: text.resumed, cancel: text.cancelled }[action]);
      onCampaign(next, action);
    } catch (failure) {
      setError(report(failure));
    } finally {
      setBusy(null);
    }
  }

  // Not yet sent, counted from the audience confirmed at the start: never 0 while the list is prepared.
  const left = campaign.progress.unsent;
  return (
    <div className="campaign__part controls">
      <div className="button-row">
        {/* One button that turns from Pause into Resume and back: the same element, so it keeps focus. */}
        {(campaign.status === "sending" || campaign.status === "paused") &&
          (campaign.status === "sending" ? (
            <BusyButton key="toggle" className="button" busy={busy === "pause"} busyLabel={text.pausing} onClick={() => run("pause")}>
              {text.pause}
            </BusyButton>
          ) : (
            <BusyButton
              key="toggle"
              className="button button--primary"
              busy={busy === "resume"}
              busyLabel={text.resuming}
              onClick={() => run("resume")}
            >
              {text.resume}
            </BusyButton>
          ))}
        {!asking && (
          <button
            ref={cancelButton.ref}
            type="button"
            className="button button--danger"
            onClick={() => {
              setAsking(true);
              question.request();
            }}
          >
            {text.cancel}
          </button>
        )}
      </div>
      {asking && (
        <div className="confirm-step confirm-step--danger">
          <p ref={question.ref} tabIndex={-1} className="confirm-step__question">
            {text.confirmCancel}
          </p>
          <p className="hint">{left > 0 ? text.confirmCancelNote(left, campaign.audience.kind === "wave") : text.confirmCancelNone}</p>
          <div className="button-row">
            <BusyButton
              className="button button--danger"
              busy={busy === "cancel"}
              busyLabel={text.cancelling}
              onClick={() => run("cancel")}
            >
              {text.yesCancel}
            </BusyButton>
            <button
              type="button"
              className="button button--quiet"
              onClick={() => {
                setAsking(false);
                cancelButton.request();
              }}
            >
              {text.noCancel}
            </button>
          </div>
        </div>
      )}
      <Messages status={status} error={error} />
    </div>
  );
}
