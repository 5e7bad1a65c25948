import { describe, expect, it } from "vitest";
import { readConfig } from "../../worker/platform/config/config";
import {
  CODE_COOLDOWN_SECONDS,
  CODE_LENGTH,
  codeWaitMessage,
  requestRateMessage,
  secondsFromWaitMessage,
} from "../../worker/shared/sign-in";

// The rules the worker and the login page share (worker/shared/sign-in.ts). The page reads the
// seconds of a wait back from the server's words, so the words and the parser are tested together.

describe("sign-in rules shared by the worker and the web app", () => {
  it("states waits in GoTrue's words, which @supabase/auth-js clients show", () => {
    expect(codeWaitMessage(42)).toBe("For security purposes, you can only request this after 42 seconds.");
    expect(requestRateMessage(7)).toBe("Request rate limit reached. Try again in 7 seconds.");
  });

  it("reads back the seconds every wait message states", () => {
    for (const seconds of [1, 45, 60, 2185, 86_400]) {
      expect(secondsFromWaitMessage(codeWaitMessage(seconds))).toBe(seconds);
      expect(secondsFromWaitMessage(requestRateMessage(seconds))).toBe(seconds);
    }
    expect(secondsFromWaitMessage("Request rate limit reached")).toBeNull();
  });

  it("gives the settings their defaults: a 6-digit code and a 60-second wait", () => {
    expect(CODE_LENGTH).toBe(6);
    expect(CODE_COOLDOWN_SECONDS).toBe(60);
    const { auth } = readConfig({} as Env);
    expect(auth.codeLength).toBe(CODE_LENGTH);
    expect(auth.codeCooldownSeconds).toBe(CODE_COOLDOWN_SECONDS);
  });
});
