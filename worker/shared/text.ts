import * as v from "valibot";

/**
 * Text rules shared by the web app and the worker, so client-side checks match the server's:
 * what a field may contain, how it is cleaned before it is stored, and the e-mail rule, as
 * valibot building blocks for the request schemas (waitlist.ts, forms.ts, worker/features/sign-in/schemas.ts).
 */

/** C0 controls, DEL, C1 controls (\p{Cc}: U+0000..U+001F, U+007F..U+009F) and the Unicode line and paragraph separators. */
const CONTROL_CHARS = /[\p{Cc}\u2028\u2029]/u;
/** The controls but tab and the line breaks (multi-line fields; the separators are allowed there too). */
const CONTROL_CHARS_EXCEPT_WHITESPACE = /(?![\t\n\r])\p{Cc}/u;

/**
 * Characters that show nothing, or change how the text around them is shown: zero-width
 * characters, the soft hyphen, bidirectional controls (U+202A..U+202E, U+2066..U+2069, the marks),
 * fillers, the byte order mark, interlinear annotations and the tag characters (text hidden from
 * the reader, e.g. to smuggle instructions past a person into an AI). Variation selectors are not
 * listed: they choose how a visible emoji looks.
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: the class lists combining characters (U+034F, the Mongolian selectors) on purpose, each on its own.
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff0-\ufffb\u{e0000}-\u{e007f}]/u;
/**
 * Zero-width (non-)joiners are part of real writing between letters (Persian, Hindi) and of
 * emoji sequences (a family, a profession); there they are allowed.
 */
const JOINER_IN_WORD =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: U+FE0F on its own is what ends an emoji a joiner may follow.
  /(?<=[\p{L}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f])[\u200c\u200d](?=[\p{L}\p{M}\p{Extended_Pictographic}])/gu;
/** Half of a surrogate pair without its other half: not text at all. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether a value holds a character no field may hold: controls (line breaks only where
 * `lineBreaks`), invisible characters, lone surrogates. Joiners between letters or inside emoji
 * are writing, except where `joiners` is false (an e-mail address: there they only make one
 * address look like another).
 */
export function hasForbiddenCharacters(value: string, options: { lineBreaks?: boolean; joiners?: boolean } = {}): boolean {
  const { lineBreaks = false, joiners = true } = options;
  const controls = lineBreaks ? CONTROL_CHARS_EXCEPT_WHITESPACE : CONTROL_CHARS;
  return controls.test(value) || LONE_SURROGATE.test(value) || INVISIBLE.test(joiners ? value.replace(JOINER_IN_WORD, "") : value);
}

/**
 * What shows nothing on its own: whitespace, invisible characters, fillers and blank symbols
 * (Hangul fillers, the braille blank), marks with nothing to mark, variation selectors.
 */
const SHOWS_NOTHING = new RegExp(`${INVISIBLE.source}|[\\s\\u200c\\u200d\\u2800\\ufe00-\\ufe0f]|\\p{M}|\\p{Cf}`, "gu");

/**
 * How every text value is stored: Unicode NFC (so the same text typed two ways is one value)
 * and trimmed. A value that shows nothing (only whitespace, invisible or blank characters) is
 * empty.
 */
export function cleanText(value: string): string {
  if (LONE_SURROGATE.test(value)) return value.trim();
  const text = value.normalize("NFC").trim();
  return text.replace(SHOWS_NOTHING, "") === "" ? "" : text;
}

/** Longest e-mail address a mail system accepts (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;

/**
 * Spec §5: text, @, text, dot, text, with no spaces. The parts also hold none of the characters
 * that separate or quote addresses (`,;<>()[]\"`): "a@b.co,c@d.co" is two addresses, not one.
 * The domain is dot-separated labels, none empty: "x@gmail.com." (a trailing dot, which mail
 * systems read as the same domain) or "x@a..com" would otherwise pass as addresses of their
 * own, past the per-mailbox caps, the disposable-domain list and the referral's mailbox rule.
 */
const EMAIL_SHAPE = /^[^\s@,;<>()[\]\\"]+@(?:[^\s@,;<>()[\]\\".]+\.)+[^\s@,;<>()[\]\\".]+$/;

export function isEmailShaped(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_SHAPE.test(value) && !hasForbiddenCharacters(value, { joiners: false });
}

/**
 * A domain as DNS spells it: dot-separated LDH labels (letters, digits, inner hyphens; IDN labels
 * as xn--), the last not all digits (an IPv4 address is no mail domain). What every domain
 * becomes, or is refused.
 */
const ASCII_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?=[a-z0-9-]*[a-z])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A domain through UTS-46 (IDNA) to ASCII, as the WHATWG URL parser does it in workerd, browsers
 * and Node: full-width and mathematical letters and the ideographic full stop mapped
 * ("ｇｍａｉｌ.com" and "𝐠mail.com" are gmail.com), Unicode labels to xn-- ("bücher.de" is
 * xn--bcher-kva.de), upper case lowered. Null when it is no domain: what the parser refuses, a
 * character that would make it read a URL's other parts (`%/\?#:`), or a result that is not
 * ASCII_DOMAIN (an empty label, a trailing dot, an underscore, an IP address).
 */
function asciiDomain(domain: string): string | null {
  if (/[%/\\?#:]/.test(domain) || !URL.canParse(`http://${domain}`)) return null;
  const host = new URL(`http://${domain}`).hostname;
  return ASCII_DOMAIN.test(host) ? host : null;
}

/**
 * The one form an address is stored, keyed and compared in, or null when it cannot be made one:
 * cleaned (NFC, trimmed) with no forbidden character, the domain through asciiDomain, the local
 * part NFKC (so "ｊａｎｅ" and "𝐣ane" are "jane") and lower-cased, and the result of spec §5's
 * shape ("a＠b@…" holds two @ after NFKC, and is refused). Every spelling of one
 * mailbox's address is one string, so the per-mailbox rules (sign-in's caps, the disposable
 * list, referrals, the one-e-mail-per-inbox audience) meet it as one. Canonical in, the same out.
 */
export function canonicalEmail(value: string): string | null {
  const cleaned = cleanText(value);
  const at = cleaned.lastIndexOf("@");
  // The shape is checked on the result: "jane@gmail。com" has its dot only once mapped.
  if (at < 1 || cleaned.length > EMAIL_MAX_LENGTH || hasForbiddenCharacters(cleaned, { joiners: false })) return null;
  const domain = asciiDomain(cleaned.slice(at + 1));
  if (domain === null) return null;
  // NFKC again after lowering: a lowered letter may decompose ("İ" is "i" and a dot above), and
  // the canonical form must be its own canonical form.
  const email = `${cleaned.slice(0, at).normalize("NFKC").toLowerCase().normalize("NFKC")}@${domain}`;
  return isEmailShaped(email) ? email : null;
}

/** How e-mails are stored and compared: the canonical form (canonicalEmail), or "" for what cannot be made one. */
export function normalizeEmail(value: string): string {
  return canonicalEmail(value) ?? "";
}

/**
 * An e-mail field's rule after its text rules: "" stays "" (an optional field left empty),
 * anything else must be made canonical (canonicalEmail), else it is refused with `invalid`.
 */
export function canonicalEmailRule<S extends v.GenericSchema<unknown, string>>(text: S, invalid: string) {
  return v.pipe(
    text,
    v.check<string, string>((value) => value === "" || canonicalEmail(value) !== null, invalid),
    v.transform<string, string>((value) => (value === "" ? "" : canonicalEmail(value)!)),
  );
}

/** Messages of one text field, in the order its rules are checked. */
export type TextMessages = {
  notText: string;
  required: string;
  tooLong?: string;
  forbidden: string;
};

/**
 * A text field: anything but a string (or nothing) is refused; the value is cleaned; then it
 * must be present (if required), fit `maxLength` and hold no forbidden character. An absent
 * optional field is "". Checks after the first failing one are skipped (parse with
 * abortPipeEarly), so each field reports one message.
 */
export function textField(options: { required: boolean; maxLength: number; multiline?: boolean; messages: TextMessages }) {
  const { required, maxLength, multiline = false, messages } = options;
  return v.pipe(
    v.optional(v.nullable(v.string(messages.notText)), ""),
    v.transform((value) => cleanText(value ?? "")),
    v.check((value) => !required || value !== "", messages.required),
    v.check((value) => value.length <= maxLength, messages.tooLong ?? messages.forbidden),
    v.check((value) => !hasForbiddenCharacters(value, { lineBreaks: multiline }), messages.forbidden),
  );
}

/**
 * An e-mail field: spec §5's shape after cleaning, in its canonical form (canonicalEmail).
 * `invalid` is also the answer to a value that is not text, too long, holds a forbidden
 * character or cannot be made canonical.
 */
export function emailField(messages: { required: string; invalid: string }, required = true) {
  return canonicalEmailRule(
    textField({
      required,
      maxLength: EMAIL_MAX_LENGTH,
      messages: { notText: messages.invalid, required: messages.required, forbidden: messages.invalid },
    }),
    messages.invalid,
  );
}

/** Per field, the first problem found: what a 400 answer carries and what a form shows. */
export type FieldErrors = Record<string, string>;

/**
 * Validates `input` against a schema, stopping at each field's first problem. An unknown key
 * is reported under its own name (see strictFields).
 */
export function validate<T extends v.GenericSchema>(
  schema: T,
  input: unknown,
): { ok: true; value: v.InferOutput<T> } | { ok: false; fieldErrors: FieldErrors } {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return { ok: true, value: result.output };
  // A Map, then own properties: a field named "__proto__" or "constructor" is just a name.
  const errors = new Map<string, string>();
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key;
    const field = typeof key === "string" ? key.slice(0, 40) : "body";
    if (!errors.has(field)) errors.set(field, issue.message);
  }
  return { ok: false, fieldErrors: Object.fromEntries(errors) };
}

/** An object of exactly these fields: any other key is a mistake to report, not to drop. */
export function strictFields<E extends v.ObjectEntries>(entries: E) {
  return v.strictObject(entries, (issue) =>
    issue.expected === "never" ? `Unexpected field "${String(issue.input).slice(0, 40)}".` : "The request body must be a JSON object.",
  );
}
