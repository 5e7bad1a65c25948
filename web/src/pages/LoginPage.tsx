import { useEffect, useId, useRef, useState, type ChangeEvent, type ClipboardEvent, type FormEvent } from "react";
import { useLocation } from "wouter";
import { emailField, strictFields, validate } from "@shared/text";
import { fieldText } from "../components/form-data";
import { useAuth } from "../auth/auth-context";
import { getAuthClient } from "../auth/client";
import { LOGIN_CODE_LENGTH, LOGIN_REDIRECT_DELAY_MS, login } from "../content";

type Step = "email" | "code";
type Busy = "sending" | "verifying" | null;
/** "info" tells the visitor what to do next (not a failure); it shares the status region. */
type Message = { kind: "success" | "info" | "error"; text: string } | null;
/**
 * A rate limit the server reported: no new code until `until` (ms since the epoch), for one
 * address (the per-address wait and caps) or, with `address` null, for any (the per-client limit).
 */
type Cooldown = { until: number; address: string | null };
type FocusTarget = "email" | "code";

/** The waitlist's e-mail rule (spec §5, worker/shared), with the login's own words. */
const loginEmailSchema = strictFields({
  email: emailField({ required: login.messages.emailRequired, invalid: login.messages.emailInvalid }),
});

/** What a failed auth-js call tells the page. */
type Failure = { kind: "network" } | { kind: "api"; code: string | undefined; message: string; retryAfterSeconds: number | null };

/**
 * Reads an auth-js error without importing auth-js (it is a lazily loaded chunk): an
 * AuthApiError is the server's answer, with GoTrue's code and message; anything else (an
 * AuthRetryableFetchError for a network failure or a 5xx, a thrown TypeError, a chunk that did
 * not load) is a failure the visitor can only retry.
 */
function describeFailure(error: unknown): Failure {
  if (typeof error !== "object" || error === null) return { kind: "network" };
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  if (name !== "AuthApiError") return { kind: "network" };
  const text = typeof message === "string" ? message : "";
  // GoTrue states the wait in its message ("... after 42 seconds.", "Try again in 42 seconds.");
  // auth-js does not pass the Retry-After header on.
  const seconds = /(\d+)\s*seconds?/i.exec(text)?.[1];
  return {
    kind: "api",
    code: typeof code === "string" ? code : undefined,
    message: text,
    retryAfterSeconds: seconds ? Number(seconds) : null,
  };
}

/** When the server names no wait, the per-address wait of the service's default configuration. */
const DEFAULT_WAIT_SECONDS = 60;

/**
 * Two-step sign-in by e-mail code (spec §2 Login, §4, §5, §8): ask for the e-mail and have a
 * code sent, then verify the code. auth-js stores the resulting session and tells every tab.
 *
 * Step two keeps the visitor there for everything but changing the address: "Send a new code"
 * asks again for the same address, and when the server says it is too soon (a rate limit) the
 * page says when a new code can be had and counts down to it; the link 'Resend code or change
 * email' goes back to step one with the address filled in. A visitor who is signed in already
 * sees who they are and a Logout button instead of the form.
 */
export function LoginPage() {
  const [, navigate] = useLocation();
  const { email: signedInEmail } = useAuth();
  const [step, setStep] = useState<Step>("email");
  const [email, setEmail] = useState("");
  // The address step two is about, as the server reads it (cleaned, lower-cased).
  const [sentTo, setSentTo] = useState("");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState<Busy>(null);
  const [message, setMessage] = useState<Message>(null);
  const [signedIn, setSignedIn] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);
  const [cooldown, setCooldown] = useState<Cooldown | null>(null);
  // The time the countdown was last drawn at; ticks once a second while a cooldown runs.
  const [clock, setClock] = useState(0);

  const emailInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const pendingFocus = useRef<FocusTarget | null>(null);
  const mounted = useRef(false);
  const redirectTimer = useRef<number | undefined>(undefined);
  const ids = useId();
  const headingId = `${ids}-heading`;
  const introId = `${ids}-intro`;
  const errorId = `${ids}-error`;
  const countdownId = `${ids}-countdown`;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      window.clearTimeout(redirectTimer.current);
    };
  }, []);

  // Focus goes where the visitor carries on: into the code field when step two opens or a new
  // code is on its way (so a phone keeps its keyboard), to the field to correct after an error.
  // A field disabled while busy cannot take it: the request waits for the next render.
  useEffect(() => {
    const target = pendingFocus.current;
    if (target === null) return;
    const field = (target === "code" ? codeInput : emailInput).current;
    if (!field || field.disabled) return;
    pendingFocus.current = null;
    field.focus();
  });

  // The countdown: redrawn on each whole second left, and over once the wait has passed.
  useEffect(() => {
    if (cooldown === null) return;
    let timer: number | undefined;
    const tick = () => {
      const now = Date.now();
      if (now >= cooldown.until) {
        setCooldown(null);
        return;
      }
      setClock(now);
      timer = window.setTimeout(tick, (cooldown.until - now) % 1000 || 1000);
    };
    tick();
    return () => window.clearTimeout(timer);
  }, [cooldown]);

  function show(next: Message, focus: FocusTarget | null = null) {
    pendingFocus.current = focus;
    setMessage(next);
  }

  function startCooldown(seconds: number | null, address: string | null) {
    const now = Date.now();
    setClock(now);
    setCooldown({ until: now + (seconds ?? DEFAULT_WAIT_SECONDS) * 1000, address });
  }

  /** Sends a code to `address`; on success (or a code already sent) step two shows. */
  async function sendCode(address: string) {
    setBusy("sending");
    setMessage(null);
    try {
      const client = await getAuthClient();
      const { error } = await client.signInWithOtp({ email: address });
      if (!mounted.current) return;
      if (error) {
        codeNotSent(address, describeFailure(error));
        return;
      }
      setCooldown((current) => (current?.address === address ? null : current));
      // A new code replaces the previous one: what was typed of that one no longer counts.
      openCodeStep(address, true);
      show({ kind: "success", text: login.messages.codeSent }, "code");
    } catch (error) {
      if (mounted.current) codeNotSent(address, describeFailure(error));
    } finally {
      if (mounted.current) setBusy(null);
    }
  }

  function openCodeStep(address: string, newCode: boolean) {
    if (newCode || step === "email" || sentTo !== address) setCode("");
    setEmail(address);
    setSentTo(address);
    setStep("code");
  }

  function codeNotSent(address: string, failure: Failure) {
    const here: FocusTarget = step === "code" ? "code" : "email";
    if (failure.kind === "network") {
      show({ kind: "error", text: login.messages.codeRequestFailed }, here);
      return;
    }
    switch (failure.code) {
      case "over_email_send_rate_limit":
        // A code went to this address a moment ago and still works: step two, where it is
        // entered, says when a new one can be had.
        startCooldown(failure.retryAfterSeconds, address);
        openCodeStep(address, false);
        show({ kind: "info", text: login.messages.codeAlreadySent }, "code");
        return;
      case "over_request_rate_limit":
        startCooldown(failure.retryAfterSeconds, null);
        show({ kind: "error", text: login.messages.tooManyCodeRequests }, here);
        return;
      case "validation_failed":
        show({ kind: "error", text: login.messages.emailInvalid }, "email");
        return;
      default:
        show({ kind: "error", text: failure.message || login.messages.codeRequestFailed }, here);
    }
  }

  function requestCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy !== null || waitingForCode(null)) return;
    // Read from the field itself (it is uncontrolled): the visitor may have typed before the app
    // started, into the prerendered page.
    const typed = fieldText(new FormData(event.currentTarget), "email");
    setEmail(typed);
    const input = validate(loginEmailSchema, { email: typed });
    if (!input.ok) {
      show({ kind: "error", text: input.fieldErrors.email ?? login.messages.emailInvalid }, "email");
      return;
    }
    void sendCode(input.value.email);
  }

  function sendNewCode() {
    if (busy !== null || waitingForCode(sentTo)) return;
    void sendCode(sentTo);
  }

  async function verifyCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy !== null) return;
    if (code === "") {
      show({ kind: "error", text: login.messages.codeRequired }, "code");
      return;
    }
    if (code.length < LOGIN_CODE_LENGTH) {
      show({ kind: "error", text: login.messages.codeIncomplete }, "code");
      return;
    }
    setBusy("verifying");
    setMessage(null);
    try {
      const client = await getAuthClient();
      const { error } = await client.verifyOtp({ email: sentTo, token: code, type: "email" });
      if (!mounted.current) return;
      if (error) {
        codeNotVerified(describeFailure(error));
        return;
      }
      setSignedIn(true);
      show({ kind: "success", text: login.messages.signedIn });
      redirectTimer.current = window.setTimeout(() => navigate("/"), LOGIN_REDIRECT_DELAY_MS);
    } catch (error) {
      if (mounted.current) codeNotVerified(describeFailure(error));
    } finally {
      if (mounted.current) setBusy(null);
    }
  }

  function codeNotVerified(failure: Failure) {
    let text: string = login.messages.verificationFailed;
    if (failure.kind === "api") {
      if (failure.code === "otp_expired") text = login.messages.codeRejected;
      else if (failure.code === "over_request_rate_limit") {
        text = login.messages.tooManyAttempts(login.waitFor(failure.retryAfterSeconds ?? DEFAULT_WAIT_SECONDS));
      } else if (failure.message) text = failure.message;
    }
    show({ kind: "error", text }, "code");
  }

  function backToEmailStep() {
    setStep("email");
    setCode("");
    show(null, "email");
  }

  async function logout() {
    setLoggingOut(true);
    setMessage(null);
    try {
      const client = await getAuthClient();
      // As the header's Logout: "local" removes this device's session before asking the server
      // to revoke it, so the device is signed out even when that request fails.
      await client.signOut({ scope: "local" });
      if (!mounted.current) return;
      // The visitor came to sign in: the form, empty, to sign in with another address.
      setStep("email");
      setEmail("");
      setCode("");
      show({ kind: "success", text: login.messages.loggedOut }, "email");
    } catch (error) {
      console.error("Logout failed.", error);
      if (mounted.current) show({ kind: "error", text: login.messages.logoutFailed });
    } finally {
      if (mounted.current) setLoggingOut(false);
    }
  }

  /** Whether a rate limit stops a new code to `address` (null: to any address) now. */
  function waitingForCode(address: string | null): boolean {
    return cooldown !== null && (cooldown.address === null || cooldown.address === address);
  }

  /** Digits only, at most the code's length: letters do nothing, "123 456" becomes 123456. */
  function changeCode(event: ChangeEvent<HTMLInputElement>) {
    setCode(event.target.value.replace(/\D/g, "").slice(0, LOGIN_CODE_LENGTH));
  }

  // A paste is read before maxLength would cut "123 456" to "123 45": its digits go in instead.
  function pasteCode(event: ClipboardEvent<HTMLInputElement>) {
    event.preventDefault();
    const field = event.currentTarget;
    const start = field.selectionStart ?? field.value.length;
    const end = field.selectionEnd ?? start;
    const pasted = event.clipboardData.getData("text");
    setCode((field.value.slice(0, start) + pasted + field.value.slice(end)).replace(/\D/g, "").slice(0, LOGIN_CODE_LENGTH));
  }

  const isBusy = busy !== null;
  // Once signed in, the form has done its job: nothing more to submit while the redirect waits.
  const locked = isBusy || signedIn;
  const errorText = message?.kind === "error" ? message.text : "";
  const statusText = message && message.kind !== "error" ? message.text : "";
  const fieldDescription = (fieldIntro: string) => (errorText ? `${fieldIntro} ${errorId}` : fieldIntro);
  const secondsLeft = cooldown === null ? 0 : Math.max(1, Math.ceil((cooldown.until - clock) / 1000));
  const countdown = (
    // A timer is not announced on every tick; the message above it says why there is a wait.
    <p className="login__countdown" role="timer" id={countdownId}>
      {login.newCodeCountdown(login.waitFor(secondsLeft))}
    </p>
  );
  // This page's own sign-in also makes the visitor signed in: its success message stays until
  // the redirect. Anyone else signed in (a stored session, another tab) sees who they are.
  const showSignedIn = signedInEmail !== null && !isBusy && !signedIn;

  return (
    <section className="login" aria-labelledby={headingId}>
      <div className="card">
        {showSignedIn ? (
          <div className="login__form" key="signed-in">
            <h1 id={headingId} tabIndex={-1}>
              {login.signedInView.title}
            </h1>
            <p className="login__signed-in">{login.signedInView.text(signedInEmail)}</p>
            <button type="button" className="button button--primary" onClick={logout} disabled={loggingOut}>
              {login.signedInView.logout}
            </button>
          </div>
        ) : step === "email" ? (
          <form key="email" className="login__form" onSubmit={requestCode} noValidate aria-busy={isBusy}>
            <h1 id={headingId}>{login.emailStep.title}</h1>
            <p id={introId}>{login.emailStep.intro}</p>
            <label htmlFor={`${ids}-email`}>{login.emailLabel}</label>
            <input
              ref={emailInput}
              id={`${ids}-email`}
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              placeholder={login.emailPlaceholder}
              defaultValue={email}
              disabled={locked}
              aria-invalid={errorText !== "" || undefined}
              aria-describedby={fieldDescription(introId)}
              // biome-ignore lint/a11y/noAutofocus: this field is the page's one task; focus goes to it when its step shows.
              autoFocus
            />
            <button
              type="submit"
              className="button button--primary"
              disabled={locked || waitingForCode(null)}
              aria-describedby={waitingForCode(null) ? countdownId : undefined}
            >
              {busy === "sending" ? login.sending : login.emailStep.submit}
            </button>
            {waitingForCode(null) && countdown}
          </form>
        ) : (
          <form key="code" className="login__form" onSubmit={verifyCode} noValidate aria-busy={isBusy}>
            <h1 id={headingId}>{login.codeStep.title}</h1>
            <p id={introId}>{login.codeStep.intro(sentTo)}</p>
            <label htmlFor={`${ids}-code`}>{login.codeLabel}</label>
            <input
              ref={codeInput}
              id={`${ids}-code`}
              name="code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern={`[0-9]{${LOGIN_CODE_LENGTH}}`}
              maxLength={LOGIN_CODE_LENGTH}
              placeholder={login.codePlaceholder}
              value={code}
              onChange={changeCode}
              onPaste={pasteCode}
              disabled={locked}
              aria-invalid={errorText !== "" || undefined}
              aria-describedby={fieldDescription(introId)}
              // biome-ignore lint/a11y/noAutofocus: this field is the page's one task; focus goes to it when its step shows.
              autoFocus
            />
            <button type="submit" className="button button--primary" disabled={locked}>
              {busy === "verifying" ? login.verifying : login.codeStep.submit}
            </button>
            {!signedIn && (
              <div className="login__more">
                {waitingForCode(sentTo) ? (
                  countdown
                ) : (
                  <button type="button" className="button button--link" onClick={sendNewCode} disabled={isBusy}>
                    {busy === "sending" ? login.sending : login.sendNewCode}
                  </button>
                )}
                {!isBusy && (
                  <button type="button" className="button button--link" onClick={backToEmailStep}>
                    {login.resend}
                  </button>
                )}
              </div>
            )}
          </form>
        )}

        {/* Both regions stay in the page so assistive technology announces text put into them. */}
        <p className={`message message--${message?.kind === "info" ? "info" : "success"}`} role="status">
          {statusText}
        </p>
        <p className="message message--error" role="alert" id={errorId}>
          {errorText}
        </p>

        {/* data-go: the start script follows it when the button is pressed before the app runs. */}
        <button type="button" className="button button--link login__home" data-go="/" onClick={() => navigate("/")}>
          {login.backToHome}
        </button>
      </div>
    </section>
  );
}
