import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { every } from "hono/combine";
import { validator } from "hono/validator";
import type * as v from "valibot";
import { validate, type FieldErrors } from "../shared/text";

/**
 * Request bodies: read within a size limit, parsed as a JSON object, then validated against
 * the route's schema (valibot, the same schemas the web app checks with) through Hono's
 * validator, so a handler reads typed, cleaned data with `c.req.valid("json")`. Each part of the
 * API answers in its own error format, so the middleware is given the errors to throw.
 */

/** Largest request body accepted; the longest valid contact message fits well inside. */
export const MAX_BODY_BYTES = 16 * 1024;

export type BodyErrors = {
  /** 415: the body is not JSON. */
  unsupportedMediaType: (message: string) => Error;
  /** 400: not JSON, or JSON that is not an object. */
  malformed: (message: string, kind: "json" | "not_object") => Error;
  /** 413 */
  tooLarge: (message: string) => Error;
  /** 400: the object breaks the schema's rules; the first problem of each field. */
  invalid: (fieldErrors: FieldErrors) => Error;
};

/**
 * Reads the body: 413 past MAX_BODY_BYTES (Hono's bodyLimit, which counts the bytes as they
 * arrive, whatever Content-Length says), 415 unless it is JSON, 400 unless it parses to an
 * object. The parsed body stays in Hono's body cache for the validator.
 */
export function jsonBody(errors: BodyErrors): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw errors.tooLarge(`The request body is larger than ${MAX_BODY_BYTES / 1024} KB.`);
    },
  });
  const parse: MiddlewareHandler = async (c, next) => {
    const mediaType = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (mediaType !== "application/json") {
      throw errors.unsupportedMediaType("Send the request body as JSON (Content-Type: application/json).");
    }
    let value: unknown;
    try {
      value = await c.req.json();
    } catch {
      throw errors.malformed("The request body is not valid JSON.", "json");
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw errors.malformed("The request body must be a JSON object.", "not_object");
    }
    await next();
  };
  return every(limit, parse);
}

/** Validates the (already read) JSON body against `schema`; the cleaned value is `c.req.valid("json")`. */
export function validJson<T extends v.GenericSchema>(schema: T, errors: BodyErrors) {
  return validator("json", (value) => {
    const result = validate(schema, value);
    if (!result.ok) throw errors.invalid(result.fieldErrors);
    return result.value as v.InferOutput<T>;
  });
}
