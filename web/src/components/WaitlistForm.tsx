import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { validate } from "@shared/text";
import { LANDING_FIELDS, waitlistSchema } from "@shared/waitlist";
import { WAITLIST_ENDPOINT, joinWaitlist } from "../api";
import { waitlistForm } from "../form-content";
import { useMounted } from "../hooks/mounted";
import { prefersReducedMotion } from "../hooks/reduced-motion";
import { useTurnstile } from "../turnstile/use-turnstile";
import { fieldText, honeypotText } from "./form-data";
import { Honeypot } from "./Honeypot";

/**
 * The landing page's attribution (utm_source, utm_medium, utm_campaign, referrer_host) and a
 * shared link's referral code (ref): the
 * worker writes it into the hidden fields of the page it serves (worker/features/pages/routes.ts). Read
 * once, before the app renders, so a form rendered later (after a visit to another page of the
 * site) carries it too, and hydration finds the values the page holds.
 */
const landing: Record<string, string> = Object.fromEntries(
  LANDING_FIELDS.map((name) => [
    name,
    typeof document === "undefined" ? "" : (document.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value ?? ""),
  ]),
);

/** The attribution fields (and ref) that hold something: only those are sent. */
function attributionOf(data: FormData): Record<string, string> {
  return Object.fromEntries(LANDING_FIELDS.map((name) => [name, fieldText(data, name)]).filter(([, value]) => value !== ""));
}

/** Where the form sits on the page; sent to the API as `source`. */
export type WaitlistSource = "hero" | "cta";

/** `known`: the address was on the list already (spec §5's duplicate), which is good news. */
type Status = { state: "idle" } | { state: "loading" } | { state: "success" } | { state: "known" } | { state: "error"; message: string };

type FocusTarget = "input" | "addAnother";

/**
 * The waitlist form (spec §2, §4, §5, §8): idle -> loading -> success or error; "Add another
 * email" goes back to idle with the field empty. An address already on the list is told so as
 * news, not as an error. The e-mail is checked with the server's own rule before anything is
 * sent. Like every public form it carries the honeypot and, when the page has a Turnstile site
 * key, a Turnstile widget started by the visitor's first focus or input.
 *
 * It is a real form from the first paint: before the app runs, the browser posts it to the API
 * itself (the e-mail, the placement as `source`, the honeypot), and the worker answers with a
 * page. Once the app runs it sends JSON and shows the states in place. The e-mail field is
 * uncontrolled, so what was typed before the app started stays (see ./form-data.ts).
 */
export function WaitlistForm({ label = waitlistForm.defaultLabel, source }: { label?: string; source: WaitlistSource }) {
  const [status, setStatus] = useState<Status>({ state: "idle" });
  const inputRef = useRef<HTMLInputElement>(null);
  const addAnotherRef = useRef<HTMLButtonElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const turnstile = useTurnstile();
  const focusTarget = useRef<FocusTarget | null>(null);
  const isMounted = useMounted();
  const ids = useId();
  const inputId = `${ids}-email`;
  const errorId = `${ids}-error`;
  const noteId = `${ids}-note`;

  // Focus goes where the visitor can carry on: the field after an error or a known address (a
  // disabled field loses focus while the request runs), "Add another email" once the field is gone.
  // An error is said under the button, which on a phone can be under the fold when the button
  // was at the bottom of the screen: it is scrolled into view (the field it describes keeps focus).
  useEffect(() => {
    const target = focusTarget.current;
    focusTarget.current = null;
    if (target === "input") inputRef.current?.focus();
    else if (target === "addAnother") addAnotherRef.current?.focus();
    if (status.state === "error")
      errorRef.current?.scrollIntoView({ block: "nearest", behavior: prefersReducedMotion() ? "auto" : "smooth" });
  }, [status]);

  function show(next: Status, focus: FocusTarget | null) {
    focusTarget.current = focus;
    setStatus(next);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status.state === "loading") return;
    // Read before the field is disabled: a disabled field is left out of the form's data.
    const data = new FormData(event.currentTarget);
    const input = validate(waitlistSchema, { email: fieldText(data, "email"), source });
    if (!input.ok) {
      // The source is this placement's constant: only the e-mail can be wrong, unless the page is.
      show({ state: "error", message: input.fieldErrors.email ?? waitlistForm.messages.failure }, "input");
      return;
    }
    show({ state: "loading" }, null);
    // Loading already: a token may take a moment (Turnstile's script, or a challenge, still running).
    const turnstileToken = await turnstile.token();
    const outcome = await joinWaitlist(input.value.email, source, { honeypot: honeypotText(data), turnstileToken }, attributionOf(data));
    turnstile.reset();
    if (!isMounted()) return;
    if (!outcome.ok) show({ state: "error", message: outcome.message }, "input");
    else if (outcome.alreadyJoined) show({ state: "known" }, "input");
    else show({ state: "success" }, "addAnother");
  }

  // The field comes back new, and so empty, in place of the success message.
  function addAnother() {
    show({ state: "idle" }, "input");
  }

  const loading = status.state === "loading";
  const success = status.state === "success";
  const errorText = status.state === "error" ? status.message : "";

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
        {status.state === "known" && <p className="waitlist__known">{waitlistForm.messages.duplicate}</p>}
      </div>
      {success ? (
        <button ref={addAnotherRef} type="button" className="button button--link" onClick={addAnother}>
          {waitlistForm.addAnother}
        </button>
      ) : (
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
            aria-describedby={errorText ? `${errorId} ${noteId}` : noteId}
          />
          <button type="submit" className="button button--primary waitlist__submit" disabled={loading}>
            {loading ? waitlistForm.loading : label}
          </button>
        </div>
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
      <p className="waitlist__note" id={noteId}>
        {waitlistForm.note}
      </p>
    </form>
  );
}
