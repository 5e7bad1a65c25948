import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FORM_MEDIA_TYPE } from "../../worker/platform/http/body";
import { codeMailCount, codeRow, expectAuthError, uniqueIp } from "../support/auth";
import { call, countRows, testRepository } from "../support/worker";

/**
 * Issue 14 §1: a body that is not UTF-8 is a 400 on every route that reads one, JSON or form.
 * Decoded leniently, `bad\xff\xfe\xc3@example.com` became `bad\ufffd\ufffd\ufffd@example.com`,
 * which was stored and mailed as if the sender had typed it.
 */

const repo = testRepository();
const utf8 = new TextEncoder();

/** A body of text parts and raw bytes (numbers), in order. */
function bytes(...parts: (string | number[])[]): Uint8Array {
  const chunks = parts.map((part) => (typeof part === "string" ? utf8.encode(part) : new Uint8Array(part)));
  const body = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

/** The bytes the issue names: not UTF-8 (0xFF and 0xFE never are; 0xC3 starts a pair that does not follow). */
const NOT_UTF8 = [0xff, 0xfe, 0xc3];
/** What a lenient decoder makes of them. */
const REPLACED = "\ufffd\ufffd\ufffd";

let tags = 0;
/** A text of its own per call, so a test finds only its own rows and e-mails. */
function tag(name: string): string {
  tags += 1;
  return `${name}${Date.now().toString(36)}x${tags}`;
}

function post(path: string, body: BodyInit, contentType: string) {
  // A browser's form post comes from this site's own page (the origin check is not what is tested).
  const headers = { "Content-Type": contentType, "Sec-Fetch-Site": "same-origin" };
  return call(path, { method: "POST", headers, body });
}

const stored = async () => [await countRows("hwh_waitlist"), await countRows("hwh_form_submissions"), await countRows("hwh_dev_mailbox")];
/** Rows of either kind that hold `text`, and `also` when given (in the address, or the submission's fields). */
async function storedWith(text: string, also = ""): Promise<number> {
  const count = async (query: string) => (await env.DB.prepare(query).bind(`%${text}%`, `%${also}%`).first<{ n: number }>())!.n;
  return (
    (await count("select count(*) as n from hwh_waitlist where email like ? and email like ?")) +
    (await count("select count(*) as n from hwh_form_submissions where form_data like ? and form_data like ?"))
  );
}
const mailsWith = async (text: string) => (await repo.devMail.list(500)).filter((mail) => mail.bodyHtml.includes(text)).length;

async function expectJsonRefusal(response: Response) {
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({ error: { code: "invalid_json", message: "The request body is not valid UTF-8." } });
}

async function expectPageRefusal(response: Response, message: string) {
  expect(response.status).toBe(400);
  expect(response.headers.get("Content-Type")).toBe("text/html; charset=UTF-8");
  expect(await response.text()).toContain(`role="alert">${message}</p>`);
}

describe.each([
  {
    name: "the waitlist",
    path: "/api/waitlist",
    json: (name: string, raw: number[]) =>
      bytes(`{"birth_month":1,"birth_year":1990,"email":"${name}`, raw, `@example.com","source":"hero"}`),
    form: (name: string, raw: number[] | string) =>
      bytes(`birth_month=1&birth_year=1990&email=${name}`, raw, "%40example.com&source=hero&website="),
  },
  {
    name: "the contact form",
    path: "/api/forms/contact",
    json: (name: string, raw: number[]) => bytes(`{"name":"Ada","email":"${name}@example.com","message":"Hi `, raw, `"}`),
    form: (name: string, raw: number[] | string) => bytes(`name=Ada&email=${name}%40example.com&message=Hi+`, raw, "&website="),
  },
])("$name", ({ path, json, form }) => {
  it("JSON holding bytes that are not UTF-8: 400 invalid_json, nothing stored or mailed", async () => {
    const name = tag("badjson");
    const before = await stored();
    await expectJsonRefusal(await post(path, json(name, NOT_UTF8), "application/json"));
    expect(await stored()).toEqual(before);
    expect(await storedWith(name)).toBe(0);
    expect(await mailsWith(name)).toBe(0);
  });

  it("a form post holding a raw byte that is not UTF-8 (0xFF): the 400 page, nothing stored or mailed", async () => {
    const name = tag("badform");
    const before = await stored();
    await expectPageRefusal(await post(path, form(name, [0xff]), FORM_MEDIA_TYPE), "The request body is not valid UTF-8.");
    expect(await stored()).toEqual(before);
    expect(await storedWith(name)).toBe(0);
    expect(await mailsWith(name)).toBe(0);
  });

  it("a form post with an escaped byte that is not UTF-8 (%FF): the 400 page, nothing stored", async () => {
    const name = tag("escaped");
    const before = await stored();
    await expectPageRefusal(await post(path, form(name, "%FF"), FORM_MEDIA_TYPE), "The request body is not valid form data.");
    expect(await stored()).toEqual(before);
  });

  it("real UTF-8 is taken as it is, raw or escaped, JSON or form", async () => {
    const name = tag("utf");
    expect((await post(path, json(`${name}j`, [...utf8.encode("ë")]), "application/json")).status).toBe(201);
    expect((await post(path, form(`${name}f`, [...utf8.encode("ë")]), FORM_MEDIA_TYPE)).status).toBe(201);
    expect((await post(path, form(`${name}e`, "%C3%AB"), FORM_MEDIA_TYPE)).status).toBe(201);
    for (const variant of ["j", "f", "e"]) expect(await storedWith(`${name}${variant}`, "ë")).toBe(1);
  });
});

describe("POST /auth/v1/otp", () => {
  const otp = (body: BodyInit, contentType = "application/json") =>
    call("/auth/v1/otp", {
      method: "POST",
      headers: { "Content-Type": contentType, "X-Supabase-Api-Version": "2024-01-01", "CF-Connecting-IP": uniqueIp() },
      body,
    });

  it("JSON holding bytes that are not UTF-8: 400 bad_json, no code stored or sent", async () => {
    const name = tag("otp");
    const response = await otp(bytes(`{"email":"${name}`, NOT_UTF8, `@example.com","create_user":true}`));
    const error = await expectAuthError(response, 400, "bad_json");
    expect(error.message).toBe("The request body is not valid UTF-8.");
    expect(await codeRow(`${name}${REPLACED}@example.com`)).toBeNull();
    expect(await codeMailCount(`${name}${REPLACED}@example.com`)).toBe(0);
  });

  it("a form body (with or without such bytes) is not read: 415", async () => {
    const name = tag("otpform");
    for (const raw of [[0xff], [...utf8.encode("%FF")]]) {
      await expectAuthError(await otp(bytes(`email=${name}`, raw, "%40example.com"), FORM_MEDIA_TYPE), 415, "validation_failed");
    }
  });

  it("real UTF-8 still gets a code", async () => {
    const email = `${tag("otputf")}ë@example.com`;
    expect((await otp(bytes(`{"email":"${email}","create_user":true}`))).status).toBe(200);
    expect(await codeRow(email)).not.toBeNull();
  });
});
