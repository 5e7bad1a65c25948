import { type Ref, useId } from "react";
import { AGE_MESSAGES, type BirthProblem, birthYearsOffered } from "@shared/age";
import { useHydrated } from "../hooks/hydrated";

/** The names the API reads the answer under (the selects' names: the browser posts them before the app runs). */
export const BIRTH_FIELDS = ["birth_month", "birth_year"] as const;
export type BirthField = BirthProblem["field"];

/** An answer the form refused (the client's check or the server's 400), said at its field. */
export type BirthError = { field: BirthField; message: string };

const MONTHS = "January February March April May June July August September October November December".split(" ");

/**
 * The newest year the prerendered page lists (the year it was built in): hydration must find the
 * options the HTML holds, even when the year has turned since the build. Read once, like the
 * form's landing fields.
 */
const builtYear =
  typeof document === "undefined"
    ? 0
    : Number(document.querySelector<HTMLOptionElement>('select[name="birth_year"] option:nth-child(2)')?.value) || 0;

/**
 * The neutral age question (issue 23 §1) asked with every e-mail the waitlist collects: the birth
 * month and year, two selects with nothing chosen in advance, every year of the full range
 * (birthYearsOffered: no cut-off near 13), and only neutral words before the answer (the legend
 * and why everyone is asked). A refused answer is said under the selects and marks its select;
 * the form moves focus to that select (`monthRef`, `yearRef`). Uncontrolled, like the e-mail
 * field: what was chosen before the app started stays, and the form reads the values when it is
 * submitted (readBirthAnswer, the server's own rule).
 */
export function AgeQuestion({
  error,
  disabled,
  monthRef,
  yearRef,
}: {
  error?: BirthError | null;
  disabled?: boolean;
  monthRef?: Ref<HTMLSelectElement>;
  yearRef?: Ref<HTMLSelectElement>;
}) {
  const id = useId();
  const hydrated = useHydrated();
  const now = !hydrated && builtYear ? new Date(Date.UTC(builtYear, 0, 1)) : new Date();
  const whyId = `${id}-why`;
  const errorId = `${id}-error`;
  // The fieldset is described by why everyone is asked; a select in error by its message.
  const describedBy = (field: BirthField) => (error?.field === field ? errorId : undefined);
  const invalid = (field: BirthField) => error?.field === field || undefined;

  return (
    <fieldset className="age" disabled={disabled} aria-describedby={whyId}>
      <legend className="age__legend">{AGE_MESSAGES.question}</legend>
      <div className="age__row">
        {/* Named by aria-label: the first option says the same on screen, and the page is the smaller for it. */}
        <select
          ref={monthRef}
          aria-label={AGE_MESSAGES.month}
          name="birth_month"
          className="input"
          aria-invalid={invalid("birth_month")}
          aria-describedby={describedBy("birth_month")}
        >
          <option value="">{AGE_MESSAGES.monthPlaceholder}</option>
          {MONTHS.map((name, index) => (
            <option key={name} value={index + 1}>
              {name}
            </option>
          ))}
        </select>
        <select
          ref={yearRef}
          aria-label={AGE_MESSAGES.year}
          name="birth_year"
          className="input"
          aria-invalid={invalid("birth_year")}
          aria-describedby={describedBy("birth_year")}
        >
          <option value="">{AGE_MESSAGES.yearPlaceholder}</option>
          {/* An option's value is its text: the year, and the prerendered page is the smaller for it. */}
          {birthYearsOffered(now).map((year) => (
            <option key={year}>{year}</option>
          ))}
        </select>
      </div>
      <p className="waitlist__note" id={whyId}>
        {AGE_MESSAGES.why}
      </p>
      <p className="message message--error age__error" id={errorId}>
        {error?.message ?? ""}
      </p>
    </fieldset>
  );
}
