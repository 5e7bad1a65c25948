import type { FormEvent, Ref } from "react";
import { fieldText } from "../../components/form-data";
import { login } from "./content";
import { type Busy, Countdown, type LoginIds, StepField } from "./fields";

type Props = {
  ids: LoginIds;
  inputRef: Ref<HTMLInputElement>;
  /** What the field starts with: the address of step two when the visitor comes back from it. */
  defaultEmail: string;
  busy: Busy;
  /** No input while a request runs or once signed in. */
  locked: boolean;
  /** The step's error, shown under its field, if any. */
  error?: string;
  /** Seconds until any address may ask for a code (the per-client limit), or null. */
  waitSeconds: number | null;
  /** The address as typed, for the page to check and send. */
  onRequestCode: (typed: string) => void;
};

/** Step one: the address a code goes to. */
export function EmailStep({ ids, inputRef, defaultEmail, busy, locked, error, waitSeconds, onRequestCode }: Props) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Read from the field itself (it is uncontrolled): the visitor may have typed before the app
    // started, into the prerendered page.
    onRequestCode(fieldText(new FormData(event.currentTarget), "email"));
  }

  const waiting = waitSeconds !== null;
  return (
    <form className="login__form" onSubmit={submit} noValidate aria-busy={busy !== null}>
      <h1 id={ids.heading}>{login.emailStep.title}</h1>
      <p id={ids.intro}>{login.emailStep.intro}</p>
      <StepField
        ids={ids}
        id={ids.email}
        label={login.emailLabel}
        inputRef={inputRef}
        error={error}
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        placeholder={login.emailPlaceholder}
        defaultValue={defaultEmail}
        disabled={locked}
      />
      <button
        type="submit"
        className="button button--primary"
        disabled={locked || waiting}
        aria-describedby={waiting ? ids.countdown : undefined}
      >
        {busy === "sending" ? login.sending : login.emailStep.submit}
      </button>
      {waiting && <Countdown id={ids.countdown} seconds={waitSeconds} />}
    </form>
  );
}
