import type { ClipboardEvent, FormEvent, Ref } from "react";
import { CODE_LENGTH } from "@shared/sign-in";
import { login } from "./content";
import { type Busy, Countdown, type LoginIds, StepField } from "./fields";

type Props = {
  ids: LoginIds;
  inputRef: Ref<HTMLInputElement>;
  /** The address the code went to, as the server reads it. */
  sentTo: string;
  code: string;
  onCodeChange: (code: string) => void;
  busy: Busy;
  /** Signed in with this code: the form has done its job while the redirect waits. */
  signedIn: boolean;
  /** The step's error, shown under its field, if any. */
  error?: string;
  /** Seconds until a new code to this address may be asked for, or null. */
  waitSeconds: number | null;
  onVerify: () => void;
  onSendNewCode: () => void;
  /** Back to step one, to change the address or ask again. */
  onBack: () => void;
};

/** Digits only, at most the code's length: letters do nothing, "123 456" becomes 123456. */
const codeDigits = (text: string) => text.replace(/\D/g, "").slice(0, CODE_LENGTH);

/** Step two: the code from the e-mail, a new code, or the way back to step one. */
export function CodeStep(props: Props) {
  const { ids, inputRef, sentTo, code, onCodeChange, busy, signedIn, error, waitSeconds } = props;
  const isBusy = busy !== null;
  const locked = isBusy || signedIn;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    props.onVerify();
  }

  // A paste is read before maxLength would cut "123 456" to "123 45": its digits go in instead.
  function paste(event: ClipboardEvent<HTMLInputElement>) {
    event.preventDefault();
    const field = event.currentTarget;
    const start = field.selectionStart ?? field.value.length;
    const end = field.selectionEnd ?? start;
    const pasted = event.clipboardData.getData("text");
    onCodeChange(codeDigits(field.value.slice(0, start) + pasted + field.value.slice(end)));
  }

  return (
    <form className="login__form" onSubmit={submit} noValidate aria-busy={isBusy}>
      <h1 id={ids.heading}>{login.codeStep.title}</h1>
      <p id={ids.intro}>{login.codeStep.intro(sentTo)}</p>
      <StepField
        ids={ids}
        id={ids.code}
        label={login.codeLabel}
        inputRef={inputRef}
        error={error}
        name="code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern={`[0-9]{${CODE_LENGTH}}`}
        maxLength={CODE_LENGTH}
        placeholder={login.codePlaceholder}
        value={code}
        onChange={(event) => onCodeChange(codeDigits(event.target.value))}
        onPaste={paste}
        disabled={locked}
      />
      <button type="submit" className="button button--primary" disabled={locked}>
        {busy === "verifying" ? login.verifying : login.codeStep.submit}
      </button>
      {!signedIn && (
        <div className="login__more">
          {waitSeconds !== null ? (
            <Countdown id={ids.countdown} seconds={waitSeconds} />
          ) : (
            <button type="button" className="button button--link" onClick={props.onSendNewCode} disabled={isBusy}>
              {busy === "sending" ? login.sending : login.sendNewCode}
            </button>
          )}
          {!isBusy && (
            <button type="button" className="button button--link" onClick={props.onBack}>
              {login.resend}
            </button>
          )}
        </div>
      )}
    </form>
  );
}
