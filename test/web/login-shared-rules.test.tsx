/**
 * The login page takes the code's length, the default wait and the wording of the server's wait
 * from worker/shared/sign-in.ts, the module the worker writes them with: with other values there
 * (as if the rules changed), the page follows instead of keeping a copy of its own.
 */
import { render, screen } from "@testing-library/react";
import { AuthApiError } from "@supabase/auth-js";
import { describe, expect, it, vi } from "vitest";
import { login } from "../../web/src/pages/login/content";
import { CodeStep } from "../../web/src/pages/login/CodeStep";
import { codeNotSent, describeFailure } from "../../web/src/pages/login/failure";
import { loginIds } from "../../web/src/pages/login/fields";
import { codeWaitMessage } from "@shared/sign-in";

vi.mock("@shared/sign-in", () => ({
  CODE_LENGTH: 8,
  CODE_COOLDOWN_SECONDS: 90,
  codeWaitMessage: (seconds: number) => `Hold on: ${seconds} s to go.`,
  requestRateMessage: (seconds: number) => `Slow down: ${seconds} s to go.`,
  secondsFromWaitMessage: (message: string) => {
    const seconds = /(\d+) s to go/.exec(message)?.[1];
    return seconds === undefined ? null : Number(seconds);
  },
}));

describe("the login page with other sign-in rules", () => {
  it("reads the wait from the server's message in its current words", () => {
    const failure = describeFailure(new AuthApiError(codeWaitMessage(42), 429, "over_email_send_rate_limit"));
    expect(failure).toMatchObject({ retryAfterSeconds: 42 });
    expect(codeNotSent(failure).cooldown).toEqual({ seconds: 42, forAddress: true });
  });

  it("waits the shared default when the server states no wait", () => {
    const failure = describeFailure(new AuthApiError("Too soon.", 429, "over_email_send_rate_limit"));
    expect(codeNotSent(failure).cooldown).toEqual({ seconds: 90, forAddress: true });
  });

  it("asks for a code of the shared length", () => {
    render(
      <CodeStep
        ids={loginIds("t")}
        inputRef={null}
        sentTo="ada@example.com"
        code=""
        onCodeChange={() => {}}
        busy={null}
        signedIn={false}
        error=""
        waitSeconds={null}
        onVerify={() => {}}
        onSendNewCode={() => {}}
        onBack={() => {}}
      />,
    );
    const field = screen.getByLabelText(login.codeLabel) as HTMLInputElement;
    expect(field.maxLength).toBe(8);
    expect(field.pattern).toBe("[0-9]{8}");
    expect(screen.getByText("A 8-digit code was sent to ada@example.com.")).not.toBeNull();
    expect(login.messages.codeIncomplete).toBe("Please enter all 8 digits of the code.");
  });
});
