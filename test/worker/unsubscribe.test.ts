import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { UNSUBSCRIBE_PROBLEMS, UNSUBSCRIBE_TEXT } from "../../worker/features/campaigns/unsubscribe/page";
import { maskAddress, signUnsubscribe } from "../../worker/features/campaigns/unsubscribe/token";
import { FORM_MEDIA_TYPE } from "../../worker/platform/http/body";
import { escapeHtml } from "../../worker/platform/html";
import { cspHash } from "../../worker/shared/hash";
import { mailboxKey } from "../../worker/features/waitlist/keys";
import { JWT_SECRET } from "../support/auth";
import { call, testRepository, uniqueEmail } from "../support/worker";

/**
 * Issue 17 §3: the unsubscribe link as the mailbox providers require (RFC 8058). Opening it
 * shows a button and changes nothing; a POST of `List-Unsubscribe=One-Click` unsubscribes at
 * once, with no page, sign-in or origin; the page's button unsubscribes from this site only; a
 * token that is not this server's is a 400 and changes nothing.
 */

const repo = testRepository();
const BROWSER = { "Sec-Fetch-Site": "same-origin", Origin: "http://localhost" };

/** A confirmed waitlist entry (a campaign's recipient), with the mailbox key the join writes, and its link's token (campaign 7). */
async function onTheList(
  email = `s${crypto.randomUUID().slice(0, 8)}01@example.org`,
): Promise<{ email: string; key: string; token: string }> {
  const key = await mailboxKey(JWT_SECRET, email);
  const at = new Date().toISOString();
  await env.DB.prepare(
    `insert into hwh_waitlist (email, mailbox_key, confirmed_at, confirm_seq, rank_key, referral_code, email_sent, created_at, updated_at)
     select ?1, ?2, ?3, coalesce(max(confirm_seq), 0) + 1, 2 * (coalesce(max(confirm_seq), 0) + 1), ?4, 1, ?3, ?3 from hwh_waitlist`,
  )
    .bind(email, key, at, crypto.randomUUID().slice(0, 8))
    .run();
  return { email, key, token: await signUnsubscribe(JWT_SECRET, 7, key) };
}

/** A recipient's mailbox key and the token of their e-mail's link (campaign 7): a confirmed entry of the waitlist. */
async function recipient(tag = "unsub"): Promise<{ key: string; token: string }> {
  const { key, token } = await onTheList(uniqueEmail(tag));
  return { key, token };
}

/** A link's token for a mailbox the list does not know (erased, or an operator's test e-mail). */
async function stranger(tag = "stranger"): Promise<{ key: string; token: string }> {
  const key = await mailboxKey(JWT_SECRET, uniqueEmail(tag));
  return { key, token: await signUnsubscribe(JWT_SECRET, 7, key) };
}

const linkOf = (token: string) => `/unsubscribe?token=${encodeURIComponent(token)}`;
const open = (token: string) => call(linkOf(token));
/** What Gmail or Yahoo posts to the List-Unsubscribe address: server to server, no cookie, no Origin. */
const oneClick = (token: string, init: RequestInit = {}) =>
  call(linkOf(token), { method: "POST", headers: { "Content-Type": FORM_MEDIA_TYPE }, body: "List-Unsubscribe=One-Click", ...init });
/** The page's button: its form posts the token. */
const press = (token: string, headers: Record<string, string> = BROWSER) =>
  call("/unsubscribe", {
    method: "POST",
    headers: { "Content-Type": FORM_MEDIA_TYPE, ...headers },
    body: new URLSearchParams({ token }).toString(),
  });

const rowsOf = async (key: string) => ({ suppression: await repo.consent.statusOf(key), events: await repo.consent.events(key) });

/** A page of the site with `status` and `title`: never stored, no script, every class styled, its stylesheet allowed by hash. */
async function expectPage(response: Response, status: number, title: string): Promise<string> {
  const html = await response.text();
  expect(response.status, html).toBe(status);
  expect(response.headers.get("Content-Type")).toBe("text/html; charset=UTF-8");
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  expect(html).toContain(`<title>${escapeHtml(`Homework Helper: ${title}`)}</title>`);
  expect(html).toContain(`<h1>${escapeHtml(title)}</h1>`);
  expect(html).not.toContain("<script");
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
  expect(response.headers.get("Content-Security-Policy")).toContain(`style-src 'self' '${await cspHash(style)}';`);
  const classes = new Set([...html.matchAll(/class="([^"]+)"/g)].flatMap((match) => match[1]!.split(" ")));
  for (const name of classes) expect(style.includes(`.${name}`), `the stylesheet styles .${name}`).toBe(true);
  return html;
}

describe("GET /unsubscribe: the link's page", () => {
  it("shows the Unsubscribe button, a form posting the token back, and changes nothing however often it is opened", async () => {
    const { key, token } = await recipient();
    const html = await expectPage(await open(token), 200, UNSUBSCRIBE_TEXT.promptTitle);
    expect(html).toContain('<form method="post" action="/unsubscribe">');
    expect(html).toContain(`<input type="hidden" name="token" value="${escapeHtml(token)}">`);
    expect(html).toContain(`<button class="button button--primary" type="submit">${UNSUBSCRIBE_TEXT.button}</button>`);
    await open(token);
    expect(await rowsOf(key)).toEqual({ suppression: null, events: [] });
  });

  it("a changed, cut or missing token: 400 with its own page, and nothing changes", async () => {
    const { key, token } = await recipient();
    const other = await recipient();
    const [cid, , sig] = token.split(".");
    const bad = [`${cid}.${other.key}.${sig}`, `8.${key}.${sig}`, token.slice(0, -1), `${token}x`, ""];
    for (const presented of bad) {
      await expectPage(await open(presented), 400, UNSUBSCRIBE_PROBLEMS.invalid.title);
      const posted = await oneClick(presented);
      expect(posted.status, presented).toBe(400);
      expect(await posted.text()).toBe(UNSUBSCRIBE_TEXT.oneClickInvalid);
      await expectPage(await press(presented), 400, UNSUBSCRIBE_PROBLEMS.invalid.title);
    }
    expect(await rowsOf(key)).toEqual({ suppression: null, events: [] });
    expect(await rowsOf(other.key)).toEqual({ suppression: null, events: [] });
  });
});

describe("POST /unsubscribe with List-Unsubscribe=One-Click (RFC 8058)", () => {
  it("unsubscribes at once: 200 in plain text, no cookie, no origin, no page; the row and its event name the campaign and the one-click", async () => {
    const { key, token } = await recipient();
    const response = await oneClick(token);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.text()).toBe(UNSUBSCRIBE_TEXT.oneClickDone);
    const { suppression, events } = await rowsOf(key);
    expect(suppression).toMatchObject({ mailboxKey: key, reason: "unsubscribed", source: "one-click", campaignId: 7 });
    expect(events).toMatchObject([{ mailboxKey: key, event: "unsubscribed", source: "one-click", campaignId: 7 }]);
  });

  it("works posted from another site too (the provider's servers) and as multipart; twice is the same as once", async () => {
    const { key, token } = await recipient();
    const form = new FormData();
    form.append("List-Unsubscribe", "One-Click");
    const response = await call(linkOf(token), {
      method: "POST",
      headers: { "Sec-Fetch-Site": "cross-site", Origin: "https://mail.example.net" },
      body: form,
    });
    expect(response.status).toBe(200);
    expect((await rowsOf(key)).suppression).toMatchObject({ reason: "unsubscribed", source: "one-click" });
    expect((await oneClick(token)).status).toBe(200);
    expect((await rowsOf(key)).events).toHaveLength(1);
  });

  it("a body longer than a one-click could be is not read as one: nothing changes", async () => {
    const { key, token } = await recipient();
    // From another site, where a short one-click is accepted (above): a long one is not read.
    const response = await oneClick(token, {
      headers: { "Content-Type": FORM_MEDIA_TYPE, "Sec-Fetch-Site": "cross-site" },
      body: `List-Unsubscribe=One-Click&pad=${"x".repeat(8_000)}`,
    });
    expect(response.status).toBe(403);
    expect(await rowsOf(key)).toEqual({ suppression: null, events: [] });
  });

  it("a POST without the one-click body from another site is not a one-click: 403, nothing changes", async () => {
    const { key, token } = await recipient();
    const response = await call(linkOf(token), {
      method: "POST",
      headers: { "Content-Type": FORM_MEDIA_TYPE, "Sec-Fetch-Site": "cross-site" },
      body: "List-Unsubscribe=Something-Else",
    });
    await expectPage(response, 403, UNSUBSCRIBE_PROBLEMS.otherSite.title);
    expect(await rowsOf(key)).toEqual({ suppression: null, events: [] });
  });
});

describe("POST /unsubscribe: the page's button", () => {
  it("unsubscribes and says so; pressed again (or the link opened again) it says it was already done", async () => {
    const { email, key, token } = await onTheList(uniqueEmail("unsub"));
    const masked = maskAddress(email);
    const html = await expectPage(await press(token), 200, UNSUBSCRIBE_TEXT.doneTitle);
    expect(html).toContain(escapeHtml(UNSUBSCRIBE_TEXT.named.doneText(masked)));
    expect(html).toContain('href="/#/me"');
    // How to subscribe again: My place; not joining again, whose 409 duplicate renews nothing.
    expect(html).toContain(escapeHtml(UNSUBSCRIBE_TEXT.again));
    expect(html).not.toContain("join the waitlist again");
    expect(await rowsOf(key)).toMatchObject({
      suppression: { reason: "unsubscribed", source: "page", campaignId: 7 },
      events: [{ source: "page" }],
    });
    const already = escapeHtml(UNSUBSCRIBE_TEXT.named.already(masked));
    expect(await expectPage(await press(token), 200, UNSUBSCRIBE_TEXT.doneTitle)).toContain(already);
    expect(await expectPage(await open(token), 200, UNSUBSCRIBE_TEXT.doneTitle)).toContain(already);
    expect((await rowsOf(key)).events).toHaveLength(1);
  });

  it("a mailbox the list does not know (erased: no entry, no trail; or a test e-mail to an operator): 'not on our list', nothing written", async () => {
    const { key, token } = await stranger("erased");
    const { title, text } = UNSUBSCRIBE_PROBLEMS.notListed;
    for (const html of [await expectPage(await open(token), 200, title), await expectPage(await press(token), 200, title)]) {
      expect(html).toContain(escapeHtml(text));
      expect(html).not.toContain("•");
    }
    const posted = await oneClick(token);
    expect(posted.status).toBe(200);
    expect(await posted.text()).toBe("This address is not on our list: nothing changed.");
    expect(await rowsOf(key)).toEqual({ suppression: null, events: [] });
  });

  it("a mailbox whose entry left the list but whose unsubscribe is on record still answers as before (already unsubscribed)", async () => {
    const { key, token } = await stranger("left");
    await repo.consent.suppress({ mailboxKey: key, reason: "unsubscribed", source: "me", campaignId: null, now: new Date() });
    await expectPage(await press(token), 200, UNSUBSCRIBE_TEXT.doneTitle);
    expect((await rowsOf(key)).events).toHaveLength(1);
  });

  it("a POST that is neither an exact one-click nor a browser's form (no Origin, no Sec-Fetch-Site): 400 in plain text, nothing changes", async () => {
    const { key, token } = await recipient();
    const bodies: [string | undefined, string][] = [
      [FORM_MEDIA_TYPE, "list-unsubscribe=one-click"],
      [FORM_MEDIA_TYPE, "List-Unsubscribe=Yes"],
      ["text/plain", "List-Unsubscribe=One-Click"],
      ["application/json", '{"List-Unsubscribe":"One-Click"}'],
      [FORM_MEDIA_TYPE, ""],
      [FORM_MEDIA_TYPE, `List-Unsubscribe=One-Click&pad=${"x".repeat(8_000)}`],
      [FORM_MEDIA_TYPE, new URLSearchParams({ token }).toString()],
    ];
    for (const [type, body] of bodies) {
      const response = await call(linkOf(token), { method: "POST", headers: type ? { "Content-Type": type } : {}, body });
      expect(response.status, body.slice(0, 40)).toBe(400);
      expect(response.headers.get("Content-Type")).toMatch(/^text\/plain/);
      expect(await response.text()).toMatch(/^A POST here must be the one-click body List-Unsubscribe=One-Click/);
    }
    expect(await rowsOf(key)).toEqual({ suppression: null, events: [] });
    // The page's form sends Origin (every browser does on a POST): still the button.
    await expectPage(await press(token, { Origin: "http://localhost" }), 200, UNSUBSCRIBE_TEXT.doneTitle);
  });

  it("from another site's form: 403, nothing changes", async () => {
    const { key, token } = await recipient();
    await expectPage(
      await press(token, { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" }),
      403,
      UNSUBSCRIBE_PROBLEMS.otherSite.title,
    );
    await expectPage(await press(token, { Origin: "https://evil.example" }), 403, UNSUBSCRIBE_PROBLEMS.otherSite.title);
    expect(await rowsOf(key)).toEqual({ suppression: null, events: [] });
  });
});

describe("which address: the pages name the link's mailbox, masked (the link may be forwarded)", () => {
  it("masks as s•••••01@example.org: the first letter, five bullets, the last two of the local part, the domain", () => {
    expect(maskAddress("student01@example.org")).toBe("s•••••01@example.org");
    expect(maskAddress("ab@example.org")).toBe("a•••••@example.org");
    expect(maskAddress("abcd@example.org")).toBe("a•••••@example.org");
    expect(maskAddress("abcde@example.org")).toBe("a•••••de@example.org");
  });

  it("before, after and already: the masked address, never the whole one", async () => {
    const { email, token } = await onTheList();
    const masked = maskAddress(email);
    expect(masked).toMatch(/^s•••••01@example\.org$/);

    const before = await expectPage(await open(token), 200, UNSUBSCRIBE_TEXT.promptTitle);
    expect(before).toContain(escapeHtml(UNSUBSCRIBE_TEXT.named.promptIntro(masked)));
    const after = await expectPage(await press(token), 200, UNSUBSCRIBE_TEXT.doneTitle);
    expect(after).toContain(escapeHtml(UNSUBSCRIBE_TEXT.named.doneText(masked)));
    const again = await expectPage(await open(token), 200, UNSUBSCRIBE_TEXT.doneTitle);
    expect(again).toContain(escapeHtml(UNSUBSCRIBE_TEXT.named.already(masked)));
    for (const html of [before, after, again]) expect(html).not.toContain(email);
    // The one-click answer is for a mail provider: it names nobody.
    const posted = await oneClick(token);
    expect(await posted.text()).toBe(UNSUBSCRIBE_TEXT.oneClickDone);
  });
});
