import type { InputHTMLAttributes, Ref } from "react";
import { login } from "./content";

/** The request under way, if any. */
export type Busy = "sending" | "verifying" | null;

/** The ids the login page's elements refer to each other by (from one useId). */
export type LoginIds = { heading: string; intro: string; error: string; countdown: string; email: string; code: string };

export function loginIds(base: string): LoginIds {
  return {
    heading: `${base}-heading`,
    intro: `${base}-intro`,
    error: `${base}-error`,
    countdown: `${base}-countdown`,
    email: `${base}-email`,
    code: `${base}-code`,
  };
}

type StepFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id"> & {
  ids: LoginIds;
  id: string;
  label: string;
  inputRef: Ref<HTMLInputElement>;
  /** The step's error, if any ("" for none). */
  error?: string;
};

/**
 * A step's one field, its label and its error: focused when its step shows, described by the
 * step's intro and, while one shows, by the error. The error sits directly under the field, so
 * it is seen where the visitor is typing (on a phone, above the open keyboard, not below the
 * step's links); its region stays in the page while the step shows, so text put in it is
 * announced.
 */
export function StepField({ ids, id, label, inputRef, error = "", ...input }: StepFieldProps) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        ref={inputRef}
        id={id}
        className="input"
        aria-invalid={error !== "" || undefined}
        aria-describedby={error !== "" ? `${ids.intro} ${ids.error}` : ids.intro}
        // biome-ignore lint/a11y/noAutofocus: this field is the page's one task; focus goes to it when its step shows.
        autoFocus
        {...input}
      />
      <ErrorMessage id={ids.error} text={error} />
    </>
  );
}

/** The login page's alert region: under the step's field, or (signed in) under the card's text. */
export function ErrorMessage({ id, text }: { id: string; text: string }) {
  return (
    <p className="message message--error" role="alert" id={id}>
      {text}
    </p>
  );
}

/** The wait before a new code can be asked for. */
export function Countdown({ id, seconds }: { id: string; seconds: number }) {
  return (
    // A timer is not announced on every tick; the message above it says why there is a wait.
    <p className="login__countdown" role="timer" id={id}>
      {login.newCodeCountdown(login.waitFor(seconds))}
    </p>
  );
}
