import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_KINDS,
  type WebhookCreated,
  type WebhookEndpointJson,
  type WebhookEventType,
  type WebhookKind,
} from "@shared/webhooks";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { AdminApiError } from "../api";
import { useConsole } from "../context";
import { integrations } from "../integrations-content";
import { ScreenHeading } from "./CampaignsShared";
import { useIntegrationsReport } from "./IntegrationsShared";
import { BusyButton, Messages } from "./Section";

type Fields = { name: string; url: string; kind: WebhookKind; events: WebhookEventType[] };
type Errors = { name?: string; url?: string; events?: string };

const text = integrations.form;

/** The fields checked as far as the console can (the server checks where the address leads). */
function check(fields: Fields): Errors {
  const errors: Errors = {};
  if (fields.name.trim() === "") errors.name = text.nameRequired;
  const url = fields.url.trim();
  if (url === "") errors.url = text.urlRequired;
  else if (!/^https?:\/\/[^/\s]+/i.test(url)) errors.url = text.urlInvalid;
  if (fields.events.length === 0) errors.events = text.eventsRequired;
  return errors;
}

/**
 * "Add an endpoint" (endpoint null: name, address, kind, events) or Edit (name, address, events;
 * the kind stays). The errors of the console's check, and a 400 the server gives for a field (an
 * address that resolves to a private network, say), sit under their field, which takes focus.
 */
export function IntegrationsForm({
  endpoint,
  focus,
  onCancel,
  onCreated,
  onSaved,
}: {
  endpoint: WebhookEndpointJson | null;
  focus: number;
  onCancel: () => void;
  onCreated?: (created: WebhookCreated) => void;
  onSaved?: () => void;
}) {
  const { api } = useConsole();
  const report = useIntegrationsReport();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [fields, setFields] = useState<Fields>(() => ({
    name: endpoint?.name ?? "",
    // A Slack address is shown masked: editing keeps it unless a new one is typed.
    url: endpoint && endpoint.kind !== "slack" ? endpoint.url : "",
    kind: endpoint?.kind ?? "standard",
    events: endpoint ? [...endpoint.events] : ["waitlist.joined"],
  }));
  const [errors, setErrors] = useState<Errors>({});
  const [focusErrors, setFocusErrors] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (focusErrors > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusErrors]);

  const keepsSlackUrl = endpoint?.kind === "slack" && fields.url.trim() === "";

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const found = check(keepsSlackUrl ? { ...fields, url: "https://kept" } : fields);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setError(text.fixFirst);
      setFocusErrors((n) => n + 1);
      return;
    }
    setBusy(true);
    setError(null);
    const events = WEBHOOK_EVENT_TYPES.filter((type) => fields.events.includes(type) && (kind !== "slack" || type !== "person.erased"));
    try {
      if (endpoint) {
        await api.updateWebhook(endpoint.id, { name: fields.name.trim(), events, ...(keepsSlackUrl ? {} : { url: fields.url.trim() }) });
        onSaved?.();
      } else {
        onCreated?.(await api.createWebhook({ name: fields.name.trim(), url: fields.url.trim(), kind: fields.kind, events }));
      }
    } catch (failure) {
      const field = failure instanceof AdminApiError ? failure.detail.field : null;
      const said = failure instanceof AdminApiError ? failure.detail.message : null;
      if ((field === "url" || field === "name" || field === "events") && said) {
        setErrors({ [field]: said });
        setError(text.fixFirst);
        setFocusErrors((n) => n + 1);
      } else {
        setError(report(failure));
      }
    } finally {
      setBusy(false);
    }
  }

  const describedBy = (name: keyof Errors, hint = true) =>
    [hint ? `${id}-${name}-hint` : null, errors[name] ? `${id}-${name}-error` : null].filter(Boolean).join(" ") || undefined;
  const fieldError = (name: keyof Errors) =>
    errors[name] && (
      <p id={`${id}-${name}-error`} className="field-error">
        {errors[name]}
      </p>
    );
  const kind = endpoint?.kind ?? fields.kind;

  return (
    <div className="campaign integration-form">
      {endpoint ? <EditHeading>{text.editTitle(endpoint.name)}</EditHeading> : <ScreenHeading focus={focus}>{text.addTitle}</ScreenHeading>}
      <form ref={formRef} className="composer" onSubmit={submit} noValidate>
        <div className="composer__field">
          <label htmlFor={`${id}-name`}>{text.name}</label>
          <p id={`${id}-name-hint`} className="hint">
            {text.nameHint}
          </p>
          <input
            id={`${id}-name`}
            className="input"
            type="text"
            autoComplete="off"
            value={fields.name}
            onChange={(e) => setFields({ ...fields, name: e.target.value })}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy("name")}
          />
          {fieldError("name")}
        </div>
        {!endpoint && (
          <fieldset className="audience">
            <legend>{text.kind}</legend>
            {WEBHOOK_KINDS.map((option) => (
              <div key={option}>
                <div className="choice">
                  <input
                    id={`${id}-kind-${option}`}
                    type="radio"
                    name={`${id}-kind`}
                    checked={fields.kind === option}
                    onChange={() => setFields({ ...fields, kind: option })}
                    aria-describedby={`${id}-kind-${option}-hint`}
                  />
                  <label htmlFor={`${id}-kind-${option}`}>{integrations.kinds[option]}</label>
                </div>
                <p id={`${id}-kind-${option}-hint`} className="hint audience__field--nested">
                  {text.kindHint[option]}
                </p>
              </div>
            ))}
          </fieldset>
        )}
        <div className="composer__field">
          <label htmlFor={`${id}-url`}>{text.url}</label>
          <p id={`${id}-url-hint`} className="hint">
            {kind === "slack" ? text.kindHint.slack : text.urlHint}
            {endpoint?.kind === "slack" && ` (${endpoint.url})`}
          </p>
          <input
            id={`${id}-url`}
            className="input"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            value={fields.url}
            onChange={(e) => setFields({ ...fields, url: e.target.value })}
            aria-invalid={errors.url ? true : undefined}
            aria-describedby={describedBy("url")}
          />
          {fieldError("url")}
        </div>
        <fieldset className="audience" aria-describedby={kind === "slack" ? `${id}-events-hint` : undefined}>
          <legend>{text.events}</legend>
          {kind === "slack" && (
            <p id={`${id}-events-hint`} className="hint">
              {text.slackNote}
            </p>
          )}
          {/* A Slack endpoint never gets person.erased (its texts never carried anyone's data). */}
          {WEBHOOK_EVENT_TYPES.filter((type) => kind !== "slack" || type !== "person.erased").map((type) => (
            <div key={type} className="choice">
              <input
                id={`${id}-event-${type}`}
                type="checkbox"
                checked={fields.events.includes(type)}
                onChange={(e) =>
                  setFields({ ...fields, events: e.target.checked ? [...fields.events, type] : fields.events.filter((t) => t !== type) })
                }
                aria-invalid={errors.events ? true : undefined}
                aria-describedby={`${id}-event-${type}-about${errors.events ? ` ${id}-events-error` : ""}`}
              />
              <label htmlFor={`${id}-event-${type}`}>
                <code>{type}</code>
                <span id={`${id}-event-${type}-about`} className="hint integration__event-about">
                  {integrations.events[type]}
                </span>
              </label>
            </div>
          ))}
          {fieldError("events")}
        </fieldset>
        <Messages status={null} error={error} />
        <div className="button-row">
          <BusyButton type="submit" className="button button--primary" busy={busy} busyLabel={endpoint ? text.saving : text.creating}>
            {endpoint ? text.save : text.create}
          </BusyButton>
          <button type="button" className="button button--quiet" onClick={onCancel}>
            {text.cancel}
          </button>
        </div>
      </form>
    </div>
  );
}

/** The edit form's heading, inside an endpoint's screen: it takes focus when the form opens. */
function EditHeading({ children }: { children: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h4 ref={ref} tabIndex={-1}>
      {children}
    </h4>
  );
}
