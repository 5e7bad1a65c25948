import { describe, expect, it } from "vitest";
import {
  CONTACT_FORM,
  fieldLabel,
  fieldPlaceholder,
  findForm,
  isIsoDate,
  validateSubmission,
  type FormDefinition,
} from "../../worker/shared/forms";

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
  const result = validateSubmission(EVERY_TYPE, input);
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

  it("accepts a valid submission of every type, trimmed", () => {
    expect(validateSubmission(EVERY_TYPE, { ...valid, full_name: "  Ada  " })).toEqual({
      ok: true,
      data: { ...valid, full_name: "Ada" },
    });
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
    expect(errorsOf({ ...valid, extra: "x" })).toEqual({ extra: 'Every Type has no field "extra".' });
  });
});
