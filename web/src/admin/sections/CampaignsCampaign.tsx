import type { CampaignJson } from "@shared/campaigns";
import { useEffect, useRef, useState } from "react";
import { admin } from "../content";
import { useConsole } from "../context";
import { CampaignsComposer, checkDraft, type DraftErrors, type DraftFields, draftFieldsOf } from "./CampaignsComposer";
import { CampaignsControls } from "./CampaignsControls";
import { CampaignsDeadLetters } from "./CampaignsDeadLetters";
import { CampaignsPreview } from "./CampaignsPreview";
import { CampaignsProgress, useCampaignPolling } from "./CampaignsProgress";
import { CampaignsReport } from "./CampaignsReport";
import { CampaignsSend } from "./CampaignsSend";
import { LIVE_STATUSES, ScreenHeading, StatusBadge, statusWord } from "./CampaignsShared";
import { CampaignsLiveLine } from "./CampaignsLiveLine";
import { CampaignsSummary } from "./CampaignsSummary";
import { BusyButton, Messages } from "./Section";
import { useFocusRequest } from "./use-focus-request";

/**
 * One campaign's screen. A draft (or a new one) is the composer with Preview, "Send a test to me"
 * and Send, each of which saves unsaved changes first; a scheduled, sending or paused one shows its
 * progress (polled) with Pause, Resume and Cancel; a sent or cancelled one its report. Missing
 * sender settings and what the transport cannot do are said at the top, naming what to set.
 */
export function CampaignsCampaign({ initial, focus }: { initial: CampaignJson | null; focus: number }) {
  const { api, report } = useConsole();
  const text = admin.campaigns;
  const [campaign, setCampaign] = useState<CampaignJson | null>(initial);
  const [fields, setFields] = useState<DraftFields>(() => draftFieldsOf(initial));
  // The fields as last saved (or loaded): different fields are unsaved changes.
  const [savedFields, setSavedFields] = useState<DraftFields | null>(() => (initial ? draftFieldsOf(initial) : null));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [showErrors, setShowErrors] = useState(false);
  const [focusErrors, setFocusErrors] = useState(0);
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pollError, setPollError] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  // The audience's size as the composer last counted it: an empty audience cannot be sent.
  const [liveSize, setLiveSize] = useState<number | null>(null);
  // What the test send said, shown under the preview's row of buttons (where it was pressed).
  const [tested, setTested] = useState<{ status: string | null; error: string | null }>({ status: null, error: null });
  const previousStatus = useRef(initial?.status ?? null);
  // Bumped when an action replaced the part that had focus (sent, cancelled): the heading takes it.
  const [refocus, setRefocus] = useState(0);
  const id = campaign?.id ?? null;
  // The progress and its controls: when the campaign ends they go, and focus that was in them
  // (or nowhere) goes to the report's heading instead of dropping to <body>.
  const liveRef = useRef<HTMLDivElement>(null);
  const reportHeading = useFocusRequest<HTMLHeadingElement>();

  // The list's copy may be a few seconds old: the screen reads the campaign once when it opens.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the screen opens.
  useEffect(() => {
    if (!initial) return;
    let current = true;
    api.campaign(initial.id).then(
      (fresh) => current && show(fresh),
      (failure: unknown) => current && setError(report(failure)),
    );
    return () => {
      current = false;
    };
  }, []);

  /** Shows the campaign as the API gave it; a status that changed meanwhile is said. */
  function show(next: CampaignJson) {
    const was = previousStatus.current;
    if (was !== null && LIVE_STATUSES.has(was) && !LIVE_STATUSES.has(next.status)) {
      const active = document.activeElement;
      if (active === null || active === document.body || liveRef.current?.contains(active)) reportHeading.request();
    }
    setCampaign(next);
    if (previousStatus.current !== null && previousStatus.current !== next.status) {
      setStatus(text.statusChanged(statusWord(next.status)));
    }
    previousStatus.current = next.status;
  }

  useCampaignPolling(campaign, show, setPollError);

  const dirty = savedFields === null || JSON.stringify(fields) !== JSON.stringify(savedFields);

  /** The draft as saved, saving the fields first if they changed (null: they need correcting, or saving failed). */
  async function save(): Promise<CampaignJson | null> {
    const checked = checkDraft(fields);
    if ("errors" in checked) {
      setErrors(checked.errors);
      setShowErrors(true);
      setFocusErrors((n) => n + 1);
      setError(text.composer.fixFirst);
      return null;
    }
    setErrors({});
    if (campaign && !dirty) return campaign;
    setSaving(true);
    setError(null);
    try {
      const saved = campaign ? await api.updateCampaign(campaign.id, checked.draft) : await api.createCampaign(checked.draft);
      const savedAs = draftFieldsOf(saved);
      show(saved);
      setFields(savedAs);
      setSavedFields(savedAs);
      setStatus(text.composer.saved);
      return saved;
    } catch (failure) {
      setError(report(failure));
      return null;
    } finally {
      setSaving(false);
    }
  }

  async function sendTest() {
    if (testing) return;
    setTesting(true);
    setTested({ status: text.test.sending, error: null });
    try {
      const saved = await save();
      if (!saved) return setTested({ status: null, error: null });
      const result = await api.testCampaign(saved.id);
      setTested({ status: text.test.sent(result.sent_to), error: null });
    } catch (failure) {
      setTested({ status: null, error: report(failure) });
    } finally {
      setTesting(false);
    }
  }

  const editing = campaign === null || campaign.status === "draft";
  const missing = campaign?.missing_settings ?? [];
  const warnings = campaign?.transport_warnings ?? [];
  const blocked = missing.length > 0 ? text.send.reasonNotConfigured : liveSize === 0 ? text.send.reasonEmpty : null;
  const heading = campaign === null ? text.composer.newTitle : editing ? text.composer.editTitle(campaign.subject) : campaign.subject;

  return (
    <div className="campaign" data-campaign-id={id ?? undefined}>
      <div className="campaign__head">
        <ScreenHeading focus={focus + refocus}>
          {campaign && (
            <>
              <span className="campaign__number">{text.number(campaign.id)}</span>{" "}
            </>
          )}
          {heading}
        </ScreenHeading>
        {campaign && <StatusBadge status={campaign.status} />}
      </div>
      {campaign && (campaign.status === "sending" || campaign.status === "paused") && (
        <CampaignsLiveLine campaign={campaign} onCampaign={show} />
      )}
      {(missing.length > 0 || warnings.length > 0) && editing && (
        <div className="notice campaign__notice">
          <p className="campaign__notice-title">{missing.length > 0 ? text.send.notConfiguredTitle : text.warnings.title}</p>
          <ul>
            {missing.length > 0 && <li>{text.send.notConfigured(missing)}</li>}
            {warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      )}
      <Messages status={status} error={error} />

      {editing ? (
        <>
          <CampaignsComposer
            fields={fields}
            onChange={setFields}
            errors={errors}
            showErrors={showErrors}
            saving={saving}
            onSave={() => void save()}
            focusErrors={focusErrors}
            onSize={setLiveSize}
          />
          {campaign && dirty && <p className="hint">{text.composer.unsaved}</p>}
          <CampaignsPreview
            prepare={save}
            said={tested}
            actions={
              <BusyButton className="button" busy={testing} busyLabel={text.test.sending} onClick={sendTest}>
                {text.test.send}
              </BusyButton>
            }
          />
          <CampaignsSend
            prepare={save}
            blocked={blocked}
            onSent={(sent, said) => {
              show(sent);
              setStatus(said);
              // The composer and the confirmation go: focus goes to the screen's heading, above the progress.
              setRefocus((n) => n + 1);
            }}
          />
        </>
      ) : (
        campaign && (
          <>
            <CampaignsSummary campaign={campaign} />
            {warnings.length > 0 && (
              <ul className="notice campaign__notice">
                {warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            )}
            {campaign.status === "sent" || campaign.status === "cancelled" ? (
              <CampaignsReport campaign={campaign} headingRef={reportHeading.ref} />
            ) : (
              <div ref={liveRef}>
                <CampaignsProgress campaign={campaign} error={pollError} />
                {/* A cancel ends the controls: show() moves focus to the report's heading. */}
                <CampaignsControls campaign={campaign} onCampaign={(next) => show(next)} />
              </div>
            )}
            {campaign.progress.dead_lettered > 0 && <CampaignsDeadLetters campaign={campaign} onCampaign={show} />}
            <CampaignsPreview prepare={async () => campaign} heading={text.preview.sent} />
          </>
        )
      )}
    </div>
  );
}
