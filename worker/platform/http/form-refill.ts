import { escapeHtml } from "../html";
import { DEFAULT_MAX_LENGTH, type FieldDefinition, fieldLabel, fieldPlaceholder } from "../../shared/forms";
import { FORM_PAGE_TEXT, HONEYPOT_FIELD } from "../../shared/public-forms";
import { AGE_MESSAGES, birthYearsOffered } from "../../shared/age";

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
export function refilledForm(form: RefillForm, action: string, { values, fieldErrors }: Refill, now: Date = new Date()): string {
  const open = `<form${attributes({ class: form.kind === "waitlist" ? "waitlist" : "contact-form", action, method: "post", "aria-label": form.label, novalidate: form.kind === "waitlist" })}>`;
  const body =
    form.kind === "fields"
      ? fieldsBody(form, values, fieldErrors)
      : parentStep(values, fieldErrors)
        ? parentBody(form, values, fieldErrors)
        : waitlistBody(form, values, fieldErrors, now);
  return `${open}\n${body}\n${honeypot()}\n</form>`;
}

// The age question (issue 23) as the app's form asks it (web/src/components/AgeQuestion.tsx): a
// fieldset before the e-mail, two selects with the answer typed kept, the neutral why, and a
// refused answer's message under them.

const MONTHS = "January February March April May June July August September October November December".split(" ");

function ageQuestion(values: Refill["values"], errors: Refill["fieldErrors"], now: Date): string {
  const error = errors.birth_month ?? errors.birth_year;
  const field = errors.birth_month ? "birth_month" : "birth_year";
  const describedBy = (name: string) => (error && name === field ? `refill-age-error refill-age-why` : "refill-age-why");
  const select = (name: string, label: string, placeholder: string, options: { value: string; text: string }[]) => {
    const chosen = values[name] ?? "";
    const items = options.map(
      (option) => `<option${attributes({ value: option.value, selected: option.value === chosen })}>${escapeHtml(option.text)}</option>`,
    );
    return [
      `<label for="${controlId(name)}" class="visually-hidden">${escapeHtml(label)}</label>`,
      `<select${attributes({ id: controlId(name), name, class: "input", "aria-invalid": error && name === field ? "true" : undefined, "aria-describedby": describedBy(name) })}><option value="">${escapeHtml(placeholder)}</option>${items.join("")}</select>`,
    ].join("\n");
  };
  const months = MONTHS.map((text, index) => ({ value: String(index + 1), text }));
  const years = birthYearsOffered(now).map((year) => ({ value: String(year), text: String(year) }));
  return [
    `<fieldset class="age">`,
    `<legend class="age__legend">${escapeHtml(AGE_MESSAGES.question)}</legend>`,
    `<div class="age__row">`,
    select("birth_month", AGE_MESSAGES.month, AGE_MESSAGES.monthPlaceholder, months),
    select("birth_year", AGE_MESSAGES.year, AGE_MESSAGES.yearPlaceholder, years),
    `</div>`,
    `<p class="waitlist__note" id="refill-age-why">${escapeHtml(AGE_MESSAGES.why)}</p>`,
    error ? `<p class="field__error" id="refill-age-error">${escapeHtml(error)}</p>` : "",
    `</fieldset>`,
  ]
    .filter(Boolean)
    .join("\n");
}

/** Whether the page gives back the parent step: a parent's address was asked for (parent_needed) or sent. */
const parentStep = (values: Refill["values"], errors: Refill["fieldErrors"]) =>
  errors.parent_email !== undefined || (values.parent_email ?? "").trim() !== "";

/**
 * The parent step (a visitor below the consent age): what the app says there, the parent's
 * address, and the answer carried along in hidden fields (the `hwh_age` cookie holds it too,
 * unless the browser keeps no cookies). The child's address is not given back: it is never kept.
 */
function parentBody(form: Extract<RefillForm, { kind: "waitlist" }>, values: Refill["values"], errors: Refill["fieldErrors"]): string {
  const error = errors.parent_email;
  const parent = `<input${attributes({
    id: controlId("parent_email"),
    class: "input waitlist__input",
    name: "parent_email",
    type: "email",
    autocomplete: "off",
    inputmode: "email",
    value: values.parent_email ?? "",
    "aria-invalid": error && error !== AGE_MESSAGES.parentNeeded ? "true" : undefined,
    "aria-describedby":
      error && error !== AGE_MESSAGES.parentNeeded ? `${controlId("parent_email")}-error refill-parent-text` : "refill-parent-text",
  })}>`;
  const hidden = [...form.hidden, "birth_month", "birth_year"].map(
    (name) => `<input${attributes({ type: "hidden", name, value: values[name] ?? "" })}>`,
  );
  return [
    `<div class="waitlist__parent" id="refill-parent-text">`,
    // The page's message says it already when that is why the step is shown.
    error === AGE_MESSAGES.parentNeeded ? "" : `<p><strong>${escapeHtml(AGE_MESSAGES.parentNeeded)}</strong></p>`,
    `<p>${escapeHtml(AGE_MESSAGES.parentExplain)}</p>`,
    `</div>`,
    `<label for="${controlId("parent_email")}" class="age__legend">${escapeHtml(AGE_MESSAGES.parentEmailLabel)}</label>`,
    `<div class="waitlist__row">`,
    parent,
    `<button type="submit" class="button button--primary waitlist__submit">${escapeHtml(AGE_MESSAGES.parentSubmit)}</button>`,
    `</div>${error && error !== AGE_MESSAGES.parentNeeded ? fieldError("parent_email", error) : ""}`,
    ...hidden,
  ]
    .filter(Boolean)
    .join("\n");
}

function waitlistBody(
  form: Extract<RefillForm, { kind: "waitlist" }>,
  values: Refill["values"],
  errors: Refill["fieldErrors"],
  now: Date,
): string {
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
    ageQuestion(values, errors, now),
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
