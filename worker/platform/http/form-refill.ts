import { escapeHtml } from "../html";
import { DEFAULT_MAX_LENGTH, type FieldDefinition, fieldLabel, fieldPlaceholder } from "../../shared/forms";
import { FORM_PAGE_TEXT, HONEYPOT_FIELD } from "../../shared/public-forms";

/**
 * The form a refused post without JavaScript gets back on its page (form-page.ts): the same
 * form, in the site's markup and classes (web/src/components/ContactForm.tsx, WaitlistForm.tsx),
 * holding what was typed and each field's message at its field (aria-invalid, aria-describedby),
 * posting to the same address. So a refusal (a field to fix, too many attempts, a failure) never
 * loses a message typed. Every value is escaped; the honeypot comes back empty.
 *
 * A site with Turnstile on gets the form back without its widget: the page runs no script, and
 * without JavaScript no token can be had. The visitor keeps what they typed, and "Back to the
 * site" leads to the form the app runs.
 */

/** Which form a page gives back: the waitlist's one field, or a form of the shared definitions. */
export type RefillForm =
  | { kind: "waitlist"; label: string; submit: string; hidden: readonly string[] }
  | { kind: "fields"; label: string; submit: string; fields: readonly FieldDefinition[] };

/** What the refused post held (its text fields, by name), and the server's message for each field it refused. */
export type Refill = { values: Readonly<Record<string, string>>; fieldErrors: Readonly<Record<string, string>> };

/** The ids of the page's controls (one form per page, so fixed ids cannot meet). */
const controlId = (name: string) => `refill-${name}`;

/** ` name="value"` for each attribute that is set; `true` is a bare attribute. */
function attributes(list: Record<string, string | number | boolean | undefined>): string {
  return Object.entries(list)
    .flatMap(([name, value]) => {
      if (value === undefined || value === false) return [];
      return [value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`];
    })
    .join("");
}

/** The message under a refused control, named by its aria-describedby. */
function fieldError(name: string, error: string | undefined): string {
  return error ? `\n<p class="field__error" id="${controlId(name)}-error">${escapeHtml(error)}</p>` : "";
}

/** The attributes marking a control refused: aria-invalid, and the message that says why. */
const invalid = (name: string, error: string | undefined) => ({
  "aria-invalid": error ? "true" : undefined,
  "aria-describedby": error ? `${controlId(name)}-error` : undefined,
});

/** The form, refilled, posting to `action` (the address the refused post went to). */
export function refilledForm(form: RefillForm, action: string, { values, fieldErrors }: Refill): string {
  const open = `<form${attributes({ class: form.kind === "waitlist" ? "waitlist" : "contact-form", action, method: "post", "aria-label": form.label, novalidate: form.kind === "waitlist" })}>`;
  const body = form.kind === "waitlist" ? waitlistBody(form, values, fieldErrors) : fieldsBody(form, values, fieldErrors);
  return `${open}\n${body}\n${honeypot()}\n</form>`;
}

function waitlistBody(form: Extract<RefillForm, { kind: "waitlist" }>, values: Refill["values"], errors: Refill["fieldErrors"]): string {
  const email = `<input${attributes({
    id: controlId("email"),
    class: "input waitlist__input",
    name: "email",
    type: "email",
    autocomplete: "email",
    inputmode: "email",
    placeholder: FORM_PAGE_TEXT.waitlistEmailPlaceholder,
    value: values.email ?? "",
    ...invalid("email", errors.email),
  })}>`;
  const hidden = form.hidden.map((name) => `<input${attributes({ type: "hidden", name, value: values[name] ?? "" })}>`);
  return [
    `<div class="waitlist__row">`,
    `<label for="${controlId("email")}" class="visually-hidden">${escapeHtml(FORM_PAGE_TEXT.waitlistEmailLabel)}</label>`,
    email,
    `<button type="submit" class="button button--primary waitlist__submit">${escapeHtml(form.submit)}</button>`,
    `</div>${fieldError("email", errors.email)}`,
    ...hidden,
  ].join("\n");
}

function fieldsBody(form: Extract<RefillForm, { kind: "fields" }>, values: Refill["values"], errors: Refill["fieldErrors"]): string {
  const fields = form.fields.map((field) => {
    const error = errors[field.name];
    const required = field.required ? `<span class="field__required" aria-hidden="true">*</span>` : "";
    return [
      `<div class="field">`,
      `<label for="${controlId(field.name)}">${escapeHtml(fieldLabel(field))}${required}</label>`,
      `${control(field, values[field.name] ?? "", error)}${fieldError(field.name, error)}`,
      `</div>`,
    ].join("\n");
  });
  const actions = `<div class="contact-form__actions"><button type="submit" class="button button--primary">${escapeHtml(form.submit)}</button></div>`;
  return [...fields, actions].join("\n");
}

/** Lets browsers fill in the fields they know (as the app's form does). */
const AUTOCOMPLETE: Readonly<Record<string, string>> = { name: "name", email: "email" };

function control(field: FieldDefinition, value: string, error: string | undefined): string {
  const common = { id: controlId(field.name), name: field.name, required: field.required, class: "input", ...invalid(field.name, error) };
  const maxlength = field.maxLength ?? DEFAULT_MAX_LENGTH[field.type];
  switch (field.type) {
    case "textarea":
      // The parser drops one line break right after <textarea>: this one, never the visitor's.
      return `<textarea${attributes({ ...common, rows: 4, placeholder: fieldPlaceholder(field), maxlength })}>\n${escapeHtml(value)}</textarea>`;
    case "select": {
      const options = (field.options ?? []).map(
        (option) => `<option${attributes({ value: option, selected: option === value })}>${escapeHtml(option)}</option>`,
      );
      // The placeholder stays chosen unless the post held one of the options.
      const chosen = field.options?.includes(value) ?? false;
      const none = `<option value="" disabled${chosen ? "" : " selected"}>${escapeHtml(FORM_PAGE_TEXT.selectPlaceholder)}</option>`;
      return `<select${attributes(common)}>${none}${options.join("")}</select>`;
    }
    default:
      return `<input${attributes({ ...common, type: field.type, placeholder: fieldPlaceholder(field), maxlength, autocomplete: AUTOCOMPLETE[field.name], value })}>`;
  }
}

/** The honeypot as the app renders it (web/src/components/Honeypot.tsx), always empty. */
function honeypot(): string {
  const id = controlId(HONEYPOT_FIELD);
  return `<div class="honeypot" aria-hidden="true"><label for="${id}">${escapeHtml(FORM_PAGE_TEXT.honeypotLabel)}</label><input${attributes({ id, type: "text", name: HONEYPOT_FIELD, tabindex: -1, autocomplete: "off", "data-1p-ignore": "", "data-lpignore": "true" })}></div>`;
}
