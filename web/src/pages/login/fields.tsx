import { login } from "../../content";

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

/** A step's field is described by the step's intro, and by the error while one shows. */
export function fieldDescription(ids: LoginIds, errorShown: boolean): string {
  return errorShown ? `${ids.intro} ${ids.error}` : ids.intro;
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
