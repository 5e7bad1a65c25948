import { describe, expect, it } from "vitest";
import {
  CONTACT_FORM,
  fieldLabel,
  fieldPlaceholder,
  findForm,
  formSchema,
  formValues,
  isIsoDate,
  type FormDefinition,
} from "../../worker/shared/forms";
import { waitlistSchema } from "../../worker/shared/waitlist";
import { cleanText, hasForbiddenCharacters, normalizeEmail, validate } from "../../worker/shared/text";

/** A definition using all five field types, to check the generic validation of each. */
const EVERY_TYPE: FormDefinition = {
  slug: "every-type",
  name: "Every Type",
  fields: [
    { name: "full_name", type: "text", required: true },
    { name: "email", type: "email", required: true },
    { name: "birth_date", type: "date", required: false },
    { name: "notes", type: "textarea", required: false, maxLength: 20 },
    { name: "grade", type: "select", required: true, options: ["Middle school", "High school", "University"] },
  ],
};

const valid = {
  full_name: "Ada",
  email: "ada@example.com",
  birth_date: "2008-02-29",
  notes: "Two\nlines",
  grade: "High school",
};

function errorsOf(input: Record<string, unknown>) {
  const result = validate(formSchema(EVERY_TYPE), input);
  return result.ok ? {} : result.fieldErrors;
}

describe("form definitions", () => {
  it("defines the contact form as the spec says", () => {
    expect(findForm("contact")).toBe(CONTACT_FORM);
    expect(CONTACT_FORM.name).toBe("Contact Form");
    expect(CONTACT_FORM.fields).toEqual([
      { name: "name", type: "text", required: true },
      { name: "email", type: "email", required: true },
      { name: "message", type: "textarea", required: true },
    ]);
    expect(fieldLabel({ name: "message" })).toBe("Message");
    expect(fieldPlaceholder({ name: "email" })).toBe("Enter your email...");
  });

  it("accepts a valid submission of every type, trimmed; stores the form's own fields only", () => {
    const result = validate(formSchema(EVERY_TYPE), { ...valid, full_name: "  Ada  ", website: "" });
    expect(result).toEqual({ ok: true, value: { ...valid, full_name: "Ada", website: "", "cf-turnstile-response": "" } });
    expect(formValues(EVERY_TYPE, result.ok ? result.value : {})).toEqual({ ...valid, full_name: "Ada" });
  });

  it("text: required, length limit, no control characters", () => {
    expect(errorsOf({ ...valid, full_name: "" })).toEqual({ full_name: "Full_name is required." });
    expect(errorsOf({ ...valid, full_name: "x".repeat(201) })).toEqual({ full_name: "Full_name must be at most 200 characters." });
    expect(errorsOf({ ...valid, full_name: "a\nb" })).toEqual({ full_name: "Full_name contains characters that are not allowed." });
  });

  it("email: the spec's shape", () => {
    expect(errorsOf({ ...valid, email: "ada@example" })).toEqual({ email: "Please enter a valid email address" });
    expect(errorsOf({ ...valid, email: "a da@example.com" })).toEqual({ email: "Please enter a valid email address" });
  });

  it("email: stored as the operator routes look it up, cleaned and lower-cased (the contact form's too)", () => {
    const contact = { name: "Ada", email: " ADA@Example.COM ", message: "Hi" };
    expect(validate(formSchema(CONTACT_FORM), contact)).toMatchObject({ ok: true, value: { email: "ada@example.com" } });
    expect(validate(formSchema(EVERY_TYPE), { ...valid, email: "Ada@Example.com" })).toMatchObject({ value: { email: "ada@example.com" } });
  });

  it("date: a real calendar date written as YYYY-MM-DD; optional may be empty", () => {
    expect(errorsOf({ ...valid, birth_date: "2007-02-29" })).toEqual({ birth_date: "Birth_date must be a date written as YYYY-MM-DD." });
    expect(errorsOf({ ...valid, birth_date: "29/02/2008" })).toEqual({ birth_date: "Birth_date must be a date written as YYYY-MM-DD." });
    expect(errorsOf({ ...valid, birth_date: "2008-02-29T00:00:00Z" })).toEqual({ birth_date: "Birth_date must be at most 10 characters." });
    expect(errorsOf({ ...valid, birth_date: "" })).toEqual({});
    expect(isIsoDate("2024-12-31")).toBe(true);
    expect(isIsoDate("2024-13-01")).toBe(false);
  });

  it("textarea: line breaks allowed, its own length limit", () => {
    expect(errorsOf({ ...valid, notes: "a\r\n\tb" })).toEqual({});
    expect(errorsOf({ ...valid, notes: "x".repeat(21) })).toEqual({ notes: "Notes must be at most 20 characters." });
    expect(errorsOf({ ...valid, notes: "bell\u0007" })).toEqual({ notes: "Notes contains characters that are not allowed." });
  });

  it("select: only one of its options", () => {
    expect(errorsOf({ ...valid, grade: "Kindergarten" })).toEqual({
      grade: "Grade must be one of: Middle school, High school, University.",
    });
    expect(errorsOf({ ...valid, grade: undefined })).toEqual({ grade: "Grade is required." });
  });

  it("rejects values that are not text and fields the form does not define", () => {
    expect(errorsOf({ ...valid, grade: ["High school"] })).toEqual({ grade: "Grade must be text." });
    expect(errorsOf({ ...valid, extra: "x" })).toEqual({ extra: 'Unexpected field "extra".' });
  });
});

/** Issue 8 §4: input is clean before it is stored, by the one set of rules the site checks with too. */
describe("text cleaning", () => {
  const decomposed = "u\u0308ber@example.com"; // "ü" as u + combining diaeresis
  const composed = "\u00fcber@example.com";

  it("normalises e-mails to NFC, trimmed and lower-cased, so one address typed two ways is one entry", () => {
    expect(normalizeEmail(`  ${decomposed.toUpperCase()} `)).toBe(composed);
    expect(validate(waitlistSchema, { email: decomposed })).toMatchObject({ ok: true, value: { email: composed } });
    expect(validate(waitlistSchema, { email: composed })).toMatchObject({ ok: true, value: { email: composed } });
  });

  it.each([
    ["a zero-width space", "ada\u200b@example.com"],
    ["a zero-width joiner", "ada\u200d@example.com"],
    ["a right-to-left override", "ada\u202e@example.com"],
    ["a left-to-right isolate", "\u2066ada@example.com"],
    ["a byte order mark inside", "ada\ufeff@example.com"],
    ["a soft hyphen", "ada\u00ad@example.com"],
    ["an unpaired surrogate", "ada\ud800@example.com"],
    ["a zero-width joiner between letters (a look-alike of ab@)", "a\u200db@example.com"],
    ["a zero-width non-joiner between letters", "a\u200cb@example.com"],
    ["a second address after a comma", "victim@example.com,x"],
    ["a display name in angle brackets", "x<victim@example.com>"],
    ["a quoted local part", '"v"@example.com'],
    ["a semicolon", "a;b@example.com"],
  ])("refuses %s in the waitlist e-mail with the field's message", (_name, email) => {
    expect(validate(waitlistSchema, { email })).toEqual({ ok: false, fieldErrors: { email: "Please enter a valid email address" } });
  });

  it.each([
    ["only zero-width characters", "\u200b\u200c\u2060"],
    ["whitespace and a byte order mark", " \ufeff\u00a0 "],
    ["bidirectional controls only", "\u202a\u202c"],
    ["the braille blank", "\u2800\u2800"],
    ["a variation selector alone", "\ufe0f"],
    ["a combining accent with nothing to mark", "\u0301"],
    ["a Hangul filler", "\u3164"],
  ])("counts a field of %s as empty", (_name, value) => {
    expect(cleanText(value)).toBe("");
    expect(validate(waitlistSchema, { email: value })).toEqual({ ok: false, fieldErrors: { email: "Please enter your email address" } });
    expect(errorsOf({ ...valid, full_name: value })).toEqual({ full_name: "Full_name is required." });
  });

  it.each([
    ["a zero-width space in a name", { full_name: "A\u200bda" }, "full_name", "Full_name contains characters that are not allowed."],
    ["a bidi override in a message", { notes: "hi \u202egnp.exe" }, "notes", "Notes contains characters that are not allowed."],
    ["hidden tag characters in a message", { notes: "hi\u{e0041}\u{e0042}" }, "notes", "Notes contains characters that are not allowed."],
    ["an unpaired surrogate in a message", { notes: "a\udc00b" }, "notes", "Notes contains characters that are not allowed."],
    [
      "a line separator in a one-line field",
      { full_name: "Ada\u2028Lovelace" },
      "full_name",
      "Full_name contains characters that are not allowed.",
    ],
  ])("refuses %s", (_name, change, field, message) => {
    expect(errorsOf({ ...valid, ...change })).toEqual({ [field]: message });
  });

  it("keeps real writing: joiners inside words and emoji, variation selectors, accents", () => {
    expect(hasForbiddenCharacters("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645")).toBe(false); // Persian with ZWNJ
    expect(hasForbiddenCharacters("family \u{1f468}\u200d\u{1f469}\u200d\u{1f467} \u2764\ufe0f")).toBe(false);
    expect(errorsOf({ ...valid, full_name: "Zo\u00eb", notes: "\u{1f469}\u200d\u{1f4bb} ok" })).toEqual({});
    expect(validate(formSchema(EVERY_TYPE), { ...valid, full_name: "Zoe\u0308" })).toMatchObject({
      ok: true,
      value: { full_name: "Zo\u00eb" },
    });
  });
});

describe("field names", () => {
  it("reports an unknown field named __proto__ as itself (an own property, not the prototype)", () => {
    const body = JSON.parse('{"email":"a@b.co","__proto__":"x"}') as Record<string, unknown>;
    const result = validate(waitlistSchema, body);
    expect(result.ok).toBe(false);
    const fieldErrors = result.ok ? {} : result.fieldErrors;
    expect(Object.entries(fieldErrors)).toEqual([["__proto__", 'Unexpected field "__proto__".']]);
    expect(Object.getPrototypeOf(fieldErrors)).toBe(Object.prototype);
  });

  it("answers a honeypot or token that is not text in words", () => {
    expect(validate(waitlistSchema, { email: "a@b.co", website: 5 })).toEqual({
      ok: false,
      fieldErrors: { website: "Website must be text." },
    });
  });
});
