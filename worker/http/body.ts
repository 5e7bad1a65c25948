import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { validator } from "hono/validator";
import type * as v from "valibot";
import { validate, type FieldErrors } from "../shared/text";

/**
 * Request bodies: read within a size limit, parsed into an object (a JSON object, or the fields
 * of a browser's own form post), then validated against the route's schema (valibot, the same
 * schemas the web app checks with) through Hono's validator, so a handler reads typed, cleaned
 * data with `c.req.valid("json")` whichever way the body came. Each part of the API answers in
 * its own error format, so the middleware is given the errors to throw.
 */

/** Largest JSON request body accepted; the longest valid contact message fits well inside. */
export const MAX_BODY_BYTES = 16 * 1024;

/**
 * Largest form-encoded body accepted: percent-encoding writes each byte of non-ASCII text as
 * three characters (a Chinese character is 9), so the same fields may take up to three times
 * the bytes they take in JSON.
 */
export const MAX_FORM_BODY_BYTES = 3 * MAX_BODY_BYTES;

export const JSON_MEDIA_TYPE = "application/json";
/** What a browser sends for a <form method="post"> without JavaScript (HTML's default enctype). */
export const FORM_MEDIA_TYPE = "application/x-www-form-urlencoded";

/** How a body may come: JSON (the site's script, any API client) or a browser's form post. */
export type BodyFormat = "json" | "form";

export type BodyErrors = {
  /** 415: the body is in none of the route's formats. */
  unsupportedMediaType: (message: string) => Error;
  /** 400: not JSON, JSON that is not an object, or a form body that cannot be decoded. */
  malformed: (message: string, kind: "json" | "not_object" | "form") => Error;
  /** 413 */
  tooLarge: (message: string) => Error;
  /** 400: the object breaks the schema's rules; the first problem of each field. */
  invalid: (fieldErrors: FieldErrors) => Error;
};

/** The media type of a Content-Type header, without its parameters, lower-cased ("" if none). */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/** The format a request's body is in, or null when it is in neither. */
export function bodyFormatOf(c: Context): BodyFormat | null {
  const mediaType = mediaTypeOf(c.req.header("content-type"));
  if (mediaType === JSON_MEDIA_TYPE) return "json";
  if (mediaType === FORM_MEDIA_TYPE) return "form";
  return null;
}

const UNSUPPORTED: Record<"json" | "json_or_form", string> = {
  json: "Send the request body as JSON (Content-Type: application/json).",
  json_or_form: `Send the request body as JSON (Content-Type: ${JSON_MEDIA_TYPE}) or as a form (${FORM_MEDIA_TYPE}).`,
};

/**
 * Reads the body: 415 unless it is in one of `formats` (checked first: nothing is read that
 * would be refused anyway), 413 past the format's size limit (Hono's bodyLimit, which counts
 * the bytes as they arrive, whatever Content-Length says), 400 unless it parses to an object.
 * The body stays in Hono's body cache for the validator.
 */
function readBody(errors: BodyErrors, formats: readonly BodyFormat[]): MiddlewareHandler {
  const limitOf = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw errors.tooLarge(`The request body is larger than ${maxSize / 1024} KB.`);
      },
    });
  const limits: Record<BodyFormat, MiddlewareHandler> = { json: limitOf(MAX_BODY_BYTES), form: limitOf(MAX_FORM_BODY_BYTES) };
  const unsupported = formats.includes("form") ? UNSUPPORTED.json_or_form : UNSUPPORTED.json;
  return async (c, next) => {
    const format = bodyFormatOf(c);
    if (format === null || !formats.includes(format)) throw errors.unsupportedMediaType(unsupported);
    return limits[format](c, async () => {
      await bodyObject(c, format, errors);
      await next();
    });
  };
}

/** A JSON object only: what the sign-in routes take. */
export function jsonBody(errors: BodyErrors): MiddlewareHandler {
  return readBody(errors, ["json"]);
}

/** A JSON object, or a browser's form post: what the public forms take (they work without JavaScript). */
export function submissionBody(errors: BodyErrors): MiddlewareHandler {
  return readBody(errors, ["json", "form"]);
}

/**
 * Validates the (already read) body against `schema`; the cleaned value is `c.req.valid("json")`
 * for a form post too, so a handler has one way to read its input.
 */
export function validJson<T extends v.GenericSchema>(schema: T, errors: BodyErrors) {
  return validator("json", async (_json, c) => {
    const result = validate(schema, await bodyObject(c, bodyFormatOf(c) ?? "json", errors));
    if (!result.ok) throw errors.invalid(result.fieldErrors);
    return result.value as v.InferOutput<T>;
  });
}

/** The body as an object: the JSON object, or the form's fields. Reads from Hono's body cache. */
async function bodyObject(c: Context, format: BodyFormat, errors: BodyErrors): Promise<Record<string, unknown>> {
  // As bytes, decoded here: workerd warns on .text() of a body it does not take for text.
  if (format === "form") return formFields(new TextDecoder().decode(await c.req.arrayBuffer()), errors);
  let value: unknown;
  try {
    value = await c.req.json();
  } catch {
    throw errors.malformed("The request body is not valid JSON.", "json");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw errors.malformed("The request body must be a JSON object.", "not_object");
  }
  return value as Record<string, unknown>;
}

/**
 * A form-encoded body as an object of strings (a field left empty is "", a field not sent is
 * absent), decoded as URLSearchParams would, but strictly:
 * - a malformed escape (%zz, or bytes that are not UTF-8) is refused, not turned into U+FFFD;
 * - a field sent twice is refused: which value was meant cannot be known, and quietly taking
 *   one would be the same mistake as dropping an unknown JSON field (strictFields reports those);
 * - a line break arrives as CRLF (HTML's form submission writes every line break so) and is
 *   stored as LF, as the site's script sends it, so a message is stored the same either way.
 */
function formFields(body: string, errors: BodyErrors): Record<string, string> {
  const fields = new Map<string, string>();
  for (const pair of body.split("&")) {
    if (pair === "") continue;
    const separator = pair.indexOf("=");
    const [rawName, rawValue] = separator === -1 ? [pair, ""] : [pair.slice(0, separator), pair.slice(separator + 1)];
    const name = decodeFormComponent(rawName, errors);
    if (fields.has(name)) {
      const shown = name.slice(0, 40);
      throw errors.invalid({ [shown]: `The field "${shown}" was sent more than once.` });
    }
    fields.set(name, decodeFormComponent(rawValue, errors).replace(/\r\n/g, "\n"));
  }
  // As JSON.parse does: a field named "__proto__" becomes an own property, never the prototype.
  return Object.fromEntries(fields);
}

function decodeFormComponent(text: string, errors: BodyErrors): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    throw errors.malformed("The request body is not valid form data.", "form");
  }
}
