import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDeps } from "../../worker/deps";
import { FORM_MEDIA_TYPE } from "../../worker/platform/http/body";
import { escapeHtml } from "../../worker/platform/html";
import { placePage, SHARE_BOX_SCRIPT } from "../../worker/features/waitlist/confirm-page";
import { sitePageHtml } from "../../worker/platform/http/site-page";
import { cspHash } from "../../worker/shared/hash";
import { CONFIRM_LINK_PROBLEMS, JOURNEY_TEXT, placeLine, referralRule, shareLinks } from "../../worker/shared/journey-text";
import { confirmationToken } from "../../worker/features/waitlist/tokens";
import { tooManyAttempts } from "../../worker/shared/public-forms";
import { freshNetwork, limitedTo, roomInWindow, rowCounts, secondsLeftInWindow } from "../support/rate-limits";
import { call, postJson, testRepository, uniqueClientIp, uniqueEmail, type EnvOverrides } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

/**
 * Issue 16 §1-2: the confirmation link's page. Opening it (GET) never confirms; its button (a
 * POST from the site's own page) does, once; pressing again says so; a link that cannot be used
 * gets its own page and changes nothing. After confirming: the place, the referral link with its
 * share box, the friends counted, the rule. Server-rendered in the site's style, never stored,
 * its one script allowed by its hash.
 */

const repo = testRepository();
/** What a browser sends when the page's own form is submitted. */
const BROWSER = { "Sec-Fetch-Site": "same-origin", Origin: "http://localhost" };

type Row = {
  confirmed_at: string | null;
  confirm_seq: number | null;
  referral_code: string | null;
  referrals_confirmed: number;
  updated_at: string;
};
const rowOf = (id: number) =>
  env.DB.prepare("select confirmed_at, confirm_seq, referral_code, referrals_confirmed, updated_at from hwh_waitlist where id = ?")
    .bind(id)
    .first<Row>();

/** A new waitlist entry (the spec's join), and its id. */
async function joined(tag = "confirm"): Promise<{ email: string; id: number }> {
  const email = uniqueEmail(tag);
  const response = await postJson("/api/waitlist", { ...ADULT_ANSWER, email, source: "hero" });
  expect(response.status, await response.clone().text()).toBe(201);
  return { email, id: (await repo.findWaitlistEntry(email))!.id };
}

/** A confirmation token for the entry, made as the e-mail's link is (at `now`, carrying its join's referral). */
const tokenFor = async (id: number, now = new Date()) =>
  confirmationToken(
    createDeps(env, () => now),
    id,
    (await repo.waitlist.entryById(id))?.referralJoin ?? null,
  );

const open = (token: string | null, overrides: EnvOverrides = {}) =>
  call(token === null ? "/confirm" : `/confirm?token=${encodeURIComponent(token)}`, {}, overrides);

const press = (token: string, headers: Record<string, string> = BROWSER, overrides: EnvOverrides = {}) =>
  call(
    "/confirm",
    { method: "POST", headers: { "Content-Type": FORM_MEDIA_TYPE, ...headers }, body: new URLSearchParams({ token }).toString() },
    overrides,
  );

let homeStyle: Promise<string> | undefined;
/** The built home page's inline stylesheet. */
function siteStyle(): Promise<string> {
  homeStyle ??= call("/").then(async (response) => /<style>([\s\S]*?)<\/style>/.exec(await response.text())![1]!);
  return homeStyle;
}

/**
 * A page of the site: HTML with `status`, never stored, headed `title`, in the site's stylesheet
 * (allowed by its hash, every class it uses styled), running only the scripts the policy allows
 * by hash and no inline handler or style. Returns the HTML.
 */
async function expectPage(response: Response, status: number, title: string): Promise<string> {
  const html = await response.text();
  expect(response.status, html).toBe(status);
  expect(response.headers.get("Content-Type")).toBe("text/html; charset=UTF-8");
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  expect(html).toContain(`<title>${escapeHtml(`Homework Helper: ${title}`)}</title>`);
  expect(html).toContain(`<h1>${escapeHtml(title)}</h1>`);
  expect(html).not.toMatch(/<[^>]*\s(on\w+|style)=/i);
  const style = await siteStyle();
  const csp = response.headers.get("Content-Security-Policy")!;
  expect(csp).toContain(`style-src 'self' '${await cspHash(style)}';`);
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
  const hashes = await Promise.all(scripts.map(async (script) => ` '${await cspHash(script)}'`));
  expect(csp).toContain(`script-src 'self'${hashes.join("")};`);
  const classes = new Set([...html.matchAll(/class="([^"]+)"/g)].flatMap((match) => match[1]!.split(" ")));
  for (const name of classes) expect(style.includes(`.${name}`), `the stylesheet styles .${name}`).toBe(true);
  return html;
}

describe("GET /confirm: the link's page", () => {
  it("shows the Confirm my place button, a form posting the token back, and confirms nothing", async () => {
    const { id } = await joined();
    const token = await tokenFor(id);
    const before = await rowOf(id);
    const html = await expectPage(await open(token), 200, JOURNEY_TEXT.confirmTitle);
    expect(html).toContain('<form method="post" action="/confirm">');
    expect(html).toContain(`<input type="hidden" name="token" value="${escapeHtml(token)}">`);
    expect(html).toContain(`<button class="button button--primary" type="submit">${JOURNEY_TEXT.confirmButton}</button>`);
    expect(html).not.toContain("<script>");
    // Opened again (a mail scanner, a preview): still nothing changed.
    await open(token);
    expect(await rowOf(id)).toEqual(before);
    expect(before!.confirmed_at).toBeNull();
  });

  it("says a place confirmed before is already confirmed, with the share box", async () => {
    const { id } = await joined();
    const token = await tokenFor(id);
    await press(token);
    const confirmed = await rowOf(id);
    const html = await expectPage(await open(token), 200, placeLine(await placeOf(id)));
    expect(html).toContain(JOURNEY_TEXT.alreadyConfirmed);
    expect(html).toContain(`?ref=${confirmed!.referral_code}`);
    expect(await rowOf(id)).toEqual(confirmed);
  });
});

/** The entry's place as the rule reads it (1 + lower rank keys + same key confirmed earlier). */
async function placeOf(id: number): Promise<number> {
  const row = await env.DB.prepare(
    `select 1 + (select count(*) from hwh_waitlist o where o.confirmed_at is not null and (o.rank_key < w.rank_key
       or (o.rank_key = w.rank_key and o.confirm_seq < w.confirm_seq))) as place from hwh_waitlist w where id = ?`,
  )
    .bind(id)
    .first<{ place: number }>();
  return row!.place;
}

describe("POST /confirm: the button", () => {
  it("confirms: the place, the referral link with Copy and the share links, the friends, the rule", async () => {
    const { id } = await joined();
    const html = await expectPage(await press(await tokenFor(id)), 200, placeLine(await placeOf(id)));
    const row = await rowOf(id);
    expect(row!.confirmed_at).not.toBeNull();
    expect(row!.referral_code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    const link = `http://localhost/?ref=${row!.referral_code}`;
    expect(html).not.toContain(JOURNEY_TEXT.alreadyConfirmed);
    expect(html).toContain(
      `<textarea id="referral-link" class="input waitlist__input share__link" rows="2" readonly spellcheck="false" data-share-link>${link}</textarea>`,
    );
    expect(html).toMatch(/<button class="button button--primary waitlist__submit" type="button" hidden data-share-copy>Copy<\/button>/);
    expect(html).toMatch(/<button class="button share__native" type="button" hidden data-share-native/);
    const links = shareLinks(link);
    for (const href of Object.values(links)) expect(html).toContain(`href="${escapeHtml(href)}"`);
    expect(links.whatsapp).toBe(`https://wa.me/?text=${encodeURIComponent(`${JOURNEY_TEXT.shareText} ${link}`)}`);
    expect(links.telegram).toContain(`https://t.me/share/url?url=${encodeURIComponent(link)}&text=`);
    expect(links.x).toContain(`https://x.com/intent/post?text=`);
    expect(links.email).toMatch(/^mailto:\?subject=.+&body=.+/);
    expect(html).toContain(escapeHtml(referralRule(5)));
    expect(referralRule(5)).toBe("Each friend who joins with your link and confirms moves you up 5 places.");
    expect(html).toContain(`<dt>${JOURNEY_TEXT.friendsPending}</dt><dd>0</dd>`);
    expect(html).toContain(`<dt>${JOURNEY_TEXT.friendsConfirmed}</dt><dd>0</dd>`);
    // The one script is the share box's, as compiled, allowed by its hash (expectPage).
    expect([...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1])).toEqual([SHARE_BOX_SCRIPT]);
  });

  it("pressed again says the place is already confirmed, and changes nothing", async () => {
    const { id } = await joined();
    const token = await tokenFor(id);
    await press(token);
    const first = await rowOf(id);
    const html = await expectPage(await press(token), 200, placeLine(await placeOf(id)));
    expect(html).toContain(`<p class="message message--info" role="status">${escapeHtml(JOURNEY_TEXT.alreadyConfirmed)}</p>`);
    expect(html).toContain(`?ref=${first!.referral_code}`);
    expect(await rowOf(id)).toEqual(first);
  });

  it("shows friends who joined with the link and confirmed, and the place they moved up", async () => {
    const referrer = await joined("referrer");
    await press(await tokenFor(referrer.id));
    const code = (await rowOf(referrer.id))!.referral_code!;
    // Others confirm after the referrer, so a confirmed referral has places to move it up.
    const friends = [await joined("friend"), await joined("friend")];
    // As a join through the link stores it: the code, and that join's value its e-mail's link carries.
    for (const friend of friends) {
      await env.DB.prepare("update hwh_waitlist set referred_by = ?, referral_join = ? where id = ?")
        .bind(code, `join${friend.id}`.padEnd(22, "x"), friend.id)
        .run();
    }
    await press(await tokenFor(friends[0]!.id));
    const html = await expectPage(await open(await tokenFor(referrer.id)), 200, placeLine(await placeOf(referrer.id)));
    expect(html).toContain(`<dt>${JOURNEY_TEXT.friendsPending}</dt><dd>1</dd>`);
    expect(html).toContain(`<dt>${JOURNEY_TEXT.friendsConfirmed}</dt><dd>1</dd>`);
    expect((await rowOf(referrer.id))!.referrals_confirmed).toBe(1);
  });

  it("ends with the way to My place and a sentence on signing in later to see the place, then the way back (issue 22)", async () => {
    const { id } = await joined();
    const token = await tokenFor(id);
    // Just confirmed, and a link opened again later: both end the same way, without any script.
    for (const response of [await press(token), await open(token)]) {
      const html = await expectPage(response, 200, placeLine(await placeOf(id)));
      const end = html.slice(html.indexOf("</section>") + "</section>".length, html.indexOf("</main>"));
      const later =
        /<p>([^<]+)<\/p>\s*<p class="[^"]+"><a class="button[^"]*" href="\/#\/me">([^<]+)<\/a><\/p>\s*<p class="login__home"><a class="button button--link" href="\/">Back to the site<\/a><\/p>/.exec(
          end,
        );
      expect(later, end).not.toBeNull();
      const [, sentence, link] = later!;
      expect(link).toMatch(/My place/);
      expect(sentence).toMatch(/sign in/i);
      expect(sentence).toMatch(/My place/);
      expect(sentence!.match(/[.!?](\s|$)/g), "one sentence").toHaveLength(1);
    }
  });

  it("over CONFIRM_LIMITER (a limit of 1 here): a 429 page with the real wait, and nothing read or written (issue 24)", {
    timeout: 60_000,
  }, async () => {
    await roomInWindow();
    const ip = uniqueClientIp();
    const limited = { CONFIRM_LIMITER: limitedTo(env.CONFIRM_LIMITER, 1) };
    const first = await joined("confirmlimit");
    const second = await joined("confirmlimit");
    expect((await press(await tokenFor(first.id), { ...BROWSER, "CF-Connecting-IP": ip }, limited)).status).toBe(200);
    const before = await rowCounts();
    const refused = await press(await tokenFor(second.id), { ...BROWSER, "CF-Connecting-IP": ip }, limited);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("Retry-After"));
    expect(Math.abs(wait - secondsLeftInWindow())).toBeLessThanOrEqual(1);
    const html = await refused.text();
    expect(html).toContain(escapeHtml(tooManyAttempts(wait)));
    expect(html).toContain(JOURNEY_TEXT.backLink);
    expect(await rowCounts()).toEqual(before);
    expect((await rowOf(second.id))!.confirmed_at).toBeNull();
    // Another network confirms.
    expect((await press(await tokenFor(second.id), { ...BROWSER, "CF-Connecting-IP": uniqueClientIp() }, limited)).status).toBe(200);
  });

  it("a class confirming from one network: 40 presses in a minute, every one confirmed (CONFIRM_LIMITER allows 60)", {
    timeout: 60_000,
  }, async () => {
    const entries = await Promise.all(Array.from({ length: 40 }, () => joined("confirmclass")));
    await roomInWindow();
    const ip = freshNetwork();
    const statuses = [];
    for (const entry of entries) statuses.push((await press(await tokenFor(entry.id), { ...BROWSER, "CF-Connecting-IP": ip })).status);
    expect(statuses).toEqual(entries.map(() => 200));
  });

  it("refuses a press sent by another site's page (403) and confirms nothing", async () => {
    const { id } = await joined();
    const token = await tokenFor(id);
    const forged: Record<string, string>[] = [
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
      { Origin: "https://evil.example" },
    ];
    for (const headers of forged) {
      const html = await expectPage(await press(token, headers), 403, CONFIRM_LINK_PROBLEMS.otherSite.title);
      expect(html).toContain(CONFIRM_LINK_PROBLEMS.otherSite.text);
    }
    expect((await rowOf(id))!.confirmed_at).toBeNull();
  });
});

describe("a link that cannot be used: its own page, and nothing changes", () => {
  const cases: { name: string; problem: "expired" | "invalid" | "unknown"; status: number; token: (id: number) => Promise<string> }[] = [
    // Made 8 days ago: the 7 days (WAITLIST_CONFIRM_TTL_SECONDS' default) have passed.
    { name: "expired", problem: "expired", status: 410, token: (id) => tokenFor(id, new Date(Date.now() - 8 * 86_400_000)) },
    {
      name: "tampered (its signature changed)",
      problem: "invalid",
      status: 400,
      // The signature's first character (all six of its bits are the signature's).
      token: async (id) =>
        (await tokenFor(id)).replace(/\.([^.])([^.]*)$/, (_, first: string, rest: string) => `.${first === "A" ? "B" : "A"}${rest}`),
    },
    {
      name: "tampered (another entry's number)",
      problem: "invalid",
      status: 400,
      token: async (id) => (await tokenFor(id)).replace(/^\d+/, String(id + 1)),
    },
    { name: "not a token", problem: "invalid", status: 400, token: async () => '"><script>alert(1)</script>' },
    { name: "of an entry that does not exist", problem: "unknown", status: 404, token: () => tokenFor(2_000_000_000) },
  ];

  for (const { name, problem, status, token: make } of cases) {
    it(`${name}: ${status}, on opening and on pressing`, async () => {
      const { id } = await joined();
      const token = await make(id);
      const before = await rowOf(id);
      const { title, text } = CONFIRM_LINK_PROBLEMS[problem];
      for (const response of [await open(token), await press(token)]) {
        const html = await expectPage(response, status, title);
        expect(html).toContain(`<p class="message message--error" role="alert">${escapeHtml(text)}</p>`);
        expect(html).toContain('<a class="button button--primary" href="/">Back to the site</a>');
        expect(html).not.toContain("<script");
      }
      expect(await rowOf(id)).toEqual(before);
    });
  }

  it("no token at all, or a press without a form body: 400", async () => {
    await expectPage(await open(null), 400, CONFIRM_LINK_PROBLEMS.invalid.title);
    const response = await call("/confirm", { method: "POST", headers: BROWSER });
    await expectPage(response, 400, CONFIRM_LINK_PROBLEMS.invalid.title);
  });

  it("an entry that left the list (or was erased): 404, and it is not brought back", async () => {
    const { id } = await joined();
    const token = await tokenFor(id);
    await env.DB.prepare("delete from hwh_waitlist where id = ?").bind(id).run();
    await expectPage(await open(token), 404, CONFIRM_LINK_PROBLEMS.unknown.title);
    await expectPage(await press(token), 404, CONFIRM_LINK_PROBLEMS.unknown.title);
    expect(await rowOf(id)).toBeNull();
  });
});

describe("the page's HTML", () => {
  it("escapes every value it shows", () => {
    const link = `https://x.test/?ref=<b>"&'`;
    const html = sitePageHtml(
      placePage({ position: 3, referral_link: link, referrals_pending: 0, referrals_confirmed: 0, referral_boost: 5 }, false),
      [],
    );
    expect(html).not.toContain("<b>");
    expect(html).toContain(`data-share-link>https://x.test/?ref=&lt;b&gt;&quot;&amp;&#39;</textarea>`);
  });

  it("the share box's script is the compiled function, standing alone (no helper of the bundle), and cannot close its element", () => {
    expect(SHARE_BOX_SCRIPT).toMatch(/^\(function shareBoxScript\(words\) \{[\s\S]*\}\)\(\{"copied":"Copied!","copyFailed":".+"\}\);$/);
    expect(SHARE_BOX_SCRIPT).not.toMatch(/__name|__export|import\(|require\(/);
    expect(SHARE_BOX_SCRIPT).not.toMatch(/<\/script|<!--/i);
  });
});
