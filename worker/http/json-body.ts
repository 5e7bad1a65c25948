import { ApiError } from "./errors";

/** Largest request body the API accepts; the longest valid contact message fits well inside. */
export const MAX_JSON_BODY_BYTES = 16 * 1024;

/**
 * Reads a JSON object from a request, or throws the ApiError that says what is wrong with it:
 * 415 for another Content-Type, 413 past the size limit (checked while reading, so a missing
 * or false Content-Length does not matter), 400 for bad UTF-8, bad JSON or JSON that is not an
 * object.
 */
export async function readJsonObject(request: Request, limit = MAX_JSON_BODY_BYTES): Promise<Record<string, unknown>> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw new ApiError(415, "unsupported_media_type", "Send the request body as JSON (Content-Type: application/json).");
  }
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);

  const bytes = await readLimited(request, limit);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ApiError(400, "invalid_json", "The request body is not valid UTF-8 text.");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, "invalid_json", "The request body is not valid JSON.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ApiError(400, "invalid_body", "The request body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}

function tooLarge(limit: number) {
  return new ApiError(413, "payload_too_large", `The request body is larger than ${limit / 1024} KB.`);
}

async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Rejects any key of `body` that is not in `allowed`, so a mistyped field is not silently dropped. */
export function rejectUnknownKeys(body: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw new ApiError(400, "validation_failed", `Unexpected field "${unknown[0]!.slice(0, 40)}".`, {
      field: unknown[0]!.slice(0, 40),
    });
  }
}
