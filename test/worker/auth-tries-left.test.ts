// The wrong-code answer of POST /auth/v1/verify says how many tries are left, and says it alike for every address that asked for a code.
import { describe, expect, it, vi } from "vitest";
import { triesLeftFromMessage, triesLeftSentence } from "../../worker/shared/sign-in";
import { type AuthErrorBody, authCall, codeRow, countAuthRows, latestCode, requestCode, signIn, verify } from "../support/auth";
import { uniqueEmail } from "../support/worker";

/** A code that is not `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

const plain = "Token has expired or is invalid";
const withTries = (tries: number) => `${plain}. ${triesLeftSentence(tries)}`;

/** The answer's status and GoTrue body, to compare answers whole. */
async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as AuthErrorBody };
}

describe("tries left after a wrong code", () => {
  it("the sentence and its parser agree, in the singular too", () => {
    expect(triesLeftSentence(3)).toBe("3 tries left.");
    expect(triesLeftSentence(1)).toBe("1 try left.");
    for (const tries of [1, 2, 4, 12]) expect(triesLeftFromMessage(withTries(tries))).toBe(tries);
    expect(triesLeftFromMessage(plain)).toBeNull();
    expect(triesLeftFromMessage("For security purposes, you can only request this after 42 seconds.")).toBeNull();
  });

  it("counts down 4, 3, 2, 1 in the message, then GoTrue's words alone; the right code still works on the last try", async () => {
    const email = uniqueEmail("tries");
    const code = await requestCode(email);
    const messages = [];
    for (let guess = 1; guess <= 4; guess += 1) {
      const { status, body } = await answer(await verify(email, wrong(code)));
      expect(status).toBe(403);
      expect(body).toMatchObject({ code: "otp_expired", error_code: "otp_expired" });
      expect(body.msg).toBe(body.message);
      messages.push(body.message);
    }
    expect(messages).toEqual([withTries(4), withTries(3), withTries(2), withTries(1)]);
    expect((await verify(email, code)).status).toBe(200);

    const other = uniqueEmail("tries-out");
    const otherCode = await requestCode(other);
    for (let guess = 1; guess <= 4; guess += 1) await verify(other, wrong(otherCode));
    expect((await answer(await verify(other, wrong(otherCode)))).body.message).toBe(plain);
    expect((await answer(await verify(other, otherCode))).body.message).toBe(plain);
    expect((await codeRow(other))!.attempts).toBe(5);
  });

  it("an address without an account that asked for a code answers exactly as one with an account and a live code, guess after guess", async () => {
    const known = uniqueEmail("tries-known");
    const unknown = uniqueEmail("tries-unknown");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    await signIn(known);
    vi.setSystemTime(start + 61_000);
    for (const email of [known, unknown]) {
      expect((await authCall("POST", "/otp", { email, create_user: false })).status).toBe(200);
    }
    const knownCode = await latestCode(known);
    const forKnown = [];
    const forUnknown = [];
    for (let guess = 1; guess <= 7; guess += 1) {
      forKnown.push(await answer(await verify(known, wrong(knownCode))));
      forUnknown.push(await answer(await verify(unknown, wrong(knownCode))));
    }
    expect(forUnknown).toEqual(forKnown);
    expect(forKnown.map((seen) => seen.body.message)).toEqual([
      withTries(4),
      withTries(3),
      withTries(2),
      withTries(1),
      plain,
      plain,
      plain,
    ]);
    expect(await codeRow(unknown)).toMatchObject({ code_hash: null, attempts: 5 });
    expect(await countAuthRows("hwh_auth_users", "email = ?", unknown)).toBe(0);
  });

  it("a used code answers as a row with nothing to guess (as an unknown address's): it does not tell that someone signed in", async () => {
    const used = uniqueEmail("tries-used");
    const code = await requestCode(used);
    expect((await verify(used, code)).status).toBe(200);
    // The right guess was the first: 4 tries were left on the row, and the next guess is counted.
    expect((await answer(await verify(used, code))).body.message).toBe(withTries(3));
    expect((await answer(await verify(used, wrong(code)))).body.message).toBe(withTries(2));
  });
});
