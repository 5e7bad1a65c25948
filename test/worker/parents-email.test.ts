// Issue 23 §2: the e-mail to the parent (worker/features/parents/emails.ts): a direct notice (who we
// are, what we would keep and why, that nothing is passed on, how to review or delete, the
// children's part of the privacy policy), one button to the parent's page, the 7 days.
import { describe, expect, it } from "vitest";
import { FOR_PARENTS_PATH } from "../../worker/shared/for-parents";
import { BRAND_NAME } from "../../worker/shared/brand";
import { uniqueEmail } from "../support/worker";
import { ask, mailsTo, open, requestOf } from "./parents-support";

/** The parent's e-mail as the dev mailbox keeps it, with its text and its HTML's links. */
async function theEmail(parent: string) {
  const [mail] = await mailsTo(parent);
  expect(mail).toBeDefined();
  const hrefs = [...mail!.bodyHtml.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!.replaceAll("&amp;", "&"));
  return { ...mail!, text: mail!.bodyText ?? "", hrefs };
}

describe("the e-mail to the parent", () => {
  it("is a direct notice: who we are, that a child asked, what we would keep and why, nothing passed on, how to review or delete, 7 days", async () => {
    const parent = uniqueEmail("notice");
    await ask(parent, { band: "under_13", country: "US" });
    const mail = await theEmail(parent);
    expect(mail.title).toBe(`A child asked to join the ${BRAND_NAME} waitlist`);
    expect(mail.bodyHtml).toContain(">A child asked to join our waitlist</h1>");
    expect(mail.text).toContain(`${BRAND_NAME}\n\nA child asked to join our waitlist\n`);
    for (const body of [mail.text, mail.bodyHtml.replaceAll("&#39;", "'").replaceAll("&quot;", '"')]) {
      expect(body).toContain(`We are ${BRAND_NAME}, an AI homework helper`);
      expect(body).toContain("who told us they are under 13");
      expect(body).toContain("Someone in the United States who told us");
      expect(body).toContain("asked to join our waitlist");
      expect(body).toContain("we keep only your e-mail address, your child's age group, the country and your place in line");
      expect(body).toContain("We never keep your child's e-mail address.");
      expect(body).toContain(`only to tell your family when ${BRAND_NAME} launches`);
      expect(body).toContain("We never pass it on to anyone.");
      expect(body).toContain('see, download or delete it at any time: sign in with this e-mail address on "My place"');
      expect(body).toContain("If you don't answer within 7 days, we delete this request and your e-mail address.");
    }
  });

  it("links My place and the privacy policy's part for parents, and has one button to the parent's page with the signed token", async () => {
    const parent = uniqueEmail("links");
    await ask(parent);
    const mail = await theEmail(parent);
    const button = mail.hrefs.find((href) => href.startsWith("http://localhost/parent?token="));
    expect(button).toBeDefined();
    expect(mail.hrefs).toEqual(["http://localhost/#/me", `http://localhost${FOR_PARENTS_PATH}`, button]);
    expect(mail.bodyHtml).toContain(">Review the request</a>");
    expect(mail.text).toContain(`Review the request: ${button}`);
    expect(mail.text).toContain(`http://localhost${FOR_PARENTS_PATH}`);
    // The button's link opens this request's page.
    const token = new URL(button!).searchParams.get("token")!;
    const page = await open(token);
    expect(page.status).toBe(200);
    expect((await requestOf(parent)).id).toBeGreaterThan(0);
  });

  it("names no country it does not know, and reads at 360 px: one column, no fixed width, inline styles only", async () => {
    const parent = uniqueEmail("no-country");
    await ask(parent, { band: "13_15", country: null });
    const mail = await theEmail(parent);
    expect(mail.text).toContain("Someone who told us they are 13 to 15 gave us");
    expect(mail.text).toContain("we keep only your e-mail address, your child's age group and your place in line");
    expect(mail.bodyHtml).toContain("max-width:560px");
    expect(mail.bodyHtml).not.toMatch(/<style|<table|width="\d|[^-]width:\s*\d{3,}px/);
  });
});
