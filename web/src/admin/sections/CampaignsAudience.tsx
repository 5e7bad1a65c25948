import { CAMPAIGN_LIMITS, type WavePreview } from "@shared/campaigns";
import { useEffect, useId, useRef, useState } from "react";
import { admin } from "../content";
import { useConsole } from "../context";
import { type AudienceFields, audienceOf, waveSizeOf } from "./CampaignsShared";
import { CampaignsWavePreview } from "./CampaignsWavePreview";

/** How long the fields rest before the audience is counted (typing a wave's size is one count, not one per key). */
export const AUDIENCE_DEBOUNCE_MS = 400;

type Count =
  | { kind: "idle" }
  | { kind: "counting" }
  | { kind: "done"; size: number; wave: WavePreview | null; ageUnknown: number }
  | { kind: "failed"; message: string };

/**
 * Who a campaign goes to: everyone confirmed, or an invite wave of N not yet invited; either
 * narrowed to one utm_source. Its size is counted as the fields change (POST …/audience, after
 * the fields rest a moment) and said in a live region, before anything is saved or sent; for a
 * wave, with who it invites first (issue 22: ./CampaignsWavePreview.tsx).
 */
export function CampaignsAudience({
  fields,
  onChange,
  showErrors,
  onSize,
}: {
  fields: AudienceFields;
  onChange: (fields: AudienceFields) => void;
  /** The size as last counted (null while counting, or when it cannot be). */
  onSize?: (size: number | null) => void;
  /** Whether a save was tried: a wave's invalid size is then marked even if the field was never left. */
  showErrors: boolean;
}) {
  const { api, report } = useConsole();
  const text = admin.campaigns.audience;
  const [count, setCount] = useState<Count>({ kind: "idle" });
  const [sizeTouched, setSizeTouched] = useState(false);
  const baseId = useId();
  const audience = audienceOf(fields);
  const key = audience ? JSON.stringify(audience) : null;
  const sizeHandler = useRef(onSize);
  sizeHandler.current = onSize;

  useEffect(() => {
    sizeHandler.current?.(count.kind === "done" ? count.size : null);
  }, [count]);

  useEffect(() => {
    if (key === null) {
      setCount({ kind: "idle" });
      return;
    }
    let current = true;
    setCount({ kind: "counting" });
    const timer = window.setTimeout(() => {
      api.audienceSize(JSON.parse(key)).then(
        (answer) =>
          current && setCount({ kind: "done", size: answer.audience_size, wave: answer.wave ?? null, ageUnknown: answer.age_unknown ?? 0 }),
        (failure: unknown) => {
          if (!current) return;
          const message = report(failure);
          setCount(message === null ? { kind: "idle" } : { kind: "failed", message });
        },
      );
    }, AUDIENCE_DEBOUNCE_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [api, report, key]);

  const sizeInvalid = fields.kind === "wave" && waveSizeOf(fields.size) === null;
  const markSize = sizeInvalid && (sizeTouched || showErrors);
  const set = (patch: Partial<AudienceFields>) => onChange({ ...fields, ...patch });

  return (
    <fieldset className="audience">
      <legend>{text.legend}</legend>
      <div className="choice">
        <input
          id={`${baseId}-all`}
          type="radio"
          name={`${baseId}-kind`}
          value="all"
          checked={fields.kind === "all"}
          onChange={() => set({ kind: "all" })}
        />
        <label htmlFor={`${baseId}-all`}>{text.all}</label>
      </div>
      <div className="choice">
        <input
          id={`${baseId}-wave`}
          type="radio"
          name={`${baseId}-kind`}
          value="wave"
          checked={fields.kind === "wave"}
          onChange={() => set({ kind: "wave" })}
        />
        <label htmlFor={`${baseId}-wave`}>{text.wave}</label>
      </div>
      {fields.kind === "wave" && (
        <div className="audience__field audience__field--nested">
          <label htmlFor={`${baseId}-size`}>{text.waveSize}</label>
          <p id={`${baseId}-size-hint`} className="hint">
            {text.waveSizeHint(CAMPAIGN_LIMITS.waveMax)}
          </p>
          <input
            id={`${baseId}-size`}
            className="input input--number"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={fields.size}
            onChange={(event) => set({ size: event.target.value })}
            onBlur={() => setSizeTouched(true)}
            aria-invalid={markSize || undefined}
            aria-describedby={`${baseId}-size-hint${markSize ? ` ${baseId}-size-error` : ""}`}
          />
          {markSize && (
            <p id={`${baseId}-size-error`} className="field-error">
              {text.waveSizeInvalid(CAMPAIGN_LIMITS.waveMax)}
            </p>
          )}
        </div>
      )}
      <div className="audience__field">
        <label htmlFor={`${baseId}-utm`}>{text.utmSource}</label>
        <p id={`${baseId}-utm-hint`} className="hint">
          {text.utmSourceHint}
        </p>
        <input
          id={`${baseId}-utm`}
          className="input"
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={fields.utmSource}
          onChange={(event) => set({ utmSource: event.target.value })}
          aria-describedby={`${baseId}-utm-hint`}
        />
      </div>
      <p role="status" className={`audience__size${count.kind === "done" && count.size === 0 ? " audience__size--none" : ""}`}>
        {count.kind === "counting" && text.counting}
        {count.kind === "done" && (count.size === 0 ? text.sizeNone : text.size(count.size))}
        {count.kind === "failed" && count.message}
        {/* A wave without a size yet has no audience to count: say what makes it appear. */}
        {count.kind === "idle" && fields.kind === "wave" && fields.size.trim() === "" && text.waveNoSize}
      </p>
      {/* Issue 23: entries from before the age question get no campaign until they answered it (README). */}
      {count.kind === "done" && count.ageUnknown > 0 && (
        <p className="audience__age-unknown">{text.ageUnknown(count.ageUnknown, count.size)}</p>
      )}
      {count.kind === "done" && count.wave && fields.kind === "wave" && <CampaignsWavePreview wave={count.wave} />}
    </fieldset>
  );
}
