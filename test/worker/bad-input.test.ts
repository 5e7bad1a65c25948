import { describe, expect, it } from "vitest";
import { call, countRows, postJson, uniqueEmail } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

/** Bad input gets a clear 4xx in the API's error shape, and nothing is stored. */
const ROUTES = ["/api/waitlist", "/api/forms/contact"] as const;

async function storedCounts() {
  return [await countRows("hwh_waitlist"), await countRows("hwh_form_submissions")];
}

function post(path: string, body: BodyInit, contentType: string | null = "application/json") {
  const headers: Record<string, string> = contentType ? { "Content-Type": contentType } : {};
  return call(path, { method: "POST", headers, body });
}

describe.each(ROUTES)("bad input to %s", (path) => {
  it.each([
    ["malformed JSON", '{"email": ', 400, "invalid_json"],
    ["a JSON array", '["a@b.co"]', 400, "invalid_body"],
    ["a JSON string", '"a@b.co"', 400, "invalid_body"],
    ["JSON null", "null", 400, "invalid_body"],
    ["an empty body", "", 400, "invalid_json"],
  ])("rejects %s", async (_name, body, status, code) => {
    const before = await storedCounts();
    const res = await post(path, body);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ error: { code, message: expect.any(String) } });
    expect(await storedCounts()).toEqual(before);
  });

  it("rejects invalid UTF-8", async () => {
    const res = await post(path, new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: "invalid_json" } });
  });

  // A browser's form post (application/x-www-form-urlencoded) is accepted on these routes, so
  // the forms work without JavaScript: see no-js-forms.test.ts.
  it.each([
    ["text/plain", "text/plain"],
    ["multipart form data", "multipart/form-data; boundary=x"],
    ["no Content-Type", null],
  ])("rejects %s with 415", async (_name, contentType) => {
    const before = await storedCounts();
    const res = await post(path, JSON.stringify({ email: uniqueEmail() }), contentType);
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: "unsupported_media_type" } });
    expect(await storedCounts()).toEqual(before);
  });

  it("accepts a charset parameter on the JSON Content-Type", async () => {
    const body =
      path === "/api/waitlist" ? { ...ADULT_ANSWER, email: uniqueEmail() } : { name: "Ada", email: uniqueEmail(), message: "Hello" };
    const res = await post(path, JSON.stringify(body), "application/json; charset=utf-8");
    expect(res.status).toBe(201);
  });

  it("rejects a body over 16 KB with 413", async () => {
    const before = await storedCounts();
    const res = await post(path, JSON.stringify({ email: uniqueEmail(), padding: "x".repeat(20_000) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: "payload_too_large" } });
    expect(await storedCounts()).toEqual(before);
  });

  it("rejects a field it does not know", async () => {
    const before = await storedCounts();
    const res = await postJson(path, { email: uniqueEmail(), name: "Ada", message: "Hi", admin: true, source: "hero" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: "validation_failed" } });
    expect(await storedCounts()).toEqual(before);
  });
});

describe("over-long and control-character fields", () => {
  it.each([
    ["an over-long e-mail", { email: `${"a".repeat(250)}@example.com` }],
    ["a NUL in the e-mail", { email: "nul\u0000@example.com" }],
    ["a DEL in the e-mail", { email: "del\u007f@example.com" }],
    ["an over-long source", { email: "ok@example.com", source: "s".repeat(41) }],
  ])("waitlist rejects %s", async (_name, body) => {
    const before = await storedCounts();
    const res = await postJson("/api/waitlist", body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: "validation_failed" } });
    expect(await storedCounts()).toEqual(before);
  });

  it.each([
    ["an over-long name", { name: "n".repeat(201), email: "a@b.co", message: "Hi" }, "name", "Name must be at most 200 characters."],
    [
      "an over-long message",
      { name: "Ada", email: "a@b.co", message: "m".repeat(5001) },
      "message",
      "Message must be at most 5000 characters.",
    ],
    [
      "a control character in the name",
      { name: "Ada\u001b[31m", email: "a@b.co", message: "Hi" },
      "name",
      "Name contains characters that are not allowed.",
    ],
    [
      "a NUL in the message",
      { name: "Ada", email: "a@b.co", message: "Hi\u0000" },
      "message",
      "Message contains characters that are not allowed.",
    ],
    ["a number as the name", { name: 7, email: "a@b.co", message: "Hi" }, "name", "Name must be text."],
  ])("contact form rejects %s", async (_name, body, field, message) => {
    const before = await storedCounts();
    const res = await postJson("/api/forms/contact", body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: "validation_failed", field, message } });
    expect(await storedCounts()).toEqual(before);
  });
});
