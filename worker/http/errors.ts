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

/** For a route's other methods: 405 with the methods it does answer. */
export function methodNotAllowed(allowed: string[]) {
  return (c: Context) => {
    c.header("Allow", allowed.join(", "));
    return errorResponse(
      c,
      new ApiError(405, "method_not_allowed", `Use ${allowed.join(" or ")} for ${new URL(c.req.url).pathname}.`),
    );
  };
}
