import { CODE_COOLDOWN_SECONDS, secondsFromWaitMessage } from "@shared/sign-in";
import { login } from "./content";

/** A message in the page's status region ("success", "info") or its alert region ("error"). */
export type Message = { kind: "success" | "info" | "error"; text: string };

/** The field that takes focus: the e-mail (step one) or the code (step two). */
export type FocusTarget = "email" | "code";

/** What a failed auth-js call tells the page. */
export type Failure = { kind: "network" } | { kind: "api"; code: string | undefined; message: string; retryAfterSeconds: number | null };

/**
 * Reads an auth-js error without importing auth-js (it is a lazily loaded chunk): an
 * AuthApiError is the server's answer, with GoTrue's code and message; anything else (an
 * AuthRetryableFetchError for a network failure or a 5xx, a thrown TypeError, a chunk that did
 * not load) is a failure the visitor can only retry.
 */
export function describeFailure(error: unknown): Failure {
  if (typeof error !== "object" || error === null) return { kind: "network" };
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  if (name !== "AuthApiError") return { kind: "network" };
  const text = typeof message === "string" ? message : "";
  return {
    kind: "api",
    code: typeof code === "string" ? code : undefined,
    message: text,
    // GoTrue states the wait in its message, in the words of worker/shared/sign-in.ts; auth-js
    // does not pass the Retry-After header on.
    retryAfterSeconds: secondsFromWaitMessage(text),
  };
}

/** The sign-in service's code while the device's age answer says a parent or guardian decides (POST /otp, /verify). */
const PARENT_NEEDED = "parent_needed";

/** What the page says and does when a code was not sent. */
export type CodeNotSent = {
  message: Message;
  /** Where focus goes: a field, or ("step") the field of the step the visitor is on. */
  focus: FocusTarget | "step";
  /** A wait before the next code: for the address asked for, or (per-client limit) for any. */
  cooldown: { seconds: number; forAddress: boolean } | null;
  /** A code sent to this address a moment ago still works: step two opens, where it is entered. */
  toCodeStep: boolean;
};

/** The page's answer to a code request that failed. */
export function codeNotSent(failure: Failure): CodeNotSent {
  const error = (text: string, focus: CodeNotSent["focus"] = "step", cooldown: CodeNotSent["cooldown"] = null): CodeNotSent => ({
    message: { kind: "error", text },
    focus,
    cooldown,
    toCodeStep: false,
  });
  if (failure.kind === "network") return error(login.messages.codeRequestFailed);
  // With no wait stated, the per-address wait of the service's default configuration.
  const seconds = failure.retryAfterSeconds ?? CODE_COOLDOWN_SECONDS;
  switch (failure.code) {
    case "over_email_send_rate_limit":
      // Step two says when a new code can be had; it is not a failure (the code sent still works).
      return {
        message: { kind: "info", text: login.messages.codeAlreadySent },
        focus: "code",
        cooldown: { seconds, forAddress: true },
        toCodeStep: true,
      };
    case "over_request_rate_limit":
      return error(login.messages.tooManyCodeRequests, "step", { seconds, forAddress: false });
    case "validation_failed":
      return error(login.messages.emailInvalid, "email");
    // This device answered the age question below the consent age (issue 23): no code is sent. The
    // server's words are AGE_MESSAGES.parentNeeded; the sign-in chunk does not import the age module
    // (shared with the home page's script, it would make the bundler split the framework off).
    case PARENT_NEEDED:
      return error(failure.message || login.messages.codeRequestFailed, "email");
    default:
      return error(failure.message || login.messages.codeRequestFailed);
  }
}

/** The words shown when a code was not accepted. */
export function codeNotVerifiedText(failure: Failure): string {
  if (failure.kind === "network") return login.messages.verificationFailed;
  // The server says no more than that (never how many tries are left: that would tell an observer
  // someone had just asked for a code at the address).
  if (failure.code === "otp_expired") return login.messages.codeRejected;
  if (failure.code === PARENT_NEEDED) return failure.message || login.messages.verificationFailed;
  if (failure.code === "over_request_rate_limit") {
    return login.messages.tooManyAttempts(login.waitFor(failure.retryAfterSeconds ?? CODE_COOLDOWN_SECONDS));
  }
  return failure.message || login.messages.verificationFailed;
}
