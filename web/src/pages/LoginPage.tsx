import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { getAuthClient } from "../auth/client";
import { LOGIN_CODE_LENGTH, LOGIN_REDIRECT_DELAY_MS, login } from "../content";

type Step = "email" | "code";
type Busy = "sending" | "verifying" | null;
type Message = { kind: "success" | "error"; text: string } | null;

/**
 * Two-step sign-in by e-mail code (spec §2 Login, §4, §5, §8): ask for the e-mail and have a
 * code sent, then verify the code. auth-js stores the resulting session and tells every tab.
 */
export function LoginPage() {
  const [, navigate] = useLocation();
  const [step, setStep] = useState<Step>("email");
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState<Busy>(null);
  const [message, setMessage] = useState<Message>(null);
  const [signedIn, setSignedIn] = useState(false);

  const emailInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const mounted = useRef(false);
  const redirectTimer = useRef<number | undefined>(undefined);
  const ids = useId();
  const headingId = `${ids}-heading`;
  const introId = `${ids}-intro`;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      window.clearTimeout(redirectTimer.current);
    };
  }, []);

  // Disabling a focused field while busy drops focus; after an error it goes back to the field
  // to correct, next to the message that explains what is wrong.
  useEffect(() => {
    if (busy === null && message?.kind === "error") (step === "code" ? codeInput : emailInput).current?.focus();
  }, [busy, message, step]);

  async function requestCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (address === "") {
      setMessage({ kind: "error", text: login.messages.emailRequired });
      return;
    }
    setBusy("sending");
    setMessage(null);
    try {
      const client = await getAuthClient();
      const { error } = await client.signInWithOtp({ email: address });
      if (!mounted.current) return;
      if (error) {
        setMessage({ kind: "error", text: error.message || login.messages.codeRequestFailed });
        return;
      }
      setEmail(address);
      setCode("");
      setStep("code");
      setMessage({ kind: "success", text: login.messages.codeSent });
    } catch {
      if (mounted.current) setMessage({ kind: "error", text: login.messages.codeRequestFailed });
    } finally {
      if (mounted.current) setBusy(null);
    }
  }

  async function verifyCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const token = code.trim();
    if (token === "") {
      setMessage({ kind: "error", text: login.messages.codeRequired });
      return;
    }
    setBusy("verifying");
    setMessage(null);
    try {
      const client = await getAuthClient();
      const { error } = await client.verifyOtp({ email, token, type: "email" });
      if (!mounted.current) return;
      if (error) {
        setMessage({ kind: "error", text: error.message || login.messages.verificationFailed });
        return;
      }
      setSignedIn(true);
      setMessage({ kind: "success", text: login.messages.signedIn });
      redirectTimer.current = window.setTimeout(() => navigate("/"), LOGIN_REDIRECT_DELAY_MS);
    } catch {
      if (mounted.current) setMessage({ kind: "error", text: login.messages.verificationFailed });
    } finally {
      if (mounted.current) setBusy(null);
    }
  }

  function backToEmailStep() {
    setStep("email");
    setCode("");
    setMessage(null);
  }

  const isBusy = busy !== null;
  // Once signed in, the form has done its job: nothing more to submit while the redirect waits.
  const locked = isBusy || signedIn;
  const errorText = message?.kind === "error" ? message.text : "";
  const successText = message?.kind === "success" ? message.text : "";
  const fieldDescription = (fieldIntro: string) => (errorText ? `${fieldIntro} ${ids}-error` : fieldIntro);

  return (
    <section className="login" aria-labelledby={headingId}>
      <div className="card">
        {step === "email" ? (
          <form className="login__form" onSubmit={requestCode} noValidate aria-busy={isBusy}>
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
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              disabled={locked}
              aria-invalid={errorText !== "" || undefined}
              aria-describedby={fieldDescription(introId)}
              autoFocus
            />
            <button type="submit" className="button button--primary" disabled={locked}>
              {busy === "sending" ? login.sending : login.emailStep.submit}
            </button>
          </form>
        ) : (
          <form className="login__form" onSubmit={verifyCode} noValidate aria-busy={isBusy}>
            <h1 id={headingId}>{login.codeStep.title}</h1>
            <p id={introId}>{login.codeStep.intro(email)}</p>
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
              onChange={(event) => setCode(event.target.value)}
              disabled={locked}
              aria-invalid={errorText !== "" || undefined}
              aria-describedby={fieldDescription(introId)}
              autoFocus
            />
            <button type="submit" className="button button--primary" disabled={locked}>
              {busy === "verifying" ? login.verifying : login.codeStep.submit}
            </button>
            {!isBusy && !successText && (
              <button type="button" className="button button--link" onClick={backToEmailStep}>
                {login.resend}
              </button>
            )}
          </form>
        )}

        {/* Both regions stay in the page so assistive technology announces text put into them. */}
        <p className="message message--success" role="status">
          {successText}
        </p>
        <p className="message message--error" role="alert" id={`${ids}-error`}>
          {errorText}
        </p>

        <button type="button" className="button button--link login__home" onClick={() => navigate("/")}>
          {login.backToHome}
        </button>
      </div>
    </section>
  );
}
