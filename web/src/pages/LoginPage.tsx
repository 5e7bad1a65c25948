import { useEffect, useId, useRef, useState } from "react";
import { useLocation } from "wouter";
import { CODE_LENGTH } from "@shared/sign-in";
import { emailField, strictFields, validate } from "@shared/text";
import { useAuth } from "../auth/auth-context";
import { getAuthClient } from "../auth/client";
import { useMounted } from "../hooks/mounted";
import { CodeStep } from "./login/CodeStep";
import { login } from "./login/content";
import { EmailStep } from "./login/EmailStep";
import { codeNotSent, codeNotVerifiedText, describeFailure, type FocusTarget, type Message } from "./login/failure";
import { type Busy, ErrorMessage, loginIds } from "./login/fields";
import { SignedInView } from "./login/SignedInView";
import { useCodeCooldown } from "./login/use-code-cooldown";
import { useRedirectAfterSignIn } from "./login/use-redirect";

type Step = "email" | "code";

/** The waitlist's e-mail rule (spec §5, worker/shared), with the login's own words. */
const loginEmailSchema = strictFields({
  email: emailField({ required: login.messages.emailRequired, invalid: login.messages.emailInvalid }),
});

/**
 * Two-step sign-in by e-mail code (spec §2 Login, §4, §5, §8): ask for the e-mail and have a
 * code sent, then verify the code. auth-js stores the resulting session and tells every tab.
 *
 * Step two keeps the visitor there for everything but changing the address: "Send a new code"
 * asks again for the same address, and when the server says it is too soon (a rate limit) the
 * page says when a new code can be had and counts down to it; the link 'Resend code or change
 * email' goes back to step one with the address filled in. A visitor who is signed in already
 * sees who they are and a Logout button instead of the form. Once signed in, the page goes on
 * after 1.5 s: where the link that brought the visitor was going (the console, My place, a page of
 * the site), else to My place (returnPathOfHash).
 *
 * This component holds the state and the requests; each step is a component of ./login, the
 * words for each failure come from ./login/failure.ts and the wait from ./login/use-code-cooldown.ts.
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
  const [message, setMessage] = useState<Message | null>(null);
  const [signedIn, setSignedIn] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);
  const cooldown = useCodeCooldown();

  const emailInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const pendingFocus = useRef<FocusTarget | null>(null);
  const isMounted = useMounted();
  const ids = loginIds(useId());
  const redirectSoon = useRedirectAfterSignIn(navigate);

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

  function show(next: Message | null, focus: FocusTarget | null = null) {
    pendingFocus.current = focus;
    setMessage(next);
  }

  /** Sends a code to `address`; on success (or a code already sent) step two shows. */
  async function sendCode(address: string) {
    setBusy("sending");
    setMessage(null);
    try {
      const client = await getAuthClient();
      const { error } = await client.signInWithOtp({ email: address });
      if (!isMounted()) return;
      if (error) {
        codeNotSentTo(address, error);
        return;
      }
      cooldown.endFor(address);
      // A new code replaces the previous one: what was typed of that one no longer counts.
      openCodeStep(address, true);
      show({ kind: "success", text: login.messages.codeSent }, "code");
    } catch (error) {
      if (isMounted()) codeNotSentTo(address, error);
    } finally {
      if (isMounted()) setBusy(null);
    }
  }

  function openCodeStep(address: string, newCode: boolean) {
    if (newCode || step === "email" || sentTo !== address) setCode("");
    setEmail(address);
    setSentTo(address);
    setStep("code");
  }

  function codeNotSentTo(address: string, error: unknown) {
    const outcome = codeNotSent(describeFailure(error));
    if (outcome.cooldown) cooldown.start(outcome.cooldown.seconds, outcome.cooldown.forAddress ? address : null);
    // Decided before step two opens: "step" is the step the request was made from.
    const focus = outcome.focus === "step" ? (step === "code" ? "code" : "email") : outcome.focus;
    if (outcome.toCodeStep) openCodeStep(address, false);
    show(outcome.message, focus);
  }

  function requestCode(typed: string) {
    if (busy !== null || cooldown.blocks(null)) return;
    setEmail(typed);
    const input = validate(loginEmailSchema, { email: typed });
    if (!input.ok) {
      show({ kind: "error", text: input.fieldErrors.email ?? login.messages.emailInvalid }, "email");
      return;
    }
    void sendCode(input.value.email);
  }

  function sendNewCode() {
    if (busy !== null || cooldown.blocks(sentTo)) return;
    void sendCode(sentTo);
  }

  async function verifyCode() {
    if (busy !== null) return;
    if (code === "") {
      show({ kind: "error", text: login.messages.codeRequired }, "code");
      return;
    }
    if (code.length < CODE_LENGTH) {
      show({ kind: "error", text: login.messages.codeIncomplete }, "code");
      return;
    }
    setBusy("verifying");
    setMessage(null);
    try {
      const client = await getAuthClient();
      const { error } = await client.verifyOtp({ email: sentTo, token: code, type: "email" });
      if (!isMounted()) return;
      if (error) {
        show({ kind: "error", text: codeNotVerifiedText(describeFailure(error)) }, "code");
        return;
      }
      setSignedIn(true);
      show({ kind: "success", text: login.messages.signedIn });
      redirectSoon();
    } catch (error) {
      if (isMounted()) show({ kind: "error", text: codeNotVerifiedText(describeFailure(error)) }, "code");
    } finally {
      if (isMounted()) setBusy(null);
    }
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
      if (!isMounted()) return;
      // The visitor came to sign in: the form, empty, to sign in with another address.
      setStep("email");
      setEmail("");
      setCode("");
      show({ kind: "success", text: login.messages.loggedOut }, "email");
    } catch (error) {
      console.error("Logout failed.", error);
      if (isMounted()) show({ kind: "error", text: login.messages.logoutFailed });
    } finally {
      if (isMounted()) setLoggingOut(false);
    }
  }

  const errorText = message?.kind === "error" ? message.text : "";
  const statusText = message && message.kind !== "error" ? message.text : "";
  const waitFor = (address: string | null) => (cooldown.blocks(address) ? cooldown.secondsLeft : null);
  // This page's own sign-in also makes the visitor signed in: its success message stays until
  // the redirect. Anyone else signed in (a stored session, another tab) sees who they are.
  const showSignedIn = signedInEmail !== null && busy === null && !signedIn;

  return (
    <section className="login" aria-labelledby={ids.heading}>
      <div className="card">
        {showSignedIn ? (
          <SignedInView headingId={ids.heading} email={signedInEmail} loggingOut={loggingOut} onLogout={logout} />
        ) : step === "email" ? (
          <EmailStep
            ids={ids}
            inputRef={emailInput}
            defaultEmail={email}
            busy={busy}
            // Once signed in, the form has done its job: nothing more to submit while the redirect waits.
            locked={busy !== null || signedIn}
            error={errorText}
            waitSeconds={waitFor(null)}
            onRequestCode={requestCode}
          />
        ) : (
          <CodeStep
            ids={ids}
            inputRef={codeInput}
            sentTo={sentTo}
            code={code}
            onCodeChange={setCode}
            busy={busy}
            signedIn={signedIn}
            error={errorText}
            waitSeconds={waitFor(sentTo)}
            onVerify={verifyCode}
            onSendNewCode={sendNewCode}
            onBack={backToEmailStep}
          />
        )}

        {/* The regions stay in the page so assistive technology announces text put into them:
            the status here, the error under the step's field (or here, for the signed-in view). */}
        <p className={`message message--${message?.kind === "info" ? "info" : "success"}`} role="status">
          {statusText}
        </p>
        {showSignedIn && <ErrorMessage id={ids.error} text={errorText} />}

        {/* data-go: the start script follows it when the button is pressed before the app runs. */}
        <button type="button" className="button button--link login__home" data-go="/" onClick={() => navigate("/")}>
          {login.backToHome}
        </button>
      </div>
    </section>
  );
}
