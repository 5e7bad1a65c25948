import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { BodyErrors } from "../../platform/http/body";
import { AGE_MESSAGES } from "../../shared/age";

/** The GoTrue API version whose error format we speak (error code in `code`). */
export const API_VERSION = "2024-01-01";
export const API_VERSION_HEADER = "X-Supabase-Api-Version";

/**
 * An error of the auth service, answered in GoTrue's shape. `code` is one of GoTrue's error
 * codes, which @supabase/auth-js reads to build its error classes (e.g. session_not_found
 * becomes AuthSessionMissingError, and the client then drops the session).
 */
export class AuthError extends HTTPException {
  override name = "AuthError";
  constructor(
    status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    options?: { cause?: unknown },
  ) {
    super(status, { message, cause: options?.cause });
  }
}

/**
 * {code, error_code, msg, message}: the current format (string `code`, which auth-js reads when
 * the answer carries the API version header) and the legacy fields older clients read.
 */
export function authErrorBody(error: AuthError) {
  return { code: error.code, error_code: error.code, msg: error.message, message: error.message };
}

export function authErrorResponse(c: Context, error: AuthError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json(authErrorBody(error), error.status as ContentfulStatusCode);
}

// The errors used in more than one place, with GoTrue's wording where clients may match on it.

/** A code not accepted, for whatever reason and whatever the address: GoTrue's words alone. */
export const invalidCode = () => new AuthError(403, "otp_expired", "Token has expired or is invalid");

export const noAuthorization = () => new AuthError(401, "no_authorization", "This endpoint requires a Bearer token");

export const badJwt = (reason: string) => new AuthError(403, "bad_jwt", `invalid JWT: unable to parse or verify signature, ${reason}`);

export const sessionNotFound = () => new AuthError(403, "session_not_found", "Session from session_id claim in JWT does not exist");

/** 403 where a token names a user that is gone (GoTrue's /user), 404 on the admin routes. */
export const userNotFound = (status: 403 | 404) => new AuthError(status, "user_not_found", "User not found");

/**
 * The device's age answer (the `hwh_age` cookie) says a parent or guardian decides: no code is
 * sent or checked, nothing stored (issue 23). The login page shows the message at the field.
 */
export const PARENT_NEEDED_CODE = "parent_needed";
export const parentNeededToSignIn = () => new AuthError(403, PARENT_NEEDED_CODE, AGE_MESSAGES.parentNeeded);

export const validationFailed = (message: string) => new AuthError(400, "validation_failed", message);

/** The server's fault, in GoTrue's words for it; `cause` is logged, never sent. */
export const unexpectedFailure = (cause?: unknown) =>
  new AuthError(500, "unexpected_failure", "Something went wrong. Please try again.", {}, { cause });

/** Request bodies that cannot be read, in GoTrue's codes. */
export const AUTH_BODY_ERRORS: BodyErrors = {
  unsupportedMediaType: (message) => new AuthError(415, "validation_failed", message),
  malformed: (message) => new AuthError(400, "bad_json", message),
  tooLarge: (message) => new AuthError(413, "request_too_large", message),
  invalid: (fieldErrors) => validationFailed(Object.values(fieldErrors)[0] ?? "The request is not valid."),
};
