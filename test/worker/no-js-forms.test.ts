import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { FORM_MEDIA_TYPE, MAX_FORM_BODY_BYTES } from "../../worker/platform/http/body";
import { refilledForm } from "../../worker/platform/http/form-refill";
import { escapeHtml } from "../../worker/platform/html";
import { FORM_MESSAGES } from "../../worker/shared/forms";
import { cspHash } from "../../worker/shared/hash";
import { FORM_PAGE_TEXT, PUBLIC_FORM_ERRORS, tooManyAttempts } from "../../worker/shared/public-forms";
import { SITE_CSP } from "../../worker/shared/security-headers";
import { WAITLIST_MESSAGES } from "../../worker/shared/waitlist";
import {
  brokenDatabase,
  call,
  countRows,
  postJson,
  testRepository,
  uniqueClientIp,
  uniqueEmail,
  type EnvOverrides,
} from "../support/worker";
import { ADULT_ANSWER, ADULT_FORM } from "../support/age";
import { limitedTo } from "../support/rate-limits";

/**
 * Issue 9 §1: the waitlist and contact forms work without JavaScript. The browser posts the
 * <form> itself (application/x-www-form-urlencoded) and shows the page the worker answers with:
 * the same rules, limits, storage and notification as the JSON route, the same words and status,
 * in the site's style, with no script. A form post made by another site's page is refused.
 */

const repo = testRepository();

/** What a browser sends for a <form method="post"> on the site's own page. */
const BROWSER = { "Sec-Fetch-Site": "same-origin", Origin: "http://localhost" };

function postForm(
  path: string,
  fields: Record<string, string> | string,
  headers: Record<string, string> = {},
  overrides: EnvOverrides = {},
) {
  const body = typeof fields === "string" ? fields : new URLSearchParams(fields).toString();
  return call(path, { method: "POST", headers: { "Content-Type": FORM_MEDIA_TYPE, ...BROWSER, ...headers }, body }, overrides);
}

const contact = (tag: string, extra: Record<string, string> = {}) => ({
  name: "Ada",
  email: uniqueEmail(tag),
  message: "Hello",
  website: "",
  ...extra,
});
const waitlist = (tag: string, extra: Record<string, string> = {}) => ({
  ...ADULT_FORM,
  email: uniqueEmail(tag),
  source: "hero",
  website: "",
  ...extra,
});

const mailsWith = async (text: string) => (await repo.devMail.list(500)).filter((mail) => mail.bodyHtml.includes(text));
const submissionWith = async (email: string) => {
  const row = await env.DB.prepare("select id from hwh_form_submissions where form_data like ?").bind(`%${email}%`).first<{ id: number }>();
  return row ? repo.findFormSubmission(row.id) : undefined;
};

let homeStyle: Promise<string> | undefined;
/** The inline stylesheet of the built home page, as the site serves it. */
function siteStyle(): Promise<string> {
  homeStyle ??= call("/").then(async (response) => /<style>([\s\S]*?)<\/style>/.exec(await response.text())![1]!);
  return homeStyle;
}

type Expected = { status: number; kind: "success" | "error" | "info"; lines: readonly string[]; back: string; heading: string };

/**
 * The answer is the form's page: the status of the JSON answer, HTML, not cached, the site's own
 * stylesheet allowed by its hash and nothing else inline, no script, a heading, the outcome in
 * the site's message box, and the way back. Returns the HTML.
 */
async function expectPage(response: Response, expected: Expected): Promise<string> {
  const html = await response.text();
  expect(response.status, html).toBe(expected.status);
  expect(response.headers.get("Content-Type")).toBe("text/html; charset=UTF-8");
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
  expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  expect(html).toContain(`<title>${escapeHtml(`Homework Helper: ${expected.heading}`)}</title>`);
  expect(html).toContain(`<h1>${escapeHtml(expected.heading)}</h1>`);
  // No script, no event handler attribute, no inline style attribute (the CSP would block them).
  expect(html).not.toMatch(/<script|<[^>]*\s(on\w+|style)=/i);

  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]!);
  expect(styles).toEqual([await siteStyle()]);
  const csp = response.headers.get("Content-Security-Policy")!;
  expect(csp).toContain(`style-src 'self' '${await cspHash(styles[0]!)}';`);
  expect(csp).toContain("script-src 'self';");
  expect(csp).toContain("frame-ancestors 'none'");
  // Every class the page uses is one the site's stylesheet styles.
  const classes = new Set([...html.matchAll(/class="([^"]+)"/g)].flatMap((match) => match[1]!.split(" ")));
  for (const name of classes) expect(styles[0], name).toContain(`.${name}`);

  const message = /<p class="message message--(success|error|info)" role="(status|alert)">(.*?)<\/p>/.exec(html);
  expect(message?.[1]).toBe(expected.kind);
  expect(message?.[2]).toBe(expected.kind === "error" ? "alert" : "status");
  const lines = message![3]!.replace(/<\/?strong>/g, "").split("<br>");
  expect(lines).toEqual(expected.lines.map(escapeHtml));
  // Under a form given back the way back is a plain link: the form's button is the page's primary action.
  const backStyle = formOf(html) ? "button--link" : "button--primary";
  expect(html).toContain(`<a class="button ${backStyle}" href="${expected.back}">${FORM_PAGE_TEXT.backLink}</a>`);
  return html;
}

/** The page's <form> (the refused form given back), or null when it has none. */
const formOf = (html: string) => /<form[\s\S]*?<\/form>/.exec(html)?.[0] ?? null;

/** The tag of the page's control called `name` (an <input>, or a <textarea>/<select> with its content). */
function controlOf(html: string, name: string): string {
  const form = formOf(html);
  expect(form, "the page gives the form back").not.toBeNull();
  const match = new RegExp(`<(input|textarea|select)\\b[^>]*\\sname="${name}"[^>]*>(?:[\\s\\S]*?</\\1>)?`).exec(form!);
  expect(match, `a control named ${name}`).not.toBeNull();
  return match![1] === "input" ? match![0].replace(/>[\s\S]*$/, ">") : match![0];
}

/** The text of the element with this id (the message a control's aria-describedby names). */
const textById = (html: string, id: string) => new RegExp(`<p class="field__error" id="${id}">(.*?)</p>`).exec(html)?.[1];

const WAITLIST = { heading: "Join the Waitlist", back: "/" } as const;
const CONTACT = { heading: "Contact Form", back: "/#contact" } as const;
const WAITLIST_SUCCESS = {
  ...WAITLIST,
  status: 201,
  kind: "success",
  lines: [WAITLIST_MESSAGES.successTitle, WAITLIST_MESSAGES.successDetail],
} as const;
const CONTACT_SUCCESS = { ...CONTACT, status: 201, kind: "success", lines: [FORM_MESSAGES.success] } as const;

describe("the waitlist form without JavaScript", () => {
  it("says, apart from the spec's two lines, to look for the joiner's e-mail (issue 16)", async () => {
    const html = await expectPage(
      await postForm("/api/waitlist", { ...ADULT_FORM, email: uniqueEmail("inbox"), source: "hero", website: "" }),
      WAITLIST_SUCCESS,
    );
    expect(html).toContain(`</p>\n<p>${escapeHtml(WAITLIST_MESSAGES.checkInbox)}</p>`);
  });

  it("says what happens next as the e-mail it sent says it: confirm with its button first, no place until then (issue 22)", async () => {
    const email = uniqueEmail("next-step");
    const html = await expectPage(await postForm("/api/waitlist", { ...ADULT_FORM, email, source: "hero", website: "" }), WAITLIST_SUCCESS);
    const note = WAITLIST_MESSAGES.checkInbox;
    expect(html).toContain(`<p>${escapeHtml(note)}</p>`);
    // The joiner's one e-mail is the confirmation; the note names its one button, as the button says it.
    const mails = (await repo.devMail.list(500)).filter((mail) => mail.receivers.includes(email));
    expect(mails.map((mail) => mail.title)).toEqual(["Confirm your place on the Homework Helper waitlist"]);
    const button = /<a [^>]*>([^<]+)<\/a>/.exec(mails[0]!.bodyHtml)![1]!;
    expect(note).toContain(`"${button}"`);
    // Until then there is no place, and the note promises none of the e-mail.
    expect((await repo.findWaitlistEntry(email))!.confirmedAt).toBeNull();
    expect(note).not.toMatch(/e-mail (has|with) your place/i);
  });

  it("joins: 201 page with the spec's success words, stored and notified exactly as a JSON join", async () => {
    const viaForm = uniqueEmail("NoJs");
    await expectPage(
      await postForm("/api/waitlist", { ...ADULT_FORM, email: `  ${viaForm.toUpperCase()} `, source: "cta", website: "" }),
      WAITLIST_SUCCESS,
    );
    const viaJson = uniqueEmail("nojs");
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email: viaJson, source: "cta", website: "" })).status).toBe(201);

    const [formEntry, jsonEntry] = [await repo.findWaitlistEntry(viaForm.toLowerCase()), await repo.findWaitlistEntry(viaJson)];
    expect(formEntry).toMatchObject({
      email: viaForm.toLowerCase(),
      source: "cta",
      emailSent: true,
      notifyAttempts: jsonEntry!.notifyAttempts,
    });
    const [formMail, jsonMail] = [(await mailsWith(viaForm.toLowerCase()))[0]!, (await mailsWith(viaJson))[0]!];
    const shape = (mail: typeof formMail, email: string, at: string) => ({
      ...mail,
      id: 0,
      createdAt: "",
      bodyHtml: mail.bodyHtml.replaceAll(email, "E").replaceAll(at, "T"),
    });
    expect(shape(formMail, viaForm.toLowerCase(), formEntry!.createdAt)).toEqual(shape(jsonMail, viaJson, jsonEntry!.createdAt));
  });

  it("accepts a charset parameter on the Content-Type, and a placement-less post", async () => {
    const email = uniqueEmail();
    const response = await postForm("/api/waitlist", { ...ADULT_FORM, email }, { "Content-Type": `${FORM_MEDIA_TYPE}; charset=UTF-8` });
    await expectPage(response, WAITLIST_SUCCESS);
    expect(await repo.findWaitlistEntry(email)).toMatchObject({ source: null });
  });

  it("already on the list: 409 page with the spec's words, as news (the status style, as the app shows it), not an error", async () => {
    const email = uniqueEmail();
    await expectPage(await postForm("/api/waitlist", { ...ADULT_FORM, email, source: "hero" }), WAITLIST_SUCCESS);
    const html = await expectPage(await postForm("/api/waitlist", { ...ADULT_FORM, email, source: "cta" }), {
      ...WAITLIST,
      status: 409,
      kind: "info",
      lines: [WAITLIST_MESSAGES.duplicate],
    });
    const body = html.slice(html.indexOf("<body>"));
    expect(body).not.toContain("message--error");
    expect(body).not.toContain('role="alert"');
    // The form comes back with the address, to add another.
    expect(controlOf(html, "email")).toContain(`value="${email}"`);
  });

  it.each([
    ["", WAITLIST_MESSAGES.emailRequired],
    ["not-an-address", WAITLIST_MESSAGES.emailInvalid],
  ])("e-mail %j: 400 page with the field's message, nothing stored", async (email, message) => {
    const before = await countRows("hwh_waitlist");
    await expectPage(await postForm("/api/waitlist", { ...ADULT_FORM, email, source: "hero", website: "" }), {
      ...WAITLIST,
      status: 400,
      kind: "error",
      lines: [message],
    });
    expect(await countRows("hwh_waitlist")).toBe(before);
  });

  it("the database failing: 500 page with the spec's words", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await postForm("/api/waitlist", waitlist("down"), {}, { DB: brokenDatabase() });
    await expectPage(response, { ...WAITLIST, status: 500, kind: "error", lines: [WAITLIST_MESSAGES.failure] });
  });
});

describe("the contact form without JavaScript", () => {
  it("sends: 201 page, stored and notified exactly as a JSON submission, line breaks as the script sends them", async () => {
    const viaForm = uniqueEmail("nojscontact");
    // HTML's form submission writes every line break of a textarea as CRLF, and spaces as "+".
    const body = `name=+Ada+Lovelace+&email=${encodeURIComponent(viaForm)}&message=Line+one%0D%0ALine+two&website=`;
    await expectPage(await postForm("/api/forms/contact", body), CONTACT_SUCCESS);
    const viaJson = uniqueEmail("nojscontact");
    expect(
      (await postJson("/api/forms/contact", { name: "Ada Lovelace", email: viaJson, message: "Line one\nLine two", website: "" })).status,
    ).toBe(201);

    const [formRow, jsonRow] = [(await submissionWith(viaForm))!, (await submissionWith(viaJson))!];
    expect(formRow.formData).toEqual({ ...jsonRow.formData, email: viaForm });
    expect(formRow).toMatchObject({ formName: "Contact Form", emailSent: true, notifyAttempts: jsonRow.notifyAttempts });
    const [formMail, jsonMail] = [(await mailsWith(viaForm))[0]!, (await mailsWith(viaJson))[0]!];
    expect(formMail.title).toBe(jsonMail.title);
    expect(formMail.receivers).toEqual(jsonMail.receivers);
    expect(formMail.bodyHtml.replaceAll(viaForm, "E").replaceAll(formRow.createdAt, "T")).toBe(
      jsonMail.bodyHtml.replaceAll(viaJson, "E").replaceAll(jsonRow.createdAt, "T"),
    );
    expect(formMail.bodyHtml).toContain("Line one<br>\nLine two");
  });

  it("names every field to fix on a 400 page, and stores nothing", async () => {
    const before = await countRows("hwh_form_submissions");
    const response = await postForm("/api/forms/contact", { name: " ", email: "not-an-email", message: "", website: "" });
    await expectPage(response, {
      ...CONTACT,
      status: 400,
      kind: "error",
      lines: ["Name is required.", WAITLIST_MESSAGES.emailInvalid, "Message is required."],
    });
    expect(await countRows("hwh_form_submissions")).toBe(before);
  });

  it("the database failing: 500 page with the spec's words", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await postForm("/api/forms/contact", contact("down"), {}, { DB: brokenDatabase() });
    await expectPage(response, { ...CONTACT, status: 500, kind: "error", lines: [FORM_MESSAGES.failure] });
  });

  it("the back link leads to the home page's contact section", async () => {
    expect(await (await call("/")).text()).toContain('id="contact"');
  });
});

describe.each([
  ["the waitlist", "/api/waitlist", WAITLIST, WAITLIST_SUCCESS, waitlist, "WAITLIST_LIMITER"],
  ["the contact form", "/api/forms/contact", CONTACT, CONTACT_SUCCESS, contact, "FORMS_LIMITER"],
] as const)("%s without JavaScript: the same protection as JSON", (_name, path, page, success, fields, limitSetting) => {
  const counts = async () => [await countRows("hwh_waitlist"), await countRows("hwh_form_submissions"), await countRows("hwh_dev_mailbox")];

  it("a filled honeypot gets the success page; nothing is stored or sent", async () => {
    const before = await counts();
    await expectPage(await postForm(path, fields("bot", { website: "https://spam.example" })), success);
    expect(await counts()).toEqual(before);
  });

  it("a honeypot of only spaces (+ in a form body) is a person: the success page, stored and notified", async () => {
    const before = await counts();
    const body = new URLSearchParams(fields("spaces", { website: "   " })).toString();
    expect(body).toContain("website=+++");
    await expectPage(await postForm(path, body), success);
    const after = await counts();
    expect(after[0]! + after[1]! - before[0]! - before[1]!).toBe(1);
    // The company's notification, and for a join the joiner's confirmation (issue 16).
    expect(after[2]).toBe(before[2]! + (path === "/api/waitlist" ? 2 : 1));
  });

  it("over the per-client limit: 429 page with Retry-After, nothing stored", async () => {
    const ip = uniqueClientIp();
    const settings = { [limitSetting]: limitedTo(env[limitSetting], 1) };
    await expectPage(await postForm(path, fields("limit"), { "CF-Connecting-IP": ip }, settings), success);
    const before = await counts();
    const refused = await postForm(path, fields("limit"), { "CF-Connecting-IP": ip }, settings);
    const wait = Number(refused.headers.get("Retry-After"));
    expect(wait).toBeGreaterThan(0);
    // The page says the real wait, as the app does ("Please try again in 9 minutes.").
    await expectPage(refused, { ...page, status: 429, kind: "error", lines: [tooManyAttempts(wait)] });
    expect(tooManyAttempts(wait)).toMatch(/^Too many attempts\. Please try again in \d+ (minute|second)s?\.$/);
    expect(await counts()).toEqual(before);
  });

  it("with Turnstile on, a post without a token (no script, no widget): 403 page, nothing stored", async () => {
    const outbound = vi.spyOn(globalThis, "fetch");
    const before = await counts();
    const turnstile = { TURNSTILE_SITE_KEY: "1x00000000000000000000AA", TURNSTILE_SECRET_KEY: "test-turnstile-secret" };
    await expectPage(await postForm(path, fields("noscript"), {}, turnstile), {
      ...page,
      status: 403,
      kind: "error",
      lines: [PUBLIC_FORM_ERRORS.notVerified],
    });
    expect(await counts()).toEqual(before);
    expect(outbound).not.toHaveBeenCalled();
  });

  it("a body over the form limit: 413 page, nothing stored", async () => {
    const before = await counts();
    const response = await postForm(path, { ...fields("big"), message: "x".repeat(MAX_FORM_BODY_BYTES) });
    await expectPage(response, {
      ...page,
      status: 413,
      kind: "error",
      lines: [`The request body is larger than ${MAX_FORM_BODY_BYTES / 1024} KB.`],
    });
    expect(await counts()).toEqual(before);
  });

  it("a field sent twice: 400 page naming it, nothing stored (which value was meant cannot be known)", async () => {
    const before = await counts();
    const body = `${new URLSearchParams(fields("twice"))}&email=${encodeURIComponent(uniqueEmail("twice"))}`;
    await expectPage(await postForm(path, body), {
      ...page,
      status: 400,
      kind: "error",
      lines: ['The field "email" was sent more than once.'],
    });
    expect(await counts()).toEqual(before);
  });

  it("a malformed escape: 400 page, nothing stored", async () => {
    const before = await counts();
    await expectPage(await postForm(path, `${new URLSearchParams(fields("escape"))}`.replace("website=", "website=%zz")), {
      ...page,
      status: 400,
      kind: "error",
      lines: ["The request body is not valid form data."],
    });
    expect(await counts()).toEqual(before);
  });

  it("echoes a hostile field name escaped, never as markup", async () => {
    const hostile = '<img src=x onerror="alert(1)">';
    const html = await expectPage(await postForm(path, { ...fields("hostile"), [hostile]: "1" }), {
      ...page,
      status: 400,
      kind: "error",
      lines: [`Unexpected field "${hostile.slice(0, 40)}".`],
    });
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  it("the page still answers, unstyled, when the site's stylesheet cannot be read", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const noAssets = { fetch: async () => new Response("gone", { status: 500 }) };
    const response = await postForm(path, fields("unstyled"), {}, { ASSETS: noAssets });
    expect(response.status).toBe(201);
    expect(response.headers.get("Content-Security-Policy")).toBe(SITE_CSP);
    const html = await response.text();
    expect(html).not.toContain("<style");
    expect(html).toContain(`<strong>${escapeHtml(success.lines[0])}</strong>`);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"event":"form_page.style_unavailable"'));
  });

  it("a JSON post still gets JSON, and another method still gets the API's 405", async () => {
    const json = await postJson(path, fields("json"));
    expect(json.status).toBe(201);
    expect(json.headers.get("Content-Type")).toMatch(/^application\/json/);
    const get = await call(path);
    expect(get.status).toBe(405);
    expect(await get.json()).toMatchObject({ error: { code: "method_not_allowed" } });
  });
});

describe.each([
  ["the waitlist", "/api/waitlist", WAITLIST, waitlist],
  ["the contact form", "/api/forms/contact", CONTACT, contact],
] as const)("%s: a post made by another site's page is refused", (_name, path, page, fields) => {
  const counts = async () => [await countRows("hwh_waitlist"), await countRows("hwh_form_submissions"), await countRows("hwh_dev_mailbox")];
  const refusedPage = { ...page, status: 403, kind: "error", lines: [FORM_PAGE_TEXT.otherOrigin] } as const;

  it.each([
    ["Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" }],
    ["Sec-Fetch-Site: same-site (another subdomain)", { "Sec-Fetch-Site": "same-site", Origin: "http://evil.localhost" }],
    ["Sec-Fetch-Site: a value it does not know", { "Sec-Fetch-Site": "sideways", Origin: "http://localhost" }],
  ])("a form post with %s: 403 page, nothing stored", async (_case, headers) => {
    const before = await counts();
    await expectPage(await postForm(path, fields("csrf"), headers), refusedPage);
    expect(await counts()).toEqual(before);
  });

  it.each([
    ["another origin", "https://evil.example"],
    ["another port", "http://localhost:8080"],
    ["an opaque origin (null)", "null"],
  ])("without Sec-Fetch-Site (an older browser), Origin of %s: 403 page, nothing stored", async (_case, origin) => {
    const before = await counts();
    const response = await call(path, {
      method: "POST",
      headers: { "Content-Type": FORM_MEDIA_TYPE, Origin: origin },
      body: new URLSearchParams(fields("csrf")).toString(),
    });
    await expectPage(response, refusedPage);
    expect(await counts()).toEqual(before);
  });

  it.each([
    ["Sec-Fetch-Site: same-origin", { "Sec-Fetch-Site": "same-origin" }],
    ["Sec-Fetch-Site: none (the person's own doing)", { "Sec-Fetch-Site": "none" }],
    ["only Origin, this origin", { Origin: "http://localhost" }],
    ["neither header (not a browser page: curl, a server)", {}],
  ])("is accepted with %s", async (_case, headers) => {
    const response = await call(path, {
      method: "POST",
      headers: { "Content-Type": FORM_MEDIA_TYPE, ...headers },
      body: new URLSearchParams(fields("sameorigin")).toString(),
    });
    expect(response.status).toBe(201);
  });

  it.each([
    ["text/plain", "text/plain;charset=UTF-8"],
    ["multipart/form-data", "multipart/form-data; boundary=x"],
  ])("%s from another site: 403 in the API's JSON shape, nothing stored; from this site still 415", async (_case, contentType) => {
    const before = await counts();
    const send = (headers: Record<string, string>) =>
      call(path, { method: "POST", headers: { "Content-Type": contentType, ...headers }, body: JSON.stringify(fields("plain")) });
    const refused = await send({ "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: { code: "cross_origin", message: FORM_PAGE_TEXT.otherOrigin } });
    expect((await send({ Origin: "https://evil.example" })).status).toBe(403);
    const sameSite = await send(BROWSER);
    expect(sameSite.status).toBe(415);
    expect(await sameSite.json()).toMatchObject({ error: { code: "unsupported_media_type" } });
    expect(await counts()).toEqual(before);
  });

  it("a refused post does not spend the visitor's allowance", async () => {
    const ip = uniqueClientIp();
    const settings = { WAITLIST_LIMITER: limitedTo(env.WAITLIST_LIMITER, 1), FORMS_LIMITER: limitedTo(env.FORMS_LIMITER, 1) };
    for (let n = 0; n < 3; n += 1) {
      expect((await postForm(path, fields("allowance"), { "CF-Connecting-IP": ip, "Sec-Fetch-Site": "cross-site" }, settings)).status).toBe(
        403,
      );
    }
    expect((await postForm(path, fields("allowance"), { "CF-Connecting-IP": ip }, settings)).status).toBe(201);
  });

  it("JSON keeps its behaviour (a browser cannot send it cross-origin without a preflight, which is never granted)", async () => {
    const response = await call(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" },
      body: JSON.stringify(fields("json")),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });
});

describe("encoding", () => {
  it("a long message in a non-Latin script fits: percent-encoding may triple the bytes", async () => {
    const email = uniqueEmail("cjk");
    const message = "漢".repeat(5000);
    const body = new URLSearchParams({ name: "李", email, message, website: "" }).toString();
    expect(body.length).toBeGreaterThan(3 * 15_000);
    await expectPage(await postForm("/api/forms/contact", body), CONTACT_SUCCESS);
    expect((await submissionWith(email))!.formData.message).toBe(message);
  });
});

describe("a refused form post gets its form back, with what was typed (issue 15)", () => {
  const hostile = '"><script>alert(1)</script>&amp;';

  it("the contact form: each value kept and escaped, each field's message at its field, posting to the same address", async () => {
    const message = `Line one\nLine two </textarea><script>alert(1)</script> ${hostile}`;
    const response = await postForm("/api/forms/contact", { name: " ", email: `not-an-email${hostile}`, message, website: "" });
    const html = await expectPage(response, {
      ...CONTACT,
      status: 400,
      kind: "error",
      lines: ["Name is required.", WAITLIST_MESSAGES.emailInvalid],
    });
    const form = formOf(html)!;
    expect(form).toMatch(/^<form class="contact-form" action="\/api\/forms\/contact" method="post" aria-label="Contact Form">/);

    const name = controlOf(html, "name");
    expect(name).toContain('value=" "');
    expect(name).toContain('aria-invalid="true"');
    expect(name).toContain('aria-describedby="refill-name-error"');
    expect(textById(html, "refill-name-error")).toBe("Name is required.");
    expect(html).toContain('<label for="refill-name">Name<span class="field__required" aria-hidden="true">*</span></label>');

    const email = controlOf(html, "email");
    expect(email).toContain(`value="${escapeHtml(`not-an-email${hostile}`)}"`);
    expect(email).toContain('type="email"');
    expect(email).toContain('aria-describedby="refill-email-error"');
    expect(textById(html, "refill-email-error")).toBe(WAITLIST_MESSAGES.emailInvalid);

    // The message is kept whole, line breaks included; nothing typed becomes markup.
    const textarea = controlOf(html, "message");
    expect(textarea).toBe(
      `<textarea id="refill-message" name="message" required class="input" rows="4" placeholder="Enter your message..." maxlength="5000">\n${escapeHtml(message)}</textarea>`,
    );
    expect(html.match(/<script/g)).toBeNull();

    // The honeypot is there, empty; the send button is the app's.
    expect(controlOf(html, "website")).toMatch(/^<input id="refill-website" type="text" name="website" tabindex="-1" autocomplete="off"/);
    expect(controlOf(html, "website")).not.toContain("value=");
    expect(form).toContain('<button type="submit" class="button button--primary">Send Message</button>');
  });

  it("the waitlist: the address, the placement and the attribution come back (escaped); the honeypot comes back empty", async () => {
    const fields = {
      ...ADULT_FORM,
      email: `ada@school${hostile}`,
      source: "cta",
      utm_source: `news"letter`,
      utm_medium: "",
      utm_campaign: "<b>spring</b>",
      referrer_host: "www.example.com",
      // A 400 is answered before the honeypot is looked at: the page never echoes it.
      website: "https://spam.example",
    };
    const html = await expectPage(await postForm("/api/waitlist", fields), {
      ...WAITLIST,
      status: 400,
      kind: "error",
      lines: [WAITLIST_MESSAGES.emailInvalid],
    });
    expect(formOf(html)).toMatch(
      /^<form class="waitlist" action="\/api\/waitlist" method="post" aria-label="Join the Waitlist" novalidate>/,
    );
    const email = controlOf(html, "email");
    expect(email).toContain(`value="${escapeHtml(fields.email)}"`);
    expect(email).toContain('aria-invalid="true" aria-describedby="refill-email-error"');
    expect(textById(html, "refill-email-error")).toBe(WAITLIST_MESSAGES.emailInvalid);
    expect(html).toContain('<label for="refill-email" class="visually-hidden">Email address</label>');
    expect(controlOf(html, "source")).toBe('<input type="hidden" name="source" value="cta">');
    expect(controlOf(html, "utm_source")).toBe('<input type="hidden" name="utm_source" value="news&quot;letter">');
    expect(controlOf(html, "utm_medium")).toBe('<input type="hidden" name="utm_medium" value="">');
    expect(controlOf(html, "utm_campaign")).toBe('<input type="hidden" name="utm_campaign" value="&lt;b&gt;spring&lt;/b&gt;">');
    expect(controlOf(html, "referrer_host")).toBe('<input type="hidden" name="referrer_host" value="www.example.com">');
    expect(controlOf(html, "website")).not.toContain("spam");
  });

  it.each([
    [
      "the waitlist",
      "/api/waitlist",
      WAITLIST,
      "WAITLIST_LIMITER",
      { ...ADULT_FORM, email: "ada@example.com", source: "hero", website: "" },
    ],
    [
      "the contact form",
      "/api/forms/contact",
      CONTACT,
      "FORMS_LIMITER",
      { name: "Ada", email: "ada@example.com", message: "Hi <there>", website: "" },
    ],
  ] as const)(
    "%s over the limit (the form refused before its body is read, the waitlist at its store): the wait, and the form with every value",
    async (_name, path, page, setting, fields) => {
      const ip = uniqueClientIp();
      const settings = { [setting]: limitedTo(env[setting], 1) };
      expect((await postForm(path, { ...fields, email: uniqueEmail("refill") }, { "CF-Connecting-IP": ip }, settings)).status).toBe(201);
      const refused = await postForm(path, fields, { "CF-Connecting-IP": ip }, settings);
      const html = await expectPage(refused, {
        ...page,
        status: 429,
        kind: "error",
        lines: [tooManyAttempts(Number(refused.headers.get("Retry-After")))],
      });
      for (const [name, value] of Object.entries(fields)) {
        if (name === "website") continue;
        expect(controlOf(html, name)).toContain(name === "message" ? `>\n${escapeHtml(value)}</textarea>` : `value="${escapeHtml(value)}"`);
      }
      // A refusal about the whole form marks no field.
      expect(formOf(html)).not.toContain("aria-invalid");
    },
  );

  it("the database failing (the submission cannot be stored): the failure, and the form with the message", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await postForm("/api/forms/contact", contact("down", { message: "Keep me" }), {}, { DB: brokenDatabase() });
    const html = await expectPage(response, { ...CONTACT, status: 500, kind: "error", lines: [FORM_MESSAGES.failure] });
    expect(controlOf(html, "message")).toContain(">\nKeep me</textarea>");
  });

  it("with Turnstile on: the 403, and the form back without a widget (the page runs no script)", async () => {
    const turnstile = { TURNSTILE_SITE_KEY: "1x00000000000000000000AA", TURNSTILE_SECRET_KEY: "test-turnstile-secret" };
    const html = await expectPage(await postForm("/api/forms/contact", contact("turnstile", { message: "Typed" }), {}, turnstile), {
      ...CONTACT,
      status: 403,
      kind: "error",
      lines: [PUBLIC_FORM_ERRORS.notVerified],
    });
    expect(controlOf(html, "message")).toContain(">\nTyped</textarea>");
    expect(html).not.toContain("cf-turnstile");
  });

  it("a post made by another site's page gets no form back", async () => {
    const response = await postForm("/api/forms/contact", contact("csrf", { message: "From elsewhere" }), {
      "Sec-Fetch-Site": "cross-site",
      Origin: "https://evil.example",
    });
    const html = await expectPage(response, { ...CONTACT, status: 403, kind: "error", lines: [FORM_PAGE_TEXT.otherOrigin] });
    expect(formOf(html)).toBeNull();
    expect(html).not.toContain("From elsewhere");
  });

  it("a success gives no form back", async () => {
    expect(formOf(await expectPage(await postForm("/api/forms/contact", contact("ok")), CONTACT_SUCCESS))).toBeNull();
  });

  it("a form of select and date fields: the chosen option selected, the date kept", () => {
    const form = {
      kind: "fields",
      label: "Survey",
      submit: "Send",
      fields: [
        { name: "grade", type: "select", required: true, options: ["Middle school", "High school"] },
        { name: "exam", type: "date", required: false },
      ],
    } as const;
    const html = refilledForm(form, "/api/forms/survey", { values: { grade: "High school", exam: "2025-13-01" }, fieldErrors: {} });
    expect(html).toContain(
      '<select id="refill-grade" name="grade" required class="input"><option value="" disabled>Please select</option><option value="Middle school">Middle school</option><option value="High school" selected>High school</option></select>',
    );
    expect(html).toContain('type="date"');
    expect(html).toContain('value="2025-13-01"');
    expect(refilledForm(form, "/x", { values: { grade: "Other" }, fieldErrors: {} })).toContain(
      '<option value="" disabled selected>Please select</option>',
    );
  });
});
