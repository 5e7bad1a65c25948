// The attempt limit of a sign-in code: at most 5 guesses are ever compared, one after another or all at once.
import { describe, expect, it, vi } from "vitest";
import { codeRow, countAuthRows, expectAuthError, requestCode, verify, type Session } from "../support/auth";
import { uniqueEmail } from "../support/worker";

/** `count` different codes, none of them `code`. */
const wrongCodes = (code: string, count: number) =>
  Array.from({ length: count }, (_, index) => String((Number(code) + index + 1) % 1_000_000).padStart(6, "0"));

describe("guesses at a code", () => {
  it("20 concurrent wrong guesses and the right code sent right after never sign in; exactly 5 guesses are counted", async () => {
    for (let round = 1; round <= 5; round += 1) {
      const email = uniqueEmail(`swarm${round}`);
      const code = await requestCode(email);
      // Every request comes from an address of its own: the per-IP limit is not what stops them.
      const guesses = wrongCodes(code, 20).map((token) => verify(email, token));
      guesses.push(verify(email, code));
      const responses = await Promise.all(guesses);

      const statuses = responses.map((response) => response.status);
      expect(statuses, `round ${round}`).toEqual(Array.from({ length: 21 }, () => 403));
      for (const response of responses) await expectAuthError(response, 403, "otp_expired");
      expect((await codeRow(email))!.attempts, `round ${round}`).toBe(5);
      expect(await countAuthRows("hwh_auth_users", "email = ?", email)).toBe(0);
      // The code stays dead.
      await expectAuthError(await verify(email, code), 403, "otp_expired");
      expect((await codeRow(email))!.attempts).toBe(5);
    }
  });

  it("4 wrong guesses then the right code signs in", async () => {
    const email = uniqueEmail("four");
    const code = await requestCode(email);
    for (const token of wrongCodes(code, 4)) await expectAuthError(await verify(email, token), 403, "otp_expired");
    expect((await codeRow(email))!.attempts).toBe(4);
    const response = await verify(email, code);
    expect(response.status).toBe(200);
    expect(((await response.json()) as Session).user.email).toBe(email);
    // The right guess was counted too, and used the code.
    expect(await codeRow(email)).toMatchObject({ attempts: 5, code_hash: null });
  });

  it("5 wrong guesses then the right code fails; a new code starts over", async () => {
    const email = uniqueEmail("five");
    const code = await requestCode(email);
    for (const token of wrongCodes(code, 5)) await expectAuthError(await verify(email, token), 403, "otp_expired");
    await expectAuthError(await verify(email, code), 403, "otp_expired");
    expect((await codeRow(email))!.attempts).toBe(5);
    expect(await countAuthRows("hwh_auth_users", "email = ?", email)).toBe(0);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    const next = await requestCode(email);
    expect((await codeRow(email))!.attempts).toBe(0);
    for (const token of wrongCodes(next, 4)) await verify(email, token);
    expect((await verify(email, next)).status).toBe(200);
  });
});
