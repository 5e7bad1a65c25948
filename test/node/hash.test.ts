import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cspHash, sha256, sha256Hex, toHex } from "../../worker/shared/hash";

// Node's own implementation is the reference: the helper must agree with it byte for byte,
// including for text outside ASCII (hashed as UTF-8).
const texts = ["", "abc", "body{color:#111}", "é ü — 🐝\u0000end"];

describe("the SHA-256 helper", () => {
  it.each(texts)("hashes %j as its UTF-8 bytes", async (text) => {
    const reference = createHash("sha256").update(text, "utf8");
    expect(Buffer.from(await sha256(text))).toEqual(reference.copy().digest());
    expect(await sha256Hex(text)).toBe(reference.copy().digest("hex"));
    expect(await cspHash(text)).toBe(`sha256-${reference.copy().digest("base64")}`);
  });

  it("writes every byte as two lower-case hex digits", () => {
    expect(toHex(new Uint8Array([0, 9, 10, 255]))).toBe("00090aff");
    expect(toHex(new Uint8Array([0xab]).buffer)).toBe("ab");
  });
});
