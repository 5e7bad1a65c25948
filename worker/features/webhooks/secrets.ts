import { CompactEncrypt, compactDecrypt } from "jose";
import type { WebhooksConfig } from "../../platform/config/webhooks";

/**
 * The endpoints' secrets at rest (issue 25 §3): a Standard endpoint's `whsec_…` signing secret and
 * a Slack endpoint's whole URL (its token is the secret) are stored as compact JWE (alg "dir",
 * enc "A256GCM") under a 256-bit key derived with HKDF-SHA-256 from WEBHOOK_SECRETS_KEY, so the
 * database alone reveals none of them. Nothing here logs, and no error quotes a secret.
 */

/** What the derived key is for: another purpose derived from the same setting gets another key. */
const KEY_PURPOSE = "homework-helper/webhooks/endpoint-secrets/v1";
const KEY_SALT = "homework-helper webhooks";

const encoder = new TextEncoder();
const keys = new Map<string, Promise<Uint8Array>>();

async function derive(secretsKey: string): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(secretsKey), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode(KEY_SALT), info: encoder.encode(KEY_PURPOSE) },
    material,
    256,
  );
  return new Uint8Array(bits);
}

/** The 256-bit key of WEBHOOK_SECRETS_KEY (derived once per isolate and setting). */
function keyOf(config: WebhooksConfig): Promise<Uint8Array> {
  if (!config.secretsKey) throw new Error("WEBHOOK_SECRETS_KEY is not set: the endpoints' secrets cannot be sealed or opened.");
  let key = keys.get(config.secretsKey);
  if (!key) {
    key = derive(config.secretsKey);
    keys.set(config.secretsKey, key);
  }
  return key;
}

/** Encrypts a secret for the database (a compact JWE; a new random nonce each time). */
export async function sealSecret(config: WebhooksConfig, plain: string): Promise<string> {
  const key = await keyOf(config);
  return new CompactEncrypt(encoder.encode(plain)).setProtectedHeader({ alg: "dir", enc: "A256GCM" }).encrypt(key);
}

/** Decrypts a sealed secret; a value sealed under another key, or altered, is an error that quotes nothing. */
export async function openSecret(config: WebhooksConfig, sealed: string): Promise<string> {
  const key = await keyOf(config);
  try {
    const { plaintext } = await compactDecrypt(sealed, key, { keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: ["A256GCM"] });
    return new TextDecoder().decode(plaintext);
  } catch {
    throw new Error("A stored webhook secret cannot be opened (altered, or sealed under another WEBHOOK_SECRETS_KEY).");
  }
}

/** A new Standard Webhooks signing secret: "whsec_" and the base64 of 32 random bytes. */
export function newSigningSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `whsec_${btoa(binary)}`;
}
