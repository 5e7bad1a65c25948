/**
 * SHA-256 digests, from the Web Crypto API so the one helper runs wherever the project does:
 * workerd (the worker), Node 22 (the build, the tests) and the browser. The text is hashed as
 * its UTF-8 bytes.
 */

const encoder = new TextEncoder();

/** The SHA-256 of the text's UTF-8 bytes. */
export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** Bytes as lower-case hex, two digits each. */
export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return [...view].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The SHA-256 of the text as 64 lower-case hex digits. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(await sha256(text));
}

/** The CSP source that allows exactly this inline text: "sha256-<base64 of its SHA-256>". */
export async function cspHash(text: string): Promise<string> {
  let binary = "";
  for (const byte of await sha256(text)) binary += String.fromCharCode(byte);
  return `sha256-${btoa(binary)}`;
}
