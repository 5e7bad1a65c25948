/**
 * Referral codes: 8 characters from 31 that cannot be mistaken for one another when read off a
 * phone or typed from a poster (no 0/O, 1/I/L). 31^8 is about 8.5 x 10^11 codes.
 */
export const REFERRAL_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const REFERRAL_CODE_LENGTH = 8;

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
