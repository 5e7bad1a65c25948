import * as v from "valibot";
import { emailField, hasForbiddenCharacters } from "../../shared/text";
import { CODE_LENGTH } from "../../shared/sign-in";

/**
 * The request bodies of the sign-in routes, in GoTrue's words. Unknown keys are ignored, as
 * GoTrue does: @supabase/auth-js sends more than this service reads (e.g. gotrue_meta_security).
 */

/** Largest `data` (user metadata) a code request may carry, as JSON bytes. */
export const MAX_USER_METADATA_BYTES = 1024;

const email = emailField({ required: "An email address is required.", invalid: "Unable to validate email address: invalid format" });

/**
 * Whether a JSON value holds, anywhere (nested objects and arrays too, keys as well as values),
 * a string with a character no field may hold: controls, invisible characters such as the
 * bidirectional overrides that make "\u202egnp.exe" display as "exe.png", lone surrogates.
 * Values may hold line breaks and tabs (a multi-line note); keys may not.
 */
function holdsForbiddenText(value: unknown): boolean {
  if (typeof value === "string") return hasForbiddenCharacters(value, { lineBreaks: true });
  if (Array.isArray(value)) return value.some(holdsForbiddenText);
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).some(([key, item]) => hasForbiddenCharacters(key) || holdsForbiddenText(item));
  }
  return false;
}

const userMetadata = v.pipe(
  v.custom<Record<string, unknown>>(
    (value) => typeof value === "object" && value !== null && !Array.isArray(value),
    "data must be an object.",
  ),
  v.check(
    (value) => new TextEncoder().encode(JSON.stringify(value)).byteLength <= MAX_USER_METADATA_BYTES,
    `data must be at most ${MAX_USER_METADATA_BYTES} bytes of JSON.`,
  ),
  // After the size check, so the walk is over at most 1 KB of JSON.
  v.check((value) => !holdsForbiddenText(value), "data contains characters that are not allowed."),
);

/** POST /otp */
export const otpSchema = v.looseObject({
  email,
  create_user: v.optional(v.boolean("create_user must be true or false."), true),
  data: v.optional(v.nullable(userMetadata), null),
});

const CODE_REQUIRED = "A verification code (token) is required.";

/** POST /verify (type "email": the code of CODE_LENGTH digits sent by e-mail) */
export const verifySchema = v.looseObject({
  email,
  token: v.pipe(v.string(CODE_REQUIRED), v.trim(), v.nonEmpty(CODE_REQUIRED)),
  type: v.literal("email", `Only type "email" is supported: verify the ${CODE_LENGTH}-digit code sent by e-mail.`),
});

const REFRESH_TOKEN_REQUIRED = "A refresh_token is required.";

/** POST /token?grant_type=refresh_token */
export const refreshSchema = v.looseObject({
  refresh_token: v.pipe(v.string(REFRESH_TOKEN_REQUIRED), v.nonEmpty(REFRESH_TOKEN_REQUIRED)),
});
