/**
 * The login page's words and waits for each failure (web/src/pages/login/failure.ts), as pure
 * functions: what the page shows for them is tested in login-page.test.tsx.
 */
import { AuthApiError, AuthRetryableFetchError } from "@supabase/auth-js";
import { describe, expect, it } from "vitest";
import { login } from "../../web/src/pages/login/content";
import { codeNotSent, codeNotVerifiedText, describeFailure } from "../../web/src/pages/login/failure";
import { CODE_COOLDOWN_SECONDS, codeWaitMessage, requestRateMessage } from "@shared/sign-in";

const api = (code: string, message: string) => describeFailure(new AuthApiError(message, 429, code));

describe("describeFailure", () => {
  it("reads the server's code, message and stated wait from an AuthApiError", () => {
    expect(api("over_request_rate_limit", requestRateMessage(42))).toEqual({
      kind: "api",
      code: "over_request_rate_limit",
      message: requestRateMessage(42),
      retryAfterSeconds: 42,
    });
    expect(api("otp_expired", "Token has expired or is invalid")).toMatchObject({ retryAfterSeconds: null });
  });

  it("takes anything else for a failure the visitor can only retry", () => {
    for (const error of [new AuthRetryableFetchError("Failed to fetch", 0), new TypeError("x"), "text", null, undefined]) {
      expect(describeFailure(error)).toEqual({ kind: "network" });
    }
  });
});

describe("codeNotSent", () => {
  it("sends the visitor to step two with the address's wait when a code went there a moment ago", () => {
    expect(codeNotSent(api("over_email_send_rate_limit", codeWaitMessage(42)))).toEqual({
      message: { kind: "info", text: login.messages.codeAlreadySent },
      focus: "code",
      cooldown: { seconds: 42, forAddress: true },
      toCodeStep: true,
    });
  });

  it("stops every address for the per-client limit, with the default wait when none is stated", () => {
    expect(codeNotSent(api("over_request_rate_limit", "Slow down."))).toEqual({
      message: { kind: "error", text: login.messages.tooManyCodeRequests },
      focus: "step",
      cooldown: { seconds: CODE_COOLDOWN_SECONDS, forAddress: false },
      toCodeStep: false,
    });
  });

  it("points at the address when the server refuses it, and otherwise says what the server said", () => {
    expect(codeNotSent(api("validation_failed", "Unable to validate email address"))).toMatchObject({
      message: { kind: "error", text: login.messages.emailInvalid },
      focus: "email",
    });
    expect(codeNotSent(api("unexpected_failure", "Something else"))).toMatchObject({ message: { text: "Something else" }, focus: "step" });
    expect(codeNotSent(api("unexpected_failure", ""))).toMatchObject({ message: { text: login.messages.codeRequestFailed } });
    expect(codeNotSent({ kind: "network" })).toMatchObject({ message: { text: login.messages.codeRequestFailed }, cooldown: null });
  });
});

describe("the per-client limits' words", () => {
  it("speak of the network a class shares, not of this device, and do not say the visitor asked", () => {
    const words = [login.messages.tooManyCodeRequests, login.messages.tooManyAttempts("2 minutes")];
    for (const text of words) {
      expect(text).toContain("this network");
      expect(text).not.toMatch(/device/i);
    }
    expect(login.messages.tooManyCodeRequests).not.toMatch(/you've asked/i);
  });
});

describe("codeNotVerifiedText", () => {
  it("has words for an expired code, too many tries (with the wait) and a network failure", () => {
    expect(codeNotVerifiedText(api("otp_expired", "Token has expired or is invalid"))).toBe(login.messages.codeRejected);
    expect(codeNotVerifiedText(api("over_request_rate_limit", requestRateMessage(120)))).toBe(login.messages.tooManyAttempts("2 minutes"));
    expect(codeNotVerifiedText({ kind: "network" })).toBe(login.messages.verificationFailed);
    expect(codeNotVerifiedText(api("unexpected_failure", "Said the server"))).toBe("Said the server");
  });
});
