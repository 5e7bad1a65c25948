import { CAMPAIGN_LIMITS, type CampaignDraftInput, type CampaignJson, characterCount } from "@shared/campaigns";
import { type FormEvent, useEffect, useId, useRef } from "react";
import { admin } from "../content";
import { CampaignsAudience } from "./CampaignsAudience";
import { type AudienceFields, audienceFieldsOf, audienceOf } from "./CampaignsShared";
import { BusyButton } from "./Section";

/** What the composer's fields hold. */
export type DraftFields = { subject: string; body: string; audience: AudienceFields };

export function draftFieldsOf(campaign: CampaignJson | null): DraftFields {
  return { subject: campaign?.subject ?? "", body: campaign?.body ?? "", audience: audienceFieldsOf(campaign?.audience ?? null) };
}

export type DraftErrors = { subject?: string; body?: string; audience?: boolean };

/** The fields checked as the API checks them: the draft to save, or what is wrong with them. */
export function checkDraft(fields: DraftFields): { draft: CampaignDraftInput } | { errors: DraftErrors } {
  const text = admin.campaigns.composer;
  const errors: DraftErrors = {};
  const subject = fields.subject.trim();
  if (subject === "") errors.subject = text.subjectRequired;
  else if (characterCount(subject) > CAMPAIGN_LIMITS.subjectMax) errors.subject = text.subjectTooLong(CAMPAIGN_LIMITS.subjectMax);
  if (fields.body.trim() === "") errors.body = text.bodyRequired;
  else if (characterCount(fields.body) > CAMPAIGN_LIMITS.bodyMax) errors.body = text.bodyTooLong(CAMPAIGN_LIMITS.bodyMax);
  const audience = audienceOf(fields.audience);
  if (!audience) errors.audience = true;
  if (errors.subject || errors.body || !audience) return { errors };
  return { draft: { subject, body: fields.body, audience } };
}

/**
 * A draft's words and audience: the subject, the message (paragraphs and links, with a hint of
 * how to write them) and who gets it, its size counted live. "Save draft" submits; the errors of a
 * failed check sit under their fields, and the first one takes focus.
 */
export function CampaignsComposer({
  fields,
  onChange,
  errors,
  showErrors,
  saving,
  onSave,
  focusErrors,
  onSize,
}: {
  fields: DraftFields;
  onChange: (fields: DraftFields) => void;
  errors: DraftErrors;
  showErrors: boolean;
  saving: boolean;
  onSave: () => void;
  /** Bumped after a check failed: the first marked field takes focus. */
  focusErrors: number;
  onSize?: (size: number | null) => void;
}) {
  const text = admin.campaigns.composer;
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (focusErrors > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusErrors]);

  function submit(event: FormEvent) {
    event.preventDefault();
    onSave();
  }

  return (
    <form ref={formRef} className="composer" onSubmit={submit} noValidate>
      <div className="composer__field">
        <label htmlFor={`${id}-subject`}>{text.subject}</label>
        <p id={`${id}-subject-hint`} className="hint">
          {text.subjectHint(CAMPAIGN_LIMITS.subjectMax)}
        </p>
        <input
          id={`${id}-subject`}
          className="input"
          type="text"
          name="subject"
          autoComplete="off"
          value={fields.subject}
          onChange={(event) => onChange({ ...fields, subject: event.target.value })}
          aria-invalid={errors.subject ? true : undefined}
          aria-describedby={`${id}-subject-hint${errors.subject ? ` ${id}-subject-error` : ""}`}
        />
        {errors.subject && (
          <p id={`${id}-subject-error`} className="field-error">
            {errors.subject}
          </p>
        )}
      </div>
      <div className="composer__field">
        <label htmlFor={`${id}-body`}>{text.body}</label>
        <p id={`${id}-body-hint`} className="hint">
          {text.bodyHint}
        </p>
        <textarea
          id={`${id}-body`}
          className="input composer__body"
          name="body"
          rows={10}
          value={fields.body}
          onChange={(event) => onChange({ ...fields, body: event.target.value })}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={`${id}-body-hint ${id}-body-count${errors.body ? ` ${id}-body-error` : ""}`}
        />
        <p id={`${id}-body-count`} className="hint">
          {text.bodyCount(characterCount(fields.body), CAMPAIGN_LIMITS.bodyMax)}
        </p>
        {errors.body && (
          <p id={`${id}-body-error`} className="field-error">
            {errors.body}
          </p>
        )}
      </div>
      <CampaignsAudience
        fields={fields.audience}
        onChange={(audience) => onChange({ ...fields, audience })}
        showErrors={showErrors}
        onSize={onSize}
      />
      <p>
        <BusyButton type="submit" className="button" busy={saving} busyLabel={text.saving}>
          {text.save}
        </BusyButton>
      </p>
    </form>
  );
}
