import * as v from "valibot";
import { emailField } from "../shared/text";

/**
 * The request bodies of the sign-in routes, in GoTrue's words. Unknown keys are ignored, as
 * GoTrue does: @supabase/auth-js sends more than this service reads (e.g. gotrue_meta_security).
 */

/** Largest `data` (user metadata) a code request may carry, as JSON bytes. */
export const MAX_USER_METADATA_BYTES = 1024;

const email = emailField({ required: "An email address is required.", invalid: "Unable to validate email address: invalid format" });

const userMetadata = v.pipe(
  v.custom<Record<string, unknown>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), "data must be an object."),
  v.check(
    (value) => new TextEncoder().encode(JSON.stringify(value)).byteLength <= MAX_USER_METADATA_BYTES,
    `data must be at most ${MAX_USER_METADATA_BYTES} bytes of JSON.`,
  ),
);

/** POST /otp */
export const otpSchema = v.looseObject({
  email,
  create_user: v.optional(v.boolean("create_user must be true or false."), true),
  data: v.optional(v.nullable(userMetadata), null),
});

const CODE_REQUIRED = "A verification code (token) is required.";

/** POST /verify (type "email": the 6-digit code sent by e-mail) */
export const verifySchema = v.looseObject({
  email,
  token: v.pipe(v.string(CODE_REQUIRED), v.trim(), v.nonEmpty(CODE_REQUIRED)),
  type: v.literal("email", 'Only type "email" is supported: verify the 6-digit code sent by e-mail.'),
});

const REFRESH_TOKEN_REQUIRED = "A refresh_token is required.";

/** POST /token?grant_type=refresh_token */
export const refreshSchema = v.looseObject({
  refresh_token: v.pipe(v.string(REFRESH_TOKEN_REQUIRED), v.nonEmpty(REFRESH_TOKEN_REQUIRED)),
});
