import { describe, expect, it } from "vitest";
import { FORM_MEDIA_TYPE } from "../../worker/platform/http/body";
import { escapeHtml } from "../../worker/platform/html";
import { AGE_MESSAGES, birthYearsOffered } from "../../worker/shared/age";
import { WAITLIST_MESSAGES } from "../../worker/shared/waitlist";
import { call, testRepository, uniqueEmail } from "../support/worker";

/**
 * The age question without JavaScript (issue 23): the page a refused join gets back holds the
 * question with the answer kept (the app's two selects), the parent step for a visitor below the
 * consent age (the child's address not given back), and a parent asked gets its own page.
 */

const repo = testRepository();
const YEAR = new Date().getUTCFullYear();
const childYear = String(YEAR - 11);

function postForm(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return call("/api/waitlist", {
    method: "POST",
    headers: { "Content-Type": FORM_MEDIA_TYPE, "Sec-Fetch-Site": "same-origin", "CF-IPCountry": "US", ...headers },
    body: new URLSearchParams({ source: "hero", website: "", ...fields }).toString(),
  });
}

/** Every class a page uses is one the site's stylesheet (the built home page's inline style) styles. */
async function expectStyled(html: string) {
  const style = /<style>([\s\S]*?)<\/style>/.exec(await (await call("/")).text())![1]!;
  const classes = new Set([...html.matchAll(/class="([^"]+)"/g)].flatMap((match) => match[1]!.split(" ")));
  for (const name of classes) expect(style, name).toContain(`.${name}`);
}

const formOf = (html: string) => /<form[\s\S]*?<\/form>/.exec(html)?.[0] ?? "";
const selectOf = (html: string, name: string) =>
  new RegExp(`<select[^>]*name="${name}"[^>]*>[\\s\\S]*?</select>`).exec(formOf(html))?.[0] ?? "";
const selected = (select: string) => [...select.matchAll(/<option value="([^"]*)" selected>/g)].map((match) => match[1]);

describe("the waitlist's page without JavaScript: the age question", () => {
  it("a refused post gets the question back first, with the answer typed chosen, as the app's markup", async () => {
    const response = await postForm({ email: "not-an-address", birth_month: "4", birth_year: "1990" });
    expect(response.status).toBe(400);
    const html = await response.text();
    const form = formOf(html);
    expect(form).toMatch(/<fieldset class="age">\n<legend class="age__legend">Your birth month and year<\/legend>/);
    expect(form.indexOf('name="birth_month"')).toBeLessThan(form.indexOf('name="email"'));
    const month = selectOf(html, "birth_month");
    expect(month).toMatch(/^<select id="refill-birth_month" name="birth_month" class="input"/);
    expect(month).toContain(`<option value="">${AGE_MESSAGES.monthPlaceholder}</option><option value="1">January</option>`);
    expect(month).toContain('<option value="12">December</option>');
    expect(selected(month)).toEqual(["4"]);
    const year = selectOf(html, "birth_year");
    expect([...year.matchAll(/<option value="(\d+)"/g)].map((m) => Number(m[1]))).toEqual(birthYearsOffered(new Date()));
    expect(selected(year)).toEqual(["1990"]);
    expect(html).toContain(`<label for="refill-birth_month" class="visually-hidden">${AGE_MESSAGES.month}</label>`);
    expect(html).toContain(escapeHtml(AGE_MESSAGES.why));
    await expectStyled(html);
  });

  it("a missing answer: 400 page with its words at the question, the e-mail kept, nothing stored", async () => {
    const email = uniqueEmail("no-answer");
    const response = await postForm({ email, birth_month: "", birth_year: "" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(`role="alert">${escapeHtml(AGE_MESSAGES.birthMissing)}</p>`);
    expect(html).toContain(`<p class="field__error" id="refill-age-error">${escapeHtml(AGE_MESSAGES.birthMissing)}</p>`);
    expect(selectOf(html, "birth_month")).toContain('aria-invalid="true"');
    expect(formOf(html)).toContain(`value="${email}"`);
    expect(await repo.findWaitlistEntry(email)).toBeFalsy();
  });

  it("below the consent age: the parent step (the parent's field and the app's words), the answer carried, the child's address not given back", async () => {
    const child = uniqueEmail("no-js-child");
    const response = await postForm({ email: child, birth_month: "1", birth_year: childYear });
    expect(response.status).toBe(400);
    expect(response.headers.get("Set-Cookie")).toMatch(/^hwh_age=under_13\.1\./);
    const html = await response.text();
    expect(html).not.toContain(child);
    expect(html).toContain(`<p class="message message--info" role="status">${escapeHtml(AGE_MESSAGES.parentNeeded)}</p>`);
    const form = formOf(html);
    expect(form).toContain(`<p>${escapeHtml(AGE_MESSAGES.parentExplain)}</p>`);
    expect(form).toContain(`<label for="refill-parent_email" class="age__legend">${escapeHtml(AGE_MESSAGES.parentEmailLabel)}</label>`);
    expect(form).toMatch(/<input id="refill-parent_email" class="input waitlist__input" name="parent_email" type="email"/);
    expect(form).toContain(`>${escapeHtml(AGE_MESSAGES.parentSubmit)}</button>`);
    expect(form).not.toContain('name="email"');
    expect(form).toContain('<input type="hidden" name="birth_month" value="1">');
    expect(form).toContain(`<input type="hidden" name="birth_year" value="${childYear}">`);
    expect(await repo.findWaitlistEntry(child)).toBeFalsy();
    await expectStyled(html);
  });

  it("the parent step posted (no child's address, the answer in hidden fields): 202 page saying the parent was e-mailed", async () => {
    const response = await postForm({ parent_email: uniqueEmail("no-js-parent"), birth_month: "1", birth_year: childYear });
    expect(response.status).toBe(202);
    const html = await response.text();
    expect(html).toContain(
      `<p class="message message--success" role="status"><strong>${escapeHtml(AGE_MESSAGES.parentSentTitle)}</strong><br>${escapeHtml(AGE_MESSAGES.parentSentDetail)}</p>`,
    );
    expect(html).not.toContain(escapeHtml(WAITLIST_MESSAGES.checkInbox));
    expect(formOf(html)).toBe("");
  });

  it("a parent's address that is no address: the parent step again, its message at the field", async () => {
    const response = await postForm({ parent_email: "nobody", birth_month: "1", birth_year: childYear });
    expect(response.status).toBe(400);
    const html = await response.text();
    const form = formOf(html);
    expect(form).toContain('name="parent_email"');
    expect(form).toContain('value="nobody"');
    expect(form).toContain(`<p class="field__error" id="refill-parent_email-error">${escapeHtml(AGE_MESSAGES.parentEmailInvalid)}</p>`);
  });

  it("the parent step posted with the parent's address left empty: the parent step again, asking for it at its field (never the child's own address)", async () => {
    const response = await postForm({ parent_email: "", birth_month: "1", birth_year: childYear });
    expect(response.status).toBe(400);
    const html = await response.text();
    const form = formOf(html);
    expect(form).toContain('name="parent_email"');
    expect(form).not.toContain('name="email"');
    expect(form).toContain(`<p class="field__error" id="refill-parent_email-error">${escapeHtml(AGE_MESSAGES.parentEmailRequired)}</p>`);
    expect(html).not.toContain(escapeHtml(WAITLIST_MESSAGES.emailRequired));
  });
});
