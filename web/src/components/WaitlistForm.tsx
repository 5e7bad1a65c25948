import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { validate } from "@shared/text";
import { waitlistSchema } from "@shared/waitlist";
import { joinWaitlist } from "../api";
import { useInteractive } from "../hooks/interactive";
import { waitlistForm } from "../content";
import { useTurnstile } from "../turnstile/use-turnstile";
import { Honeypot } from "./Honeypot";

/** Where the form sits on the page; sent to the API as `source`. */
export type WaitlistSource = "hero" | "cta";

type Status = { state: "idle" } | { state: "loading" } | { state: "success" } | { state: "error"; message: string };

type FocusTarget = "input" | "addAnother";

/**
 * The waitlist form (spec §2, §4, §5, §8): idle -> loading -> success or error; "Add another
 * email" goes back to idle with the field empty. The e-mail is checked with the server's own
 * rule before anything is sent. Like every public form it carries the honeypot and, when the
 * page has a Turnstile site key, a Turnstile widget started by the visitor's first focus or input.
 */
export function WaitlistForm({ label = waitlistForm.defaultLabel, source }: { label?: string; source: WaitlistSource }) {
  const [email, setEmail] = useState("");
  const [status, setStatus] = useState<Status>({ state: "idle" });
  const interactive = useInteractive();
  const inputRef = useRef<HTMLInputElement>(null);
  const addAnotherRef = useRef<HTMLButtonElement>(null);
  const honeypotRef = useRef<HTMLInputElement>(null);
  const turnstile = useTurnstile();
  const focusTarget = useRef<FocusTarget | null>(null);
  const mounted = useRef(false);
  const ids = useId();
  const inputId = `${ids}-email`;
  const errorId = `${ids}-error`;
  const noteId = `${ids}-note`;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // Focus goes where the visitor can carry on: the field to correct after an error (a disabled
  // field loses focus while the request runs), "Add another email" once the field is gone.
  useEffect(() => {
    const target = focusTarget.current;
    focusTarget.current = null;
    if (target === "input") inputRef.current?.focus();
    else if (target === "addAnother") addAnotherRef.current?.focus();
  }, [status]);

  function show(next: Status, focus: FocusTarget | null) {
    focusTarget.current = focus;
    setStatus(next);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status.state === "loading") return;
    const input = validate(waitlistSchema, { email, source });
    if (!input.ok) {
      // The source is this placement's constant: only the e-mail can be wrong, unless the page is.
      show({ state: "error", message: input.fieldErrors.email ?? waitlistForm.messages.failure }, "input");
      return;
    }
    show({ state: "loading" }, null);
    // Loading already: a token may take a moment (Turnstile's script, or a challenge, still running).
    const turnstileToken = await turnstile.token();
    const outcome = await joinWaitlist(input.value.email, source, { honeypot: honeypotRef.current?.value ?? "", turnstileToken });
    turnstile.reset();
    if (!mounted.current) return;
    if (outcome.ok) show({ state: "success" }, "addAnother");
    else show({ state: "error", message: outcome.message }, "input");
  }

  function addAnother() {
    setEmail("");
    show({ state: "idle" }, "input");
  }

  const loading = status.state === "loading";
  const success = status.state === "success";
  const errorText = status.state === "error" ? status.message : "";

  return (
    <form
      className="waitlist"
      method="post"
      aria-label={label}
      onSubmit={submit}
      onFocus={turnstile.start}
      onInput={turnstile.start}
      noValidate
      aria-busy={loading}
    >
      {/* The live regions stay in the page so what is put into them is announced. */}
      <div className="waitlist__success" role="status">
        {success && (
          <>
            <p className="waitlist__success-title">{waitlistForm.successTitle}</p>
            <p>{waitlistForm.successDetail}</p>
          </>
        )}
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
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            disabled={loading}
            aria-invalid={errorText !== "" || undefined}
            aria-describedby={errorText ? `${errorId} ${noteId}` : noteId}
          />
          <button type="submit" className="button button--primary waitlist__submit" disabled={loading || !interactive}>
            {loading ? waitlistForm.loading : label}
          </button>
        </div>
      )}
      <Honeypot inputRef={honeypotRef} />
      <div ref={turnstile.containerRef} className="turnstile" />
      <p className="message message--error waitlist__error" role="alert" id={errorId}>
        {errorText}
      </p>
      <p className="waitlist__note" id={noteId}>
        {waitlistForm.note}
      </p>
    </form>
  );
}
