import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import {
  CONTACT_FORM,
  DEFAULT_MAX_LENGTH,
  fieldLabel,
  fieldPlaceholder,
  type FieldDefinition,
  type FormDefinition,
} from "@shared/forms";
import { submitForm } from "../api";
import { useInteractive } from "../hooks/interactive";
import { contactForm } from "../content";
import { useTurnstile } from "../turnstile/use-turnstile";
import { Honeypot } from "./Honeypot";

type Status = { state: "idle" } | { state: "sending" } | { state: "success" } | { state: "error"; message: string };

/** Spec §2 and §9: the message box is 4 rows high. */
const TEXTAREA_ROWS = 4;

/** Lets browsers fill in the fields they know. */
const AUTOCOMPLETE: Readonly<Record<string, string>> = { name: "name", email: "email" };

const emptyValues = (form: FormDefinition): Record<string, string> =>
  Object.fromEntries(form.fields.map((field) => [field.name, ""]));

/**
 * A form rendered from its shared definition (worker/shared/forms.ts, which the worker validates
 * submissions against), by default the contact form. Spec §5: only the browser's own checks run
 * here (required fields, the e-mail type). idle -> sending -> success (fields cleared) or error;
 * the message stays until the next submit. Like every public form it carries the honeypot and,
 * when the page has a Turnstile site key, a Turnstile widget started by the visitor's first focus
 * or input.
 */
export function ContactForm({ form = CONTACT_FORM }: { form?: FormDefinition }) {
  const [values, setValues] = useState<Record<string, string>>(() => emptyValues(form));
  const [status, setStatus] = useState<Status>({ state: "idle" });
  const interactive = useInteractive();
  const submitRef = useRef<HTMLButtonElement>(null);
  const honeypotRef = useRef<HTMLInputElement>(null);
  const turnstile = useTurnstile();
  const mounted = useRef(false);
  const ids = useId();

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // The submit button is disabled while sending, which drops focus when it had it: give it back.
  useEffect(() => {
    if ((status.state === "success" || status.state === "error") && (document.activeElement === null || document.activeElement === document.body)) {
      submitRef.current?.focus();
    }
  }, [status]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status.state === "sending") return;
    setStatus({ state: "sending" });
    // Sending already: a token may take a moment (Turnstile's script, or a challenge, still running).
    const turnstileToken = await turnstile.token();
    const outcome = await submitForm(form, values, { honeypot: honeypotRef.current?.value ?? "", turnstileToken });
    turnstile.reset();
    if (!mounted.current) return;
    if (outcome.ok) {
      setValues(emptyValues(form));
      setStatus({ state: "success" });
    } else {
      setStatus({ state: "error", message: outcome.message });
    }
  }

  const setValue = (name: string, value: string) => setValues((current) => ({ ...current, [name]: value }));

  return (
    <form
      className="contact-form"
      method="post"
      aria-label={form.name}
      onSubmit={submit}
      onFocus={turnstile.start}
      onInput={turnstile.start}
      aria-busy={status.state === "sending"}
    >
      {form.fields.map((field) => (
        <div className="field" key={field.name}>
          <label htmlFor={`${ids}-${field.name}`}>
            {fieldLabel(field)}
            {field.required && (
              <span className="field__required" aria-hidden="true">
                *
              </span>
            )}
          </label>
          <FieldControl
            id={`${ids}-${field.name}`}
            field={field}
            value={values[field.name] ?? ""}
            onChange={(value) => setValue(field.name, value)}
          />
        </div>
      ))}
      <Honeypot inputRef={honeypotRef} />
      {/* The widget and the button share one grid cell: an empty or invisible widget (the usual
          case) then adds no gap to the form. */}
      <div className="contact-form__actions">
        <div ref={turnstile.containerRef} className="turnstile" />
        <button ref={submitRef} type="submit" className="button button--primary" disabled={status.state === "sending" || !interactive}>
          {status.state === "sending" ? contactForm.sending : contactForm.submit}
        </button>
      </div>
      {/* The live regions stay in the page so what is put into them is announced. */}
      <p className="message message--success" role="status">
        {status.state === "success" ? contactForm.messages.success : ""}
      </p>
      <p className="message message--error" role="alert">
        {status.state === "error" ? status.message : ""}
      </p>
    </form>
  );
}

type FieldControlProps = {
  id: string;
  field: FieldDefinition;
  value: string;
  onChange: (value: string) => void;
};

function FieldControl({ id, field, value, onChange }: FieldControlProps) {
  const common = {
    id,
    name: field.name,
    required: field.required,
    value,
    className: "input",
  };
  switch (field.type) {
    case "textarea":
      return (
        <textarea
          {...common}
          rows={TEXTAREA_ROWS}
          placeholder={fieldPlaceholder(field)}
          maxLength={field.maxLength ?? DEFAULT_MAX_LENGTH.textarea}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case "select":
      return (
        <select {...common} onChange={(event) => onChange(event.target.value)}>
          <option value="" disabled>
            {contactForm.selectPlaceholder}
          </option>
          {(field.options ?? []).map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
    default:
      return (
        <input
          {...common}
          type={field.type}
          placeholder={fieldPlaceholder(field)}
          maxLength={field.maxLength ?? DEFAULT_MAX_LENGTH[field.type]}
          autoComplete={AUTOCOMPLETE[field.name]}
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
}
