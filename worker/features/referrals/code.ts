import { REFERRAL_ALPHABET, REFERRAL_CODE_LENGTH } from "../../shared/waitlist";

/**
 * A code from crypto randomness, every character equally likely: a random byte at or above
 * 248 (the largest multiple of 31 under 256) is drawn again rather than folded in, which would
 * favour the first characters. Uniqueness is the database's unique index (callers retry).
 */
export function newReferralCode(): string {
  const limit = Math.floor(256 / REFERRAL_ALPHABET.length) * REFERRAL_ALPHABET.length;
  let code = "";
  const bytes = new Uint8Array(16);
  while (code.length < REFERRAL_CODE_LENGTH) {
    crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte < limit && code.length < REFERRAL_CODE_LENGTH) code += REFERRAL_ALPHABET[byte % REFERRAL_ALPHABET.length];
    }
  }
  return code;
}
