import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * An error with the answer the client should get: {"error":{"code","message",...details}}.
 * Thrown from routes and helpers; the app's error handler turns it into the response.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function errorBody(code: string, message: string, details: Record<string, unknown> = {}) {
  return { error: { code, message, ...details } };
}

export function errorResponse(c: Context, error: ApiError): Response {
  return c.json(errorBody(error.code, error.message, error.details), error.status);
}
