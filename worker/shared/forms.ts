import { hasControlCharacters, isEmailShaped } from "./text";

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

/** Returns the problem with one value, or null when it is acceptable. */
export function validateField(field: FieldDefinition, raw: unknown): string | null {
  const label = fieldLabel(field);
  if (raw !== undefined && raw !== null && typeof raw !== "string") return `${label} must be text.`;
  const value = (raw ?? "").trim();
  if (value === "") return field.required ? `${label} is required.` : null;
  const maxLength = field.maxLength ?? DEFAULT_MAX_LENGTH[field.type];
  if (value.length > maxLength) return `${label} must be at most ${maxLength} characters.`;
  if (hasControlCharacters(value, field.type === "textarea")) {
    return `${label} contains characters that are not allowed.`;
  }
  switch (field.type) {
    case "email":
      return isEmailShaped(value) ? null : "Please enter a valid email address";
    case "date":
      return isIsoDate(value) ? null : `${label} must be a date written as YYYY-MM-DD.`;
    case "select":
      return field.options?.includes(value) ? null : `${label} must be one of: ${(field.options ?? []).join(", ")}.`;
    default:
      return null;
  }
}

export type FormValidation =
  | { ok: true; data: Record<string, string> }
  | { ok: false; fieldErrors: Record<string, string> };

/**
 * Validates a whole submission: every defined field, and no field the form does not define.
 * Values are stored trimmed; optional fields left empty are stored as "".
 */
export function validateSubmission(form: FormDefinition, input: Record<string, unknown>): FormValidation {
  const fieldErrors: Record<string, string> = {};
  const data: Record<string, string> = {};
  for (const field of form.fields) {
    const problem = validateField(field, input[field.name]);
    if (problem) fieldErrors[field.name] = problem;
    else data[field.name] = typeof input[field.name] === "string" ? (input[field.name] as string).trim() : "";
  }
  const known = new Set(form.fields.map((field) => field.name));
  for (const name of Object.keys(input)) {
    if (!known.has(name)) fieldErrors[name] = `${form.name} has no field "${name.slice(0, 40)}".`;
  }
  return Object.keys(fieldErrors).length > 0 ? { ok: false, fieldErrors } : { ok: true, data };
}
