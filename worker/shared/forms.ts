import * as v from "valibot";
import { PUBLIC_FORM_EXTRAS } from "./public-forms";
import { canonicalEmailRule, strictFields, textField } from "./text";

/**
 * Form definitions: the one source the web app renders forms from and the worker validates
 * submissions against (spec §2 Contact form, §3 Form field definition).
 */
export type FieldType = "text" | "email" | "date" | "textarea" | "select";

export type FieldDefinition = {
  name: string;
  type: FieldType;
  required: boolean;
  /** The choices of a select field. */
  options?: readonly string[];
  /** Overrides the type's default length limit. */
  maxLength?: number;
};

export type FormDefinition = {
  /** The URL segment: POST /api/forms/:slug. */
  slug: string;
  /** Stored as form_name and shown in the notification subject. */
  name: string;
  fields: readonly FieldDefinition[];
};

export const FORM_MESSAGES = {
  success: "Message sent successfully! We'll be in touch.",
  failure: "Submission failed. Please try again later.",
} as const;

export const CONTACT_FORM: FormDefinition = {
  slug: "contact",
  name: "Contact Form",
  fields: [
    { name: "name", type: "text", required: true },
    { name: "email", type: "email", required: true },
    { name: "message", type: "textarea", required: true },
  ],
};

export const FORMS: readonly FormDefinition[] = [CONTACT_FORM];

export function findForm(slug: string): FormDefinition | undefined {
  return FORMS.find((form) => form.slug === slug);
}

/** A stored form_name as the API names forms (the slug); a name no form has any more stays as it is. */
export function formSlugOf(storedName: string): string {
  return FORMS.find((form) => form.name === storedName)?.slug ?? storedName;
}

/** Default length limits per type; textarea allows a long message, the rest one line. */
export const DEFAULT_MAX_LENGTH: Record<FieldType, number> = {
  text: 200,
  email: 254,
  date: 10,
  textarea: 5000,
  select: 200,
};

/** Spec §2: the label is the field name with its first letter capitalised. */
export function fieldLabel(field: Pick<FieldDefinition, "name">): string {
  return field.name.charAt(0).toUpperCase() + field.name.slice(1);
}

/** Spec §2: placeholder 'Enter your {field}...'. */
export function fieldPlaceholder(field: Pick<FieldDefinition, "name">): string {
  return `Enter your ${field.name}...`;
}

/** A real calendar date written as YYYY-MM-DD (ISO 8601). */
export function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The message of an e-mail field that is not an address (the waitlist's, spec §5). */
const EMAIL_MESSAGE = "Please enter a valid email address";

/** One field's rule, from its definition: text rules, then what its type asks for. */
export function fieldSchema(field: FieldDefinition) {
  const label = fieldLabel(field);
  const text = textField({
    required: field.required,
    maxLength: field.maxLength ?? DEFAULT_MAX_LENGTH[field.type],
    multiline: field.type === "textarea",
    messages: {
      notText: `${label} must be text.`,
      required: `${label} is required.`,
      tooLong: `${label} must be at most ${field.maxLength ?? DEFAULT_MAX_LENGTH[field.type]} characters.`,
      forbidden: `${label} contains characters that are not allowed.`,
    },
  });
  const present = (rule: (value: string) => boolean) => (value: string) => value === "" || rule(value);
  switch (field.type) {
    case "email":
      return canonicalEmailRule(text, EMAIL_MESSAGE);
    case "date":
      return v.pipe(text, v.check(present(isIsoDate), `${label} must be a date written as YYYY-MM-DD.`));
    case "select":
      return v.pipe(
        text,
        v.check(
          present((value) => field.options?.includes(value) ?? false),
          `${label} must be one of: ${(field.options ?? []).join(", ")}.`,
        ),
      );
    default:
      return text;
  }
}

/**
 * A form's request body: every defined field (stored cleaned; an optional field left empty is
 * ""), the public-form extras, and nothing else.
 */
export function formSchema(form: FormDefinition) {
  return strictFields({
    ...Object.fromEntries(form.fields.map((field) => [field.name, fieldSchema(field)])),
    ...PUBLIC_FORM_EXTRAS,
  });
}

/** The stored values of a validated submission: the form's own fields only. */
export function formValues(form: FormDefinition, input: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(form.fields.map((field) => [field.name, String(input[field.name] ?? "")]));
}
