import type { CampaignJson } from "@shared/campaigns";
import { type FormEvent, type Ref, useId, useState } from "react";
import { admin } from "../content";
import { formatLocal, formatTime, localZone, parseLocal } from "../format";
import { useConsole } from "../context";
import { BusyButton, Messages } from "./Section";
import { useFocusRequest } from "./use-focus-request";

type Confirm = { size: number; sendAt: Date | null; campaign: CampaignJson };

/**
 * Sending a draft: now, or at a time the operator picks in their own time zone (sent to the API
 * as ISO UTC). Nothing goes before a confirmation step that counts the audience again and says
 * it ("Send to 1,234 people?"), which takes focus; "Don't send" gives focus back. `blocked` (the
 * sender settings are missing) keeps the buttons focusable but inert, saying why.
 */
export function CampaignsSend({
  prepare,
  blocked,
  onSent,
}: {
  prepare: () => Promise<CampaignJson | null>;
  blocked: string | null;
  onSent: (campaign: CampaignJson, status: string) => void;
}) {
  const { api, report } = useConsole();
  const text = admin.campaigns.send;
  const id = useId();
  const [mode, setMode] = useState<"now" | "at">("now");
  const [at, setAt] = useState("");
  const [atError, setAtError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const questionLine = useFocusRequest<HTMLParagraphElement>();
  // The first button is back once the question is gone: focus returns to it.
  const startButton = useFocusRequest<HTMLButtonElement>();

  async function ask(event: FormEvent) {
    event.preventDefault();
    if (busy || blocked) return;
    setError(null);
    setAtError(null);
    let sendAt: Date | null = null;
    if (mode === "at") {
      sendAt = parseLocal(at);
      if (!sendAt) return setAtError(text.atRequired);
      if (sendAt.getTime() <= Date.now()) return setAtError(text.atPast);
    }
    setBusy(true);
    setStatus(text.checking);
    try {
      const campaign = await prepare();
      if (!campaign) return setStatus(null);
      const { audience_size: size } = await api.audienceSize(campaign.audience);
      setStatus(null);
      if (size === 0) return setError(text.empty);
      setConfirm({ size, sendAt, campaign });
      questionLine.request();
    } catch (failure) {
      setStatus(null);
      setError(report(failure));
    } finally {
      setBusy(false);
    }
  }

  async function send() {
    if (!confirm || busy) return;
    setBusy(true);
    setError(null);
    try {
      const sendAt = confirm.sendAt;
      const campaign = await api.sendCampaign(confirm.campaign.id, { send_at: sendAt ? sendAt.toISOString() : null });
      setConfirm(null);
      onSent(campaign, sendAt ? text.scheduled(formatTime(sendAt.toISOString())) : text.started);
    } catch (failure) {
      setError(report(failure));
    } finally {
      setBusy(false);
    }
  }

  function dontSend() {
    setConfirm(null);
    startButton.request();
  }

  const question = confirm
    ? confirm.sendAt
      ? text.confirmAt(confirm.size, formatLocal(confirm.sendAt), formatTime(confirm.sendAt.toISOString()))
      : text.confirmNow(confirm.size)
    : null;

  return (
    <div className="campaign__part send">
      <h4>{text.title}</h4>
      <form onSubmit={ask} noValidate>
        <fieldset className="send__when">
          <legend className="visually-hidden">{text.title}</legend>
          <div className="choice">
            <input id={`${id}-now`} type="radio" name={`${id}-when`} checked={mode === "now"} onChange={() => setMode("now")} />
            <label htmlFor={`${id}-now`}>{text.now}</label>
          </div>
          <div className="choice">
            <input id={`${id}-at`} type="radio" name={`${id}-when`} checked={mode === "at"} onChange={() => setMode("at")} />
            <label htmlFor={`${id}-at`}>{text.at}</label>
          </div>
          {mode === "at" && (
            <div className="audience__field audience__field--nested">
              <label htmlFor={`${id}-time`}>{text.atLabel}</label>
              <p id={`${id}-time-hint`} className="hint">
                {text.atHint(localZone())}
              </p>
              <input
                id={`${id}-time`}
                className="input input--time"
                type="datetime-local"
                value={at}
                onChange={(event) => setAt(event.target.value)}
                aria-invalid={atError ? true : undefined}
                aria-describedby={`${id}-time-hint${atError ? ` ${id}-time-error` : ""}`}
              />
              {atError && (
                <p id={`${id}-time-error`} className="field-error">
                  {atError}
                </p>
              )}
            </div>
          )}
        </fieldset>
        {blocked && (
          <p id={`${id}-blocked`} className="hint">
            {blocked}
          </p>
        )}
        {!confirm && (
          <p>
            <StartButton
              buttonRef={startButton.ref}
              busy={busy}
              inactive={blocked !== null}
              describedBy={blocked ? `${id}-blocked` : undefined}
              label={mode === "now" ? `${text.now}…` : `${text.schedule}…`}
            />
          </p>
        )}
      </form>
      {confirm && question && (
        <div className="confirm-step">
          <p ref={questionLine.ref} tabIndex={-1} className="confirm-step__question">
            {question}
          </p>
          <p className="hint">{text.confirmNote}</p>
          <div className="button-row">
            <BusyButton className="button button--primary" busy={busy} busyLabel={text.sendingNow} onClick={send}>
              {confirm.sendAt ? text.yesSchedule : text.yes}
            </BusyButton>
            <button type="button" className="button button--quiet" onClick={dontSend}>
              {text.no}
            </button>
          </div>
        </div>
      )}
      <Messages status={status} error={error} />
    </div>
  );
}

/** The first press: counts the audience and asks (a ref, so "Don't send" can give focus back). */
function StartButton({
  buttonRef,
  busy,
  inactive,
  describedBy,
  label,
}: {
  buttonRef: Ref<HTMLButtonElement>;
  busy: boolean;
  inactive: boolean;
  describedBy: string | undefined;
  label: string;
}) {
  return (
    <button
      ref={buttonRef}
      type="submit"
      className="button button--primary"
      aria-disabled={busy || inactive || undefined}
      aria-describedby={describedBy}
    >
      {busy ? admin.campaigns.send.checking : label}
    </button>
  );
}
