import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { CONTACT_FORM, DEFAULT_MAX_LENGTH, fieldLabel, fieldPlaceholder, type FieldDefinition, type FormDefinition } from "@shared/forms";
import { formEndpoint, submitForm } from "../api";
import { contactForm } from "../form-content";
import { useMounted } from "../hooks/mounted";
import { prefersReducedMotion } from "../hooks/reduced-motion";
import { useTurnstile } from "../turnstile/use-turnstile";
import { fieldText, honeypotText } from "./form-data";
import { Honeypot } from "./Honeypot";

/**
 * `error` carries a message for the whole form, or the server's message for each field it
 * refused (a 400), shown at the field, or both.
 */
type Status =
  | { state: "idle" }
  | { state: "sending" }
  | { state: "success" }
  | { state: "error"; message: string; fieldErrors: Readonly<Record<string, string>> };

/** Spec §2 and §9: the message box is 4 rows high. */
const TEXTAREA_ROWS = 4;

/** Lets browsers fill in the fields they know. */
const AUTOCOMPLETE: Readonly<Record<string, string>> = { name: "name", email: "email" };

const NO_FIELD_ERRORS: Readonly<Record<string, string>> = {};

/** The id of a field's control, under the form's own id prefix (useId). */
const controlId = (formIds: string, field: FieldDefinition) => `${formIds}-${field.name}`;

/**
 * A form rendered from its shared definition (worker/shared/forms.ts, which the worker validates
 * submissions against), by default the contact form. Spec §5: only the browser's own checks run
 * here (required fields, the e-mail type); what the server refuses beyond them (an address
 * without a dot in its domain, a name of spaces only) is shown at the field it concerns.
 * idle -> sending -> success (fields cleared) or error; the messages stay until the next submit.
 * Like every public form it carries the honeypot and, when the page has a Turnstile site key, a
 * Turnstile widget started by the visitor's first focus or input.
 *
 * It is a real form from the first paint: before the app runs, the browser posts it to the API
 * itself and the worker answers with a page. Once the app runs it sends JSON and shows the states
 * in place. The fields are uncontrolled, so what was typed before the app started stays (see
 * ./form-data.ts); a success clears them with the form's reset.
 */
export function ContactForm({ form = CONTACT_FORM }: { form?: FormDefinition }) {
  const [status, setStatus] = useState<Status>({ state: "idle" });
  const formRef = useRef<HTMLFormElement>(null);
  const successRef = useRef<HTMLParagraphElement>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);
  const turnstile = useTurnstile();
  const isMounted = useMounted();
  const ids = useId();
  const fieldErrors = status.state === "error" ? status.fieldErrors : NO_FIELD_ERRORS;

  // The submit button is disabled while sending, which drops focus when it had it. A field the
  // server refused takes it, so its message is read with it. Otherwise the outcome does: on a
  // phone the message under the button starts below the fold (y=756 on a 360x740 screen), and a
  // form that only looks emptied gets sent again.
  useEffect(() => {
    if (status.state === "error") {
      const refused = form.fields.find((field) => status.fieldErrors[field.name]);
      const control = refused && formRef.current?.elements.namedItem(refused.name);
      if (control instanceof HTMLElement) {
        control.focus();
        return;
      }
    }
    if (status.state === "success") showOutcome(successRef.current);
    else if (status.state === "error") showOutcome(alertRef.current);
  }, [status, form]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status.state === "sending") return;
    const data = new FormData(event.currentTarget);
    const values = Object.fromEntries(form.fields.map((field) => [field.name, fieldText(data, field.name)]));
    setStatus({ state: "sending" });
    // Sending already: a token may take a moment (Turnstile's script, or a challenge, still running).
    const turnstileToken = await turnstile.token();
    const outcome = await submitForm(form, values, { honeypot: honeypotText(data), turnstileToken });
    turnstile.reset();
    if (!isMounted()) return;
    if (outcome.ok) {
      formRef.current?.reset();
      setStatus({ state: "success" });
    } else {
      setStatus({ state: "error", message: outcome.message, fieldErrors: outcome.fieldErrors });
    }
  }

  return (
    <form
      ref={formRef}
      className="contact-form"
      action={formEndpoint(form)}
      method="post"
      aria-label={form.name}
      onSubmit={submit}
      onFocus={turnstile.start}
      onInput={turnstile.start}
      aria-busy={status.state === "sending"}
    >
      {form.fields.map((field) => (
        <FormField key={field.name} id={controlId(ids, field)} field={field} error={fieldErrors[field.name]} />
      ))}
      <Honeypot />
      {/* The widget and the button share one grid cell: an empty or invisible widget (the usual
          case) then adds no gap to the form. */}
      <div className="contact-form__actions">
        <div ref={turnstile.containerRef} className="turnstile" />
        <button type="submit" className="button button--primary" disabled={status.state === "sending"}>
          {status.state === "sending" ? contactForm.sending : contactForm.submit}
        </button>
      </div>
      {/* The live regions stay in the page so what is put into them is announced; each takes
          focus from script when it says the outcome (tabIndex -1: not a Tab stop). */}
      <p ref={successRef} className="message message--success" role="status" tabIndex={-1}>
        {status.state === "success" ? contactForm.messages.success : ""}
      </p>
      <p ref={alertRef} className="message message--error" role="alert" tabIndex={-1}>
        {status.state === "error" ? status.message : ""}
      </p>
    </form>
  );
}

/**
 * Brings the form's outcome into view, in the middle of the screen ("center": "nearest" left it
 * at the very bottom edge, the card's padding under it cut off), smoothly unless the visitor
 * asked for less motion, and moves
 * focus to it, so a screen reader reads it and the next Tab goes on from there.
 */
function showOutcome(message: HTMLElement | null) {
  if (!message) return;
  message.focus({ preventScroll: true });
  message.scrollIntoView({ block: "center", behavior: prefersReducedMotion() ? "auto" : "smooth" });
}

/**
 * One field: its label (an asterisk for a required one, which `required` announces), its
 * control, and the server's message about it under it, tied to the control by
 * aria-describedby and marked aria-invalid.
 */
function FormField({ id, field, error }: { id: string; field: FieldDefinition; error: string | undefined }) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>
        {fieldLabel(field)}
        {field.required && (
          <span className="field__required" aria-hidden="true">
            *
          </span>
        )}
      </label>
      <FieldControl id={id} field={field} invalid={error ? errorId : undefined} />
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** `invalid`: the id of the message saying what is wrong with the value, when something is. */
function FieldControl({ id, field, invalid }: { id: string; field: FieldDefinition; invalid: string | undefined }) {
  const common = {
    id,
    name: field.name,
    required: field.required,
    className: "input",
    "aria-invalid": invalid ? true : undefined,
    "aria-describedby": invalid,
  };
  switch (field.type) {
    case "textarea":
      return (
        <textarea
          {...common}
          rows={TEXTAREA_ROWS}
          placeholder={fieldPlaceholder(field)}
          maxLength={field.maxLength ?? DEFAULT_MAX_LENGTH.textarea}
        />
      );
    case "select":
      // The placeholder option is the default, so the form's reset brings it back.
      return (
        <select {...common} defaultValue="">
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
        />
      );
  }
}
