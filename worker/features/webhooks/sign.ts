/**
 * Standard Webhooks signatures (standardwebhooks.com, spec v1): HMAC-SHA256 over
 * `{webhook-id}.{webhook-timestamp}.{body}` keyed with the secret's bytes (the base64 after
 * `whsec_`), sent as `v1,<base64>`; while a rotated secret still signs, one entry per secret,
 * space-separated, so a receiver holding either one verifies.
 */

const SECRET_PREFIX = "whsec_";

/** The key bytes of a `whsec_<base64>` secret; a secret of another shape is a clear error (never quoted: it is a secret). */
export function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error("A signing secret must start with whsec_.");
  let binary: string;
  try {
    binary = atob(secret.slice(SECRET_PREFIX.length));
  } catch {
    throw new Error("A signing secret must be whsec_ followed by base64.");
  }
  if (binary.length === 0) throw new Error("A signing secret must not be empty.");
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function base64(bytes: ArrayBuffer): string {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** One `v1,<base64>` signature of the message with one secret. */
async function signOne(secret: string, content: Uint8Array<ArrayBuffer>): Promise<string> {
  const key = await crypto.subtle.importKey("raw", secretBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return `v1,${base64(await crypto.subtle.sign("HMAC", key, content))}`;
}

/** The webhook-signature header: "v1,<base64>" per secret (the current first), space-separated. */
export async function signatureHeader(secrets: string[], id: string, timestampSeconds: number, body: string): Promise<string> {
  if (secrets.length === 0) throw new Error("A signed request needs at least one secret.");
  const content = new TextEncoder().encode(`${id}.${timestampSeconds}.${body}`) as Uint8Array<ArrayBuffer>;
  const signatures = await Promise.all(secrets.map((secret) => signOne(secret, content)));
  return signatures.join(" ");
}
