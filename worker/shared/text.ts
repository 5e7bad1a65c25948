/**
 * Text rules shared by the web app and the worker, so client-side checks match the server's.
 */

/** C0 controls, DEL and C1 controls. */
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, but allowing tab, line feed and carriage return (multi-line fields). */
const CONTROL_CHARS_EXCEPT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export function hasControlCharacters(value: string, allowLineBreaks = false): boolean {
  return (allowLineBreaks ? CONTROL_CHARS_EXCEPT_WHITESPACE : CONTROL_CHARS).test(value);
}

/** Longest e-mail address a mail system accepts (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;

/** Spec §5: text, @, text, dot, text, with no spaces. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailShaped(value: string): boolean {
  return (
    value.length <= EMAIL_MAX_LENGTH && EMAIL_SHAPE.test(value) && !hasControlCharacters(value)
  );
}

/** How e-mails are stored and compared: trimmed and lower-cased. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
