import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { LANDING_FIELDS } from "@shared/waitlist";
import { AGE_MESSAGES } from "@shared/age";
import { FOR_PARENTS_LINK, FOR_PARENTS_PATH } from "@shared/for-parents";
import { pageClaimWords, useClaimMark } from "../claims";
import { WAITLIST_ENDPOINT, type WaitlistField, type WaitlistJoin, joinWaitlist } from "../api";
import { waitlistForm } from "../form-content";
import { useMounted } from "../hooks/mounted";
import { prefersReducedMotion } from "../hooks/reduced-motion";
import { useTurnstile } from "../turnstile/use-turnstile";
import { AgeQuestion, type BirthField } from "./AgeQuestion";
import { honeypotText } from "./form-data";
import { attributionOf, landing, readJoin, type Status, type Step } from "./waitlist-join";
import { Honeypot } from "./Honeypot";

/** Where the form sits on the page; sent to the API as `source`. */
export type WaitlistSource = "hero" | "cta";

type FocusTarget = "input" | "addAnother" | BirthField | "parentMessage" | "asked";

/**
 * The waitlist form (spec §2, §4, §5, §8; issue 23): idle -> loading -> success or error; "Add
 * another email" goes back to idle with the field empty. An address already on the list is told so as
 * news, not as an error. The e-mail and the neutral age question (./AgeQuestion.tsx) are checked
 * with the server's own rules before anything is sent: nothing is posted until both are answered.
 * Like every public form it carries the honeypot and, when the page has a Turnstile site
 * key, a Turnstile widget started by the visitor's first focus or input.
 *
 * Below the consent age the API answers `parent_needed`: the form then says so in plain words,
 * drops the child's address (its field is gone, and it is never sent again) and asks for a
 * parent's or guardian's address instead; `parent_asked` says they were e-mailed. The answer's
 * 24-hour cookie is the server's business: the form needs nothing for it.
 *
 * It is a real form from the first paint: before the app runs, the browser posts it to the API
 * itself (the e-mail, the answer, the placement as `source`, the honeypot), and the worker answers with a
 * page. Once the app runs it sends JSON and shows the states in place. The fields are
 * uncontrolled, so what was typed before the app started stays (see ./form-data.ts).
 */
export function WaitlistForm({ label = waitlistForm.defaultLabel, source }: { label?: string; source: WaitlistSource }) {
  const [status, setStatus] = useState<Status>({ state: "idle" });
  const mark = useClaimMark();
  const [step, setStep] = useState<Step>("email");
  const inputRef = useRef<HTMLInputElement>(null);
  const addAnotherRef = useRef<HTMLButtonElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const monthRef = useRef<HTMLSelectElement>(null);
  const yearRef = useRef<HTMLSelectElement>(null);
  const parentMessageRef = useRef<HTMLDivElement>(null);
  const askedRef = useRef<HTMLParagraphElement>(null);
  /** The age question's answer, sent again with the parent's address (the server's cookie wins while it is valid). */
  const answer = useRef<WaitlistJoin>({});
  const turnstile = useTurnstile();
  const focusTarget = useRef<FocusTarget | null>(null);
  const isMounted = useMounted();
  const ids = useId();
  const inputId = `${ids}-email`;
  const errorId = `${ids}-error`;
  const noteId = `${ids}-note`;
  const parentTextId = `${ids}-parent`;

  // Focus goes where the visitor can carry on: the field after an error or a known address (a
  // disabled field loses focus while the request runs), the select a refused answer is about,
  // the parent step's message when it comes, "Add another email" once the field is gone.
  // An error is said under the button, which on a phone can be under the fold when the button
  // was at the bottom of the screen: it is scrolled into view (the field it describes keeps focus).
  useEffect(() => {
    const target = focusTarget.current;
    focusTarget.current = null;
    const element = {
      input: inputRef,
      addAnother: addAnotherRef,
      birth_month: monthRef,
      birth_year: yearRef,
      parentMessage: parentMessageRef,
      asked: askedRef,
    }[target ?? "input"].current;
    if (target) element?.focus();
    if (status.state === "error")
      errorRef.current?.scrollIntoView({ block: "nearest", behavior: prefersReducedMotion() ? "auto" : "smooth" });
  }, [status]);

  function show(next: Status, focus: FocusTarget | null) {
    focusTarget.current = focus;
    setStatus(next);
  }

  /** A refusal at its field: the birth month or year at the question, anything else at the address's field. */
  function refuse(message: string, field?: WaitlistField) {
    show({ state: "error", message, field }, field === "birth_month" || field === "birth_year" ? field : "input");
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status.state === "loading") return;
    // Read before the fields are disabled: a disabled field is left out of the form's data.
    const data = new FormData(event.currentTarget);
    const read = readJoin(data, step, source, answer.current);
    if ("refusal" in read) return refuse(read.refusal.message, read.refusal.field);
    answer.current = read.answer;
    const join = read.join;
    show({ state: "loading" }, null);
    // Loading already: a token may take a moment (Turnstile's script, or a challenge, still running).
    const turnstileToken = await turnstile.token();
    const outcome = await joinWaitlist(join, source, { honeypot: honeypotText(data), turnstileToken }, attributionOf(data));
    turnstile.reset();
    if (!isMounted()) return;
    if (outcome.kind === "error") refuse(outcome.message, outcome.field);
    else if (outcome.kind === "known") show({ state: "known" }, "input");
    else if (outcome.kind === "parentAsked") show({ state: "asked" }, "asked");
    else if (outcome.kind === "parentNeeded") {
      // The child's address goes with its field, and is never sent again.
      setStep("parent");
      show({ state: "idle" }, "parentMessage");
    } else show({ state: "success" }, "addAnother");
  }

  // The field comes back new, and so empty, in place of the success message.
  function addAnother() {
    show({ state: "idle" }, "input");
  }

  const loading = status.state === "loading";
  const success = status.state === "success";
  const asked = status.state === "asked";
  const error = status.state === "error" ? status : null;
  const birthError =
    error?.field === "birth_month" || error?.field === "birth_year" ? { field: error.field, message: error.message } : null;
  const errorText = error && !birthError ? error.message : "";
  const describedBy = errorText ? `${errorId} ${noteId}` : noteId;

  return (
    <form
      className="waitlist"
      action={WAITLIST_ENDPOINT}
      method="post"
      aria-label={label}
      onSubmit={submit}
      onFocus={turnstile.start}
      onInput={turnstile.start}
      noValidate
      aria-busy={loading}
    >
      {/* The live regions stay in the page so what is put into them is announced. */}
      <div className="waitlist__status" role="status">
        {success && (
          <>
            <p className="waitlist__success-title">{waitlistForm.successTitle}</p>
            <p>{waitlistForm.successDetail}</p>
            <p>{waitlistForm.checkInbox}</p>
          </>
        )}
        {asked && (
          <>
            <p ref={askedRef} tabIndex={-1} className="waitlist__success-title">
              {AGE_MESSAGES.parentSentTitle}
            </p>
            <p>{AGE_MESSAGES.parentSentDetail}</p>
          </>
        )}
        {status.state === "known" && <p className="waitlist__known">{waitlistForm.messages.duplicate}</p>}
      </div>
      {success ? (
        <button ref={addAnotherRef} type="button" className="button button--link" onClick={addAnother}>
          {waitlistForm.addAnother}
        </button>
      ) : asked ? null : step === "parent" ? (
        <>
          <div ref={parentMessageRef} tabIndex={-1} className="waitlist__parent" id={parentTextId}>
            <p>
              <strong>{AGE_MESSAGES.parentNeeded}</strong>
            </p>
            <p>{AGE_MESSAGES.parentExplain}</p>
          </div>
          <label htmlFor={inputId} className="age__legend">
            {AGE_MESSAGES.parentEmailLabel}
          </label>
          <div className="waitlist__row">
            <input
              ref={inputRef}
              id={inputId}
              className="input waitlist__input"
              name="parent_email"
              type="email"
              autoComplete="off"
              inputMode="email"
              disabled={loading}
              aria-invalid={errorText !== "" || undefined}
              aria-describedby={errorText ? `${errorId} ${parentTextId}` : parentTextId}
            />
            <button type="submit" className="button button--primary waitlist__submit" disabled={loading}>
              {loading ? waitlistForm.loading : AGE_MESSAGES.parentSubmit}
            </button>
          </div>
        </>
      ) : (
        <>
          <AgeQuestion error={birthError} disabled={loading} monthRef={monthRef} yearRef={yearRef} />
          <div className="waitlist__row">
            <label htmlFor={inputId} className="visually-hidden">
              {waitlistForm.emailLabel}
            </label>
            <input
              ref={inputRef}
              id={inputId}
              className="input waitlist__input"
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              placeholder={waitlistForm.emailPlaceholder}
              disabled={loading}
              aria-invalid={errorText !== "" || undefined}
              aria-describedby={describedBy}
            />
            <button type="submit" className="button button--primary waitlist__submit" disabled={loading}>
              {loading ? waitlistForm.loading : label}
            </button>
          </div>
        </>
      )}
      {/* What the browser posts as `source` before the app runs; the app sends the prop itself. */}
      <input type="hidden" name="source" value={source} />
      {LANDING_FIELDS.map((name) => (
        <input key={name} type="hidden" name={name} defaultValue={landing[name]} />
      ))}
      <Honeypot />
      <div ref={turnstile.containerRef} className="turnstile" />
      <p ref={errorRef} className="message message--error waitlist__error" role="alert" id={errorId}>
        {errorText}
      </p>
      {/* The invitation to join is the child's no longer once a parent decides (no nudge on the parent step). */}
      {step === "email" && !asked && (
        <p className="waitlist__note" id={noteId} data-claim={mark("formNote")}>
          {pageClaimWords().formNote}
        </p>
      )}
      <p className="waitlist__note">
        <a href={FOR_PARENTS_PATH}>{FOR_PARENTS_LINK}</a>
      </p>
    </form>
  );
}
