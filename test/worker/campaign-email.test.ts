import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { campaignBodyProblem, joinedOn, renderCampaignEmail, type CampaignEmailInput } from "../../worker/features/campaigns/content";
import { signUnsubscribe, unsubscribeHeaders, unsubscribeUrl, verifyUnsubscribe } from "../../worker/features/campaigns/unsubscribe/token";
import { signConfirmation } from "../../worker/features/waitlist/keys";
import { createDeps } from "../../worker/deps";

/**
 * Issue 17 §1 and §3: the campaign e-mail's template (escaping, links, plain text, the footer
 * the bulk-mail rules ask for) and the signed unsubscribe link it carries.
 */

const URL = "https://homeworkhelper.app/unsubscribe?token=7.abc.def";
const input = (overrides: Partial<CampaignEmailInput> = {}): CampaignEmailInput => ({
  subject: "We're open",
  body: "Hello!",
  senderName: "Homework Helper Ltd",
  senderPostalAddress: "1 Main Street, Springfield, 12345",
  joinedAt: "2026-11-24T10:00:00.000Z",
  unsubscribeUrl: URL,
  ...overrides,
});

describe("the campaign e-mail (renderCampaignEmail)", () => {
  it("escapes the subject and the body everywhere in the HTML; the plain text keeps them as typed", () => {
    const email = renderCampaignEmail(
      input({ subject: `<script>alert("s")</script> & co`, body: `<img src=x onerror="alert(1)">\n<b>bold</b> & 'quotes'` }),
    );
    expect(email.bodyHtml).not.toContain("<script>");
    expect(email.bodyHtml).not.toContain("<img");
    expect(email.bodyHtml).not.toContain("<b>");
    expect(email.bodyHtml).toContain("&lt;script&gt;alert(&quot;s&quot;)&lt;/script&gt; &amp; co");
    expect(email.bodyHtml).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;<br>\n&lt;b&gt;bold&lt;/b&gt; &amp; &#39;quotes&#39;");
    expect(email.title).toBe(`<script>alert("s")</script> & co`);
    expect(email.bodyText).toContain(`<img src=x onerror="alert(1)">\n<b>bold</b> & 'quotes'`);
  });

  it("a subject is one header line: line breaks and runs of spaces become one space", () => {
    expect(renderCampaignEmail(input({ subject: "  Line one\r\nBcc: someone@example.com \t two  " })).title).toBe(
      "Line one Bcc: someone@example.com two",
    );
  });

  it("a blank line separates paragraphs, a single newline is a line break", () => {
    const { bodyHtml, bodyText } = renderCampaignEmail(input({ body: "First line\nsecond line\r\n\r\n  \nNext paragraph\n\n\n" }));
    const paragraphs = [...bodyHtml.matchAll(/<p style="margin:0 0 16px[^"]*">([\s\S]*?)<\/p>/g)].map((match) => match[1]);
    expect(paragraphs).toEqual(["First line<br>\nsecond line", "Next paragraph"]);
    expect(bodyText).toContain("We're open\n\nFirst line\nsecond line\n\nNext paragraph\n\n--\n");
  });

  it("links: [words](https://…) and bare http(s) addresses become links; nothing else does", () => {
    const body = [
      "Open [the app](https://homeworkhelper.app/start?from=mail&x=1) today.",
      "Or go to https://homeworkhelper.app/faq. Also http://example.org/a.",
      'Not these: [click](javascript:alert(1)) [data](data:text/html,hi) [mail](mailto:a@b.c) "javascript:alert(2)"',
    ].join("\n");
    const { bodyHtml, bodyText } = renderCampaignEmail(input({ body }));
    const hrefs = [...bodyHtml.matchAll(/href="([^"]*)"/g)].map((match) => match[1]);
    expect(hrefs).toEqual([
      "https://homeworkhelper.app/start?from=mail&amp;x=1",
      "https://homeworkhelper.app/faq",
      "http://example.org/a",
      URL.replace(/&/g, "&amp;"),
    ]);
    expect(bodyHtml).toMatch(/<a href="https:\/\/homeworkhelper\.app\/start\?from=mail&amp;x=1"[^>]*>the app<\/a> today\./);
    // The full stop after a bare address is the sentence's, not the link's.
    expect(bodyHtml).toMatch(/>https:\/\/homeworkhelper\.app\/faq<\/a>\. Also/);
    expect(bodyHtml).toContain("[click](javascript:alert(1))");
    expect(bodyHtml).not.toMatch(/href="(javascript|data|mailto):/);
    expect(bodyText).toContain("Open the app (https://homeworkhelper.app/start?from=mail&x=1) today.");
    expect(bodyText).toContain("Or go to https://homeworkhelper.app/faq. Also http://example.org/a.");
  });

  it("links with parentheses (Wikipedia's): the address runs to the balancing ')'; the check and the e-mail read them alike", () => {
    const body = [
      "See [Foo](https://en.wikipedia.org/wiki/Foo_(bar)) now.",
      "(Also https://en.wikipedia.org/wiki/Baz_(qux).) And (https://example.org/a).",
    ].join("\n");
    expect(campaignBodyProblem(body)).toBeNull();
    const { bodyHtml, bodyText } = renderCampaignEmail(input({ body }));
    expect([...bodyHtml.matchAll(/href="([^"]*)"/g)].map((match) => match[1])).toEqual([
      "https://en.wikipedia.org/wiki/Foo_(bar)",
      "https://en.wikipedia.org/wiki/Baz_(qux)",
      "https://example.org/a",
      URL.replace(/&/g, "&amp;"),
    ]);
    expect(bodyHtml).toMatch(/See <a href="https:\/\/en\.wikipedia\.org\/wiki\/Foo_\(bar\)"[^>]*>Foo<\/a> now\./);
    expect(bodyHtml).toMatch(/>https:\/\/en\.wikipedia\.org\/wiki\/Baz_\(qux\)<\/a>\.\) And \(<a [^>]*>https:\/\/example\.org\/a<\/a>\)\./);
    expect(bodyText).toContain("See Foo (https://en.wikipedia.org/wiki/Foo_(bar)) now.");
    expect(bodyHtml).not.toContain("[Foo](");
  });

  it("whatever the e-mail would not make a link of is refused: an unclosed '(' or an address with quotes and spaces", () => {
    expect(campaignBodyProblem("Hi [Foo](https://en.wikipedia.org/wiki/Foo_(bar) there")).toBe(
      'The link "Foo" needs a ")" at the end of its address.',
    );
    expect(campaignBodyProblem('Hi [click](https://example.org/?q= "x")')).toMatch(/^The link "click" must go to/);
    // One without spaces is an address (its quotes and brackets encoded): one link, no raw markdown around it.
    const odd = 'Hi [click](https://example.org/?q="><script>alert(1)</script>)';
    expect(campaignBodyProblem(odd)).toBeNull();
    expect(renderCampaignEmail(input({ body: odd })).bodyHtml).toContain(
      'Hi <a href="https://example.org/?q=%22%3E%3Cscript%3Ealert(1)%3C/script%3E" style=',
    );
    // Accepted bodies render without raw markdown: every [words](…) the check lets through is a link.
    for (const body of ["[a](https://x.test/(1)(2))", "[b](http://x.test/a?b=(c))!", "x [c](https://x.test) y [d](https://y.test/(z))"]) {
      expect(campaignBodyProblem(body), body).toBeNull();
      expect(renderCampaignEmail(input({ body })).bodyHtml, body).not.toMatch(/\[[a-d]\]\(/);
    }
  });

  it("the footer: why (the join date), the unsubscribe link, the sender's name and postal address; in HTML and plain text", () => {
    const { bodyHtml, bodyText } = renderCampaignEmail(input({ senderName: "A & B <Ltd>" }));
    const why = "You're getting this because you joined the Homework Helper waitlist on 24 November 2026.";
    expect(bodyHtml).toContain(why.replace("'", "&#39;"));
    expect(bodyHtml).toMatch(new RegExp(`<a href="${URL.replace(/[.?]/g, "\\$&")}"[^>]*>Unsubscribe</a>`));
    expect(bodyHtml).toContain("A &amp; B &lt;Ltd&gt;");
    expect(bodyHtml).toContain("1 Main Street, Springfield, 12345");
    expect(bodyText).toMatch(
      new RegExp(
        `--\\n${why.replace(/[.]/g, "\\.")}\\nUnsubscribe: ${URL.replace(/[.?]/g, "\\$&")}\\nA & B <Ltd>\\n1 Main Street, Springfield, 12345\\n$`,
      ),
    );
  });

  it("one accessible template: lang, presentation tables, 600 px at most, 16 px text, the brand and the subject as its heading", () => {
    const { bodyHtml } = renderCampaignEmail(input());
    expect(bodyHtml).toMatch(/^<!doctype html>\n<html lang="en"/);
    expect(bodyHtml).toContain("<title>We&#39;re open</title>");
    const tables = [...bodyHtml.matchAll(/<table([^>]*)>/g)].map((match) => match[1]);
    expect(tables.length).toBeGreaterThan(0);
    for (const table of tables) expect(table).toContain('role="presentation"');
    expect(bodyHtml).toContain("max-width:600px");
    expect(bodyHtml).toContain("font-size:16px");
    expect(bodyHtml).toMatch(/<h1[^>]*>We&#39;re open<\/h1>/);
    expect(bodyHtml).toMatch(/>Homework Helper<\/p>/);
    expect(bodyHtml).toContain('name="viewport"');
  });

  it("a test e-mail's subject says so; its body is the same", () => {
    const test = renderCampaignEmail(input({ test: true }));
    const real = renderCampaignEmail(input());
    expect(test.title).toBe("[Test] We're open");
    expect(real.title).toBe("We're open");
    expect(test.bodyText).toBe(real.bodyText);
  });

  it("the join date in words, in UTC (as stored)", () => {
    expect(joinedOn("2026-01-01T23:59:59.000Z")).toBe("1 January 2026");
    expect(joinedOn("not a date")).toBe("not a date");
  });

  it("campaignBodyProblem: an empty body, or a [words](address) link that is not http(s), is refused with words for the operator", () => {
    expect(campaignBodyProblem("Hello [site](https://homeworkhelper.app) and https://x.test")).toBeNull();
    expect(campaignBodyProblem("  \n ")).toBe("Write the e-mail's text.");
    for (const bad of [
      "[click](javascript:alert(1))",
      "[x](data:text/html,hi)",
      "[x](mailto:a@b.c)",
      "[x](/relative)",
      "[x](https://a.test/x y)",
      "[x]()",
    ]) {
      expect(campaignBodyProblem(`Hi ${bad}`), bad).toMatch(/^The link "(x|click)" must go to an address starting with https:\/\//);
    }
  });
});

describe("the signed unsubscribe link", () => {
  const secret = "test-jwt-secret-0123456789abcdef0123456789abcdef";
  const key = "ab".repeat(32);

  it("round-trips the campaign and the mailbox key; any change, another secret or another purpose's signature is refused", async () => {
    const token = await signUnsubscribe(secret, 42, key);
    expect(token).toMatch(/^42\.[0-9a-f]{64}\.[A-Za-z0-9_-]{43}$/);
    expect(await verifyUnsubscribe(secret, token)).toEqual({ campaignId: 42, mailboxKey: key });
    const [cid, mailbox, sig] = token.split(".") as [string, string, string];
    const last = sig.at(-1)!;
    const tampered = [
      `43.${mailbox}.${sig}`,
      `${cid}.${"cd".repeat(32)}.${sig}`,
      `${cid}.${mailbox}.${sig.slice(0, -1)}${last === "A" ? "B" : "A"}`,
      // The last character's two spare bits: another spelling of the same bytes.
      `${cid}.${mailbox}.${sig.slice(0, -1)}${String.fromCharCode(last.charCodeAt(0) ^ 1)}`,
      `${cid}.${mailbox}`,
      `${token}.`,
      "",
    ];
    for (const bad of tampered) expect(await verifyUnsubscribe(secret, bad), bad).toBeNull();
    expect(await verifyUnsubscribe("another-secret-0123456789abcdef0123456789", token)).toBeNull();
    // A confirmation token (another purpose, same secret) never passes.
    expect(await verifyUnsubscribe(secret, await signConfirmation(secret, 42, new Date(Date.now() + 60_000)))).toBeNull();
  });

  it("the URL is on SITE_URL (the request's origin when unset); the headers are RFC 2369 and RFC 8058's", async () => {
    const onSite = await unsubscribeUrl(createDeps({ ...env, SITE_URL: "https://homeworkhelper.app" } as Env), {
      campaignId: 3,
      mailboxKey: key,
      origin: "http://localhost:8787",
    });
    expect(onSite).toMatch(/^https:\/\/homeworkhelper\.app\/unsubscribe\?token=3\.[0-9a-f]{64}\.[A-Za-z0-9_-]{43}$/);
    const local = await unsubscribeUrl(createDeps({ ...env, SITE_URL: "" } as Env), {
      campaignId: 3,
      mailboxKey: key,
      origin: "http://localhost:8787",
    });
    expect(local).toBe(onSite.replace("https://homeworkhelper.app", "http://localhost:8787"));
    expect(unsubscribeHeaders(local)).toEqual({ "List-Unsubscribe": `<${local}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
  });
});
