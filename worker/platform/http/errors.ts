import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { BodyErrors } from "./body";

/**
 * An error with the answer the client should get: {"error":{"code","message",...details}}.
 * Thrown from routes and middleware (it is Hono's HTTPException, so anything that knows that
 * knows this); the API's error handler turns it into the response (errorResponse in answer.ts).
 * `headers` go on the answer (e.g. Retry-After); `cause` is logged, never sent.
 */
export class ApiError extends HTTPException {
  override name = "ApiError";
  constructor(
    status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    options?: { cause?: unknown },
  ) {
    super(status, { message, cause: options?.cause });
  }
}

export function errorBody(code: string, message: string, details: Record<string, unknown> = {}) {
  return { error: { code, message, ...details } };
}

/**
 * The API's one 429 (public forms, My place and the operator routes): `rate_limited`, saying when to come
 * back both in the body (`retry_after`, seconds) and in the Retry-After header.
 */
export function tooManyRequests(retryAfterSeconds: number, message: string): ApiError {
  return new ApiError(429, "rate_limited", message, { retry_after: retryAfterSeconds }, { "Retry-After": String(retryAfterSeconds) });
}

/** Request bodies that cannot be read, in the API's codes. */
export const API_BODY_ERRORS: BodyErrors = {
  unsupportedMediaType: (message) => new ApiError(415, "unsupported_media_type", message),
  malformed: (message, kind) => new ApiError(400, kind === "json" ? "invalid_json" : "invalid_body", message),
  tooLarge: (message) => new ApiError(413, "payload_too_large", message),
  invalid: (fieldErrors) => {
    const [field, message] = Object.entries(fieldErrors)[0] ?? ["body", "The request is not valid."];
    return new ApiError(400, "validation_failed", message, { field, fields: fieldErrors });
  },
};

/** The same error answered with `headers` too (a cookie that goes with whatever the answer). */
export function withHeaders(error: ApiError, headers: Record<string, string>): ApiError {
  if (Object.keys(headers).length === 0) return error;
  const status = error.status as ContentfulStatusCode;
  return new ApiError(status, error.code, error.message, error.details, { ...error.headers, ...headers }, { cause: error.cause });
}
