import { HONEYPOT_FIELD } from "@shared/public-forms";

/**
 * The forms' fields are uncontrolled: their values live in the DOM, where the visitor may have
 * typed before the app started (the prerendered page is usable at once), so the app reads them
 * when the form is submitted instead of keeping a copy that hydration would start empty.
 */

/** The text of field `name` in a submitted form's data ("" when the form has no such text field). */
export function fieldText(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === "string" ? value : "";
}

/** What the honeypot field holds: "" from a person. */
export function honeypotText(data: FormData): string {
  return fieldText(data, HONEYPOT_FIELD);
}
