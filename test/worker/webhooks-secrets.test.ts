import { compactDecrypt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import type { WebhooksConfig } from "../../worker/platform/config/webhooks";
import { newSigningSecret, openSecret, sealSecret } from "../../worker/features/webhooks/secrets";

const config = (secretsKey: string) => ({ secretsKey }) as WebhooksConfig;
const KEY = "test-webhook-secrets-key-0123456789abcdef";

describe("webhook secrets at rest", () => {
  it("makes signing secrets of whsec_ and the base64 of 32 random bytes, a new one each time", () => {
    const one = newSigningSecret();
    const two = newSigningSecret();
    expect(one).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(atob(one.slice("whsec_".length))).toHaveLength(32);
    expect(one).not.toBe(two);
  });

  it("seals as a compact JWE (dir, A256GCM) that does not contain the secret, and opens it again", async () => {
    const secret = newSigningSecret();
    const sealed = await sealSecret(config(KEY), secret);
    expect(sealed.split(".")).toHaveLength(5);
    expect(decodeProtectedHeader(sealed)).toEqual({ alg: "dir", enc: "A256GCM" });
    expect(sealed).not.toContain(secret.slice("whsec_".length, 20));
    expect(await openSecret(config(KEY), sealed)).toBe(secret);
  });

  it("seals the same secret differently each time (a fresh nonce)", async () => {
    const a = await sealSecret(config(KEY), "https://hooks.slack.com/services/T0/B0/abc");
    const b = await sealSecret(config(KEY), "https://hooks.slack.com/services/T0/B0/abc");
    expect(a).not.toBe(b);
  });

  it("uses a key derived from WEBHOOK_SECRETS_KEY with HKDF, not the setting's bytes themselves", async () => {
    const sealed = await sealSecret(config(KEY), "whsec_AAAA");
    const raw = new TextEncoder().encode(KEY).slice(0, 32);
    await expect(compactDecrypt(sealed, raw)).rejects.toThrow();
  });

  it("refuses to open under another key, or an altered value, without quoting the secret", async () => {
    const sealed = await sealSecret(config(KEY), "whsec_c2VjcmV0");
    const other = openSecret(config("another-webhook-secrets-key-0123456789"), sealed);
    await expect(other).rejects.toThrow(/cannot be opened/);
    const parts = sealed.split(".");
    parts[3] = `${parts[3]?.startsWith("A") ? "B" : "A"}${parts[3]?.slice(1)}`;
    const error = await openSecret(config(KEY), parts.join(".")).catch((e: Error) => e);
    expect(String(error)).toMatch(/cannot be opened/);
    expect(String(error)).not.toContain("c2VjcmV0");
  });

  it("refuses to seal or open without WEBHOOK_SECRETS_KEY, naming the setting", async () => {
    await expect(sealSecret(config(""), "whsec_AAAA")).rejects.toThrow(/WEBHOOK_SECRETS_KEY/);
    await expect(openSecret(config(""), "a.b.c.d.e")).rejects.toThrow(/WEBHOOK_SECRETS_KEY/);
  });
});
