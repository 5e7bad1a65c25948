import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type * as v from "valibot";
import { validate, type FieldErrors } from "../../shared/text";

/**
 * Request bodies: read once within a size limit, decoded as strict UTF-8, parsed once into an
 * object (a JSON object, or the fields of a browser's own form post), then validated once
 * against the route's valibot schema (the same schemas the web app checks with). Each part of
 * the API answers in its own error format, so the reader is given the errors to throw. The
 * public forms read through readSubmission (worker/platform/http/submission.ts); the sign-in
 * routes through jsonBody and validJson.
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
  /** 400: not UTF-8, not JSON, JSON that is not an object, or a form body that cannot be decoded. */
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

/** The format a body with this Content-Type is in, or null when it is in neither. */
export function bodyFormatOf(contentType: string | undefined): BodyFormat | null {
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === JSON_MEDIA_TYPE) return "json";
  if (mediaType === FORM_MEDIA_TYPE) return "form";
  return null;
}

export const UNSUPPORTED_MEDIA_TYPE: Record<"json" | "json_or_form", string> = {
  json: "Send the request body as JSON (Content-Type: application/json).",
  json_or_form: `Send the request body as JSON (Content-Type: ${JSON_MEDIA_TYPE}) or as a form (${FORM_MEDIA_TYPE}).`,
};

const MAX_BYTES: Record<BodyFormat, number> = { json: MAX_BODY_BYTES, form: MAX_FORM_BODY_BYTES };

/**
 * Reads the body, in `format` (the caller has checked the media type: nothing is read that would
 * be refused anyway), as an object: 413 past the format's size limit (Hono's bodyLimit, which
 * counts the bytes as they arrive, whatever Content-Length says); 400 unless it is UTF-8 and
 * parses to an object.
 */
export async function readBodyObject(
  c: Context,
  format: BodyFormat,
  errors: BodyErrors,
  maxSize = MAX_BYTES[format],
): Promise<Record<string, unknown>> {
  let bytes: ArrayBuffer | undefined;
  const limit = bodyLimit({
    maxSize,
    onError: () => {
      throw errors.tooLarge(`The request body is larger than ${Math.round(maxSize / 1024)} KB.`);
    },
  });
  await limit(c, async () => {
    bytes = await c.req.arrayBuffer();
  });
  const text = utf8(bytes!, format, errors);
  return format === "form" ? formFields(text, errors) : jsonObject(text, errors);
}

/**
 * The body's text. Bytes that are not UTF-8 are refused, never turned into U+FFFD: a replaced
 * character would be stored, shown and mailed as if the sender had written it. Decoded here
 * rather than by .text() or .json(), which replace them (and workerd warns on .text() of a body
 * it does not take for text).
 */
function utf8(bytes: ArrayBuffer, format: BodyFormat, errors: BodyErrors): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw errors.malformed("The request body is not valid UTF-8.", format);
  }
}

function jsonObject(text: string, errors: BodyErrors): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw errors.malformed("The request body is not valid JSON.", "json");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw errors.malformed("The request body must be a JSON object.", "not_object");
  }
  return value as Record<string, unknown>;
}

/** Checks a body object against `schema`: the cleaned value, or the schema's 400. */
export function validBody<T extends v.GenericSchema>(schema: T, body: Record<string, unknown>, errors: BodyErrors): v.InferOutput<T> {
  const result = validate(schema, body);
  if (!result.ok) throw errors.invalid(result.fieldErrors);
  return result.value;
}

/** The body object jsonBody read, kept for validJson (optional, so a route's handlers keep their plain context type). */
type ReadBodyEnv = { Variables: { requestBody?: Record<string, unknown> } };

/**
 * Middleware: a JSON object only (415 for anything else), read once; what the sign-in routes
 * take. `maxBytes` for a route whose fields are longer than a form's (a campaign's body).
 */
export function jsonBody(errors: BodyErrors, maxBytes = MAX_BODY_BYTES): MiddlewareHandler<ReadBodyEnv> {
  return async (c, next) => {
    if (bodyFormatOf(c.req.header("content-type")) !== "json") throw errors.unsupportedMediaType(UNSUPPORTED_MEDIA_TYPE.json);
    c.set("requestBody", await readBodyObject(c, "json", errors, maxBytes));
    await next();
  };
}

/**
 * Middleware after jsonBody: validates the object it read against `schema`, once; the handler
 * reads the cleaned value with `c.req.valid("json")`.
 */
export function validJson<T extends v.GenericSchema>(
  schema: T,
  errors: BodyErrors,
): MiddlewareHandler<ReadBodyEnv, string, { in: { json: v.InferInput<T> }; out: { json: v.InferOutput<T> } }> {
  return async (c, next) => {
    const body = c.get("requestBody");
    if (!body) throw new Error("validJson reads what jsonBody read: put jsonBody before it");
    c.req.addValidatedData("json", validBody(schema, body, errors) as object);
    await next();
  };
}

/**
 * The string fields of a form body (URL-encoded or multipart, as its Content-Type says) of at
 * most `maxSize` bytes (Hono's bodyLimit, as readBodyObject); none when it is longer or is no
 * form: for a route that only looks for fields of its own, such a body simply has none.
 */
export async function formFieldsUpTo(c: Context, maxSize: number): Promise<URLSearchParams> {
  const fields = new URLSearchParams();
  let bytes: ArrayBuffer | undefined;
  try {
    await bodyLimit({ maxSize, onError: () => new Response(null, { status: 413 }) })(c, async () => {
      bytes = await c.req.arrayBuffer();
    });
    if (!bytes || bytes.byteLength === 0) return fields;
    const form = await new Response(bytes, { headers: { "Content-Type": c.req.header("content-type") ?? "" } }).formData();
    for (const [name, value] of form) if (typeof value === "string") fields.append(name, value);
  } catch {
    // Not a form this server can read: no fields.
  }
  return fields;
}

/**
 * A form-encoded body as an object of strings (a field left empty is "", a field not sent is
 * absent), decoded as URLSearchParams would, but strictly:
 * - a malformed escape (%zz, or escaped bytes that are not UTF-8) is refused, not turned into U+FFFD;
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
