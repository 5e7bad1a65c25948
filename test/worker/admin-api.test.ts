import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { subjectHash } from "../../worker/features/operator/audit";
import { createDeps } from "../../worker/deps";
import { FORM_MEDIA_TYPE } from "../../worker/platform/http/body";
import { csvCell, csvRow } from "../../worker/platform/http/csv";
import {
  ADMIN_PAGE,
  BREAKDOWN_TOP,
  REFERRERS_TOP,
  STATS_DAYS,
  type Breakdown,
  type AdminPage,
  type AdminStats,
  type AdminSubmission,
  type AdminWaitlistEntry,
  type PersonRecord,
  type RetryResult,
} from "../../worker/shared/admin";
import { confirmationToken } from "../../worker/features/waitlist/tokens";
import { authCall, countAuthRows, jwtPayload, signIn } from "../support/auth";
import { call, postJson, testRepository, uniqueClientIp, uniqueEmail, type EnvOverrides } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";
import { freshNetwork, limitedTo, roomInWindow, rowCounts, secondsLeftInWindow } from "../support/rate-limits";

const OPERATOR = "operator@example.com";
const ADMIN_KEY = "test-admin-key-0123456789abcdef-0123456789";
const JWT_SECRET = "test-jwt-secret-0123456789abcdef0123456789abcdef";
/** The operator list every call of this file runs with, unless a test says otherwise. */
const OPERATORS: EnvOverrides = { OPERATOR_EMAILS: `Someone@Else.test, ${OPERATOR.toUpperCase()}` };

type ErrorBody = { error: { code: string; message: string } };

/** A call to /api/admin with a bearer token (or none). */
function admin(path: string, token: string | null, init: RequestInit = {}, overrides: EnvOverrides = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token !== null) headers.set("Authorization", `Bearer ${token}`);
  return call(`/api/admin${path}`, { ...init, headers }, { ...OPERATORS, ...overrides });
}

/** The body as sent, byte order mark included (Response.text() drops it). */
async function exactText(response: Response): Promise<string> {
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(await response.arrayBuffer());
}

async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

let operatorToken: string;
async function operator(): Promise<string> {
  operatorToken ??= (await signIn(OPERATOR)).access_token;
  return operatorToken;
}

/** A POST with a JSON body. */
const withJson = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** POST /people/lookup or /people/erase about `email`. */
const people = (action: "lookup" | "erase", email: string, token: string | null = ADMIN_KEY) =>
  admin(`/people/${action}`, token, withJson({ email }));

/** Every route of the operator API, with a request that would succeed for an operator. */
const ROUTES: { method: string; path: string; body?: unknown }[] = [
  { method: "GET", path: "/stats" },
  { method: "GET", path: "/waitlist" },
  { method: "GET", path: "/waitlist.csv" },
  { method: "GET", path: "/submissions?form=contact" },
  { method: "GET", path: "/submissions.csv?form=contact" },
  { method: "POST", path: "/notifications/retry" },
  { method: "POST", path: "/people/lookup", body: { email: "nobody@example.com" } },
  { method: "POST", path: "/people/erase", body: { email: "nobody@example.com" } },
];

async function join(email: string, extra: Record<string, unknown> = {}): Promise<void> {
  const response = await postJson("/api/waitlist", { ...ADULT_ANSWER, email, source: "hero", ...extra });
  expect(response.status, await response.clone().text()).toBe(201);
}

async function sendContact(email: string, message = "Hello"): Promise<void> {
  const response = await postJson("/api/forms/contact", { name: "Ada", email, message });
  expect(response.status, await response.clone().text()).toBe(201);
}

describe("who may use /api/admin", () => {
  for (const route of ROUTES) {
    it(`${route.method} ${route.path}: 401 without credentials or with a token that is not valid, 403 for a non-operator, 200 for an operator and for the admin key`, async () => {
      const init = route.body === undefined ? { method: route.method } : withJson(route.body);
      const request = (token: string | null, overrides: EnvOverrides = {}) => admin(route.path, token, init, overrides);

      const none = await request(null);
      expect((await json<ErrorBody>(none, 401)).error.code).toBe("not_signed_in");
      expect(none.headers.get("WWW-Authenticate")).toBe('Bearer realm="operator"');
      expect(none.headers.get("Cache-Control")).toBe("no-store");
      expect((await json<ErrorBody>(await request("not-a-token"), 401)).error.code).toBe("not_signed_in");

      const student = (await signIn(uniqueEmail("student"))).access_token;
      const refused = await request(student);
      expect((await json<ErrorBody>(refused, 403)).error.code).toBe("not_operator");
      expect(refused.headers.get("Cache-Control")).toBe("no-store");

      const ok = await request(await operator());
      expect(ok.status, await ok.clone().text()).toBe(200);
      expect(ok.headers.get("Cache-Control")).toBe("no-store");
      expect((await request(ADMIN_KEY)).status).toBe(200);
    });
  }

  it("checks OPERATOR_EMAILS at every request: removing the address revokes the same token at once", async () => {
    const token = await operator();
    expect((await admin("/stats", token)).status).toBe(200);
    expect((await json<ErrorBody>(await admin("/stats", token, {}, { OPERATOR_EMAILS: "" }), 403)).error.code).toBe("not_operator");
  });

  it("refuses a token after its session was signed out (401)", async () => {
    const email = uniqueEmail("operator");
    const operators = { OPERATOR_EMAILS: email };
    const session = await signIn(email);
    expect((await admin("/stats", session.access_token, {}, operators)).status).toBe(200);
    expect((await authCall("POST", "/logout", undefined, { token: session.access_token })).status).toBe(204);
    expect((await json<ErrorBody>(await admin("/stats", session.access_token, {}, operators), 401)).error.code).toBe("not_signed_in");
  });

  it("does not take a weak admin key, even when it is the configured one", async () => {
    const weak = { AUTH_ADMIN_KEY: "admin" };
    expect((await json<ErrorBody>(await admin("/stats", "admin", {}, weak), 401)).error.code).toBe("not_signed_in");
  });

  it("counts every request of a client network against OPERATOR_LIMITER (a binding), with the right credentials or without: over it 429 with the real wait, nothing written", async () => {
    await roomInWindow();
    const ip = freshNetwork();
    const limit = { OPERATOR_LIMITER: limitedTo(env.OPERATOR_LIMITER, 3) };
    const from = (token: string | null) => admin("/stats", token, { headers: { "CF-Connecting-IP": ip } }, limit);
    expect((await from(null)).status).toBe(401);
    expect((await from(ADMIN_KEY)).status).toBe(200);
    expect((await from(ADMIN_KEY)).status).toBe(200);
    const before = await rowCounts();
    const over = await from(ADMIN_KEY);
    const body = await json<ErrorBody & { error: { retry_after: number } }>(over, 429);
    const wait = Number(over.headers.get("Retry-After"));
    expect(body.error.code).toBe("rate_limited");
    expect(Math.abs(wait - secondsLeftInWindow())).toBeLessThanOrEqual(1);
    expect(body.error.retry_after).toBe(wait);
    expect(body.error.message).toBe(`Too many requests. Try again in ${wait} seconds.`);
    expect(over.headers.get("Cache-Control")).toBe("no-store");
    // Refused without credentials too, and no counter row anywhere.
    expect((await from(null)).status).toBe(429);
    expect(await rowCounts()).toEqual(before);
    // Another network is not affected.
    expect((await admin("/stats", ADMIN_KEY, { headers: { "CF-Connecting-IP": freshNetwork() } }, limit)).status).toBe(200);
  });

  it("answers other methods with 405 and Allow, once the caller is an operator", async () => {
    const response = await admin("/stats", ADMIN_KEY, { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET");
    expect((await admin("/people/lookup", ADMIN_KEY, { method: "GET" })).headers.get("Allow")).toBe("POST");
    expect((await admin("/people/erase", ADMIN_KEY, { method: "DELETE" })).headers.get("Allow")).toBe("POST");
  });

  it("no longer takes an address in the path: GET and DELETE /people/<address> are gone (404)", async () => {
    for (const method of ["GET", "DELETE"]) {
      expect((await admin("/people/nobody%40example.com", ADMIN_KEY, { method })).status, method).toBe(404);
    }
  });
});

/** How many entries a breakdown gives `value` (null: the entries without one), 0 when it is not listed. */
function countIn(breakdown: Breakdown, value: string | null): number {
  if (value === null) return breakdown.none;
  return breakdown.top.find((row) => row.value === value)?.count ?? 0;
}

/** A breakdown adds up to the entries it breaks down. */
const sumOf = (breakdown: Breakdown) => breakdown.top.reduce((sum, row) => sum + row.count, 0) + breakdown.none + breakdown.other.count;

type Row = [string | null, string | null, string | null, string | null, string | null, number, string];

/** Inserts waitlist rows (source, utm_source, utm_medium, utm_campaign, referrer_host, email_sent, created_at) with their own addresses. */
async function insertEntries(rows: Row[]): Promise<void> {
  const insert = env.DB.prepare(
    "insert into hwh_waitlist (email, source, utm_source, utm_medium, utm_campaign, referrer_host, email_sent, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const statements = rows.map((row) => insert.bind(uniqueEmail("stats"), ...row, row[6]));
  for (let i = 0; i < statements.length; i += 200) await env.DB.batch(statements.slice(i, i + 200));
}

describe("GET /api/admin/stats", () => {
  it("counts the waitlist (total, 24 hours, 7 days, per source, campaign and referrer, per day for 30 days), the messages per form and the undelivered notifications", async () => {
    const tag = `t${crypto.randomUUID().slice(0, 8)}`;
    const now = Date.now();
    const ago = (days: number) => new Date(now - days * 86_400_000).toISOString();
    const before = await json<AdminStats>(await admin("/stats", ADMIN_KEY));
    // Ten of each, so the values of this test are among the most frequent whatever else is stored.
    const rows: Row[] = [
      ["hero", `${tag}-news`, `${tag}-email`, `${tag}-launch`, null, 1, ago(0.1)],
      ["cta", `${tag}-news`, `${tag}-email`, `${tag}-launch`, `news.${tag}`, 1, ago(2)],
      ["hero", `${tag}-tiktok`, null, null, `www.${tag}.com`, 0, ago(3)],
      [null, null, null, null, null, 1, ago(40)],
    ];
    await insertEntries(rows.flatMap((row) => Array.from({ length: 10 }, () => row)));
    await sendContact(uniqueEmail("stats"));

    const stats = await json<AdminStats>(await admin("/stats", ADMIN_KEY));

    const change = (read: (s: AdminStats) => number) => read(stats) - read(before);
    expect(change((s) => s.waitlist.total)).toBe(40);
    expect(change((s) => s.waitlist.last24h)).toBe(10);
    expect(change((s) => s.waitlist.last7d)).toBe(30);
    const { waitlist } = stats;
    expect(change((s) => countIn(s.waitlist.bySource, "hero"))).toBe(20);
    expect(change((s) => countIn(s.waitlist.bySource, "cta"))).toBe(10);
    expect(change((s) => s.waitlist.bySource.none)).toBe(10);
    expect([countIn(waitlist.byUtmSource, `${tag}-news`), countIn(waitlist.byUtmSource, `${tag}-tiktok`)]).toEqual([20, 10]);
    expect(change((s) => s.waitlist.byUtmSource.none)).toBe(10);
    expect(countIn(waitlist.byUtmMedium, `${tag}-email`)).toBe(20);
    expect(change((s) => s.waitlist.byUtmMedium.none)).toBe(20);
    expect(countIn(waitlist.byUtmCampaign, `${tag}-launch`)).toBe(20);
    expect(change((s) => s.waitlist.byUtmCampaign.none)).toBe(20);
    expect([countIn(waitlist.byReferrerHost, `news.${tag}`), countIn(waitlist.byReferrerHost, `www.${tag}.com`)]).toEqual([10, 10]);
    expect(change((s) => s.waitlist.byReferrerHost.none)).toBe(20);
    for (const name of ["bySource", "byUtmSource", "byUtmMedium", "byUtmCampaign", "byReferrerHost"] as const) {
      expect(sumOf(waitlist[name]), name).toBe(waitlist.total);
    }

    expect(waitlist.byDay).toHaveLength(STATS_DAYS);
    expect(waitlist.byDay.at(-1)!.date).toBe(new Date().toISOString().slice(0, 10));
    const days = (s: AdminStats) => s.waitlist.byDay.reduce((sum, day) => sum + day.count, 0);
    expect(change(days)).toBe(30);
    expect(waitlist.byDay.find((day) => day.date === ago(2).slice(0, 10))?.count).toBeGreaterThanOrEqual(10);
    expect(change((s) => s.submissions.total)).toBe(1);
    expect(change((s) => countIn(s.submissions.byForm, "contact"))).toBe(1);
    expect(sumOf(stats.submissions.byForm)).toBe(stats.submissions.total);
    // The contact message was delivered to the dev mailbox; the ten entries of three days ago never were.
    expect(change((s) => s.notifications.undelivered)).toBe(10);
    expect(stats.notifications.oldestUndeliveredAt! <= ago(3)).toBe(true);
  });

  it("counts any value a visitor sends as its own text: constructor, __proto__ and a literal (none) are values, apart from no value", async () => {
    const before = await json<AdminStats>(await admin("/stats", ADMIN_KEY));
    const at = new Date().toISOString();
    const some = (value: string | null, n: number): Row[] => Array.from({ length: n }, () => [null, value, null, null, null, 1, at]);
    await insertEntries([
      ...some("constructor", 35),
      ...some("__proto__", 34),
      ...some("(none)", 33),
      ...some("toString", 32),
      ...some(null, 3),
    ]);
    const response = await admin("/stats", ADMIN_KEY);
    const stats = await json<AdminStats>(response.clone());
    const { byUtmSource } = stats.waitlist;
    expect(byUtmSource.top.slice(0, 4)).toEqual([
      { value: "constructor", count: 35 },
      { value: "__proto__", count: 34 },
      { value: "(none)", count: 33 },
      { value: "toString", count: 32 },
    ]);
    expect(byUtmSource.none - before.waitlist.byUtmSource.none).toBe(3);
    expect(sumOf(byUtmSource)).toBe(stats.waitlist.total);
    expect(await response.text()).not.toContain("native code");
  });

  it(`names at most ${BREAKDOWN_TOP} values of a breakdown, most first, and sums the rest as other`, async () => {
    const tag = `many${crypto.randomUUID().slice(0, 8)}`;
    const at = new Date().toISOString();
    await insertEntries(Array.from({ length: 120 }, (_, i): Row => [null, null, null, `${tag}-${i}`, null, 1, at]));
    const response = await admin("/stats", ADMIN_KEY);
    const stats = await json<AdminStats>(response.clone());
    const { byUtmCampaign } = stats.waitlist;
    expect(byUtmCampaign.top).toHaveLength(BREAKDOWN_TOP);
    const counts = byUtmCampaign.top.map((row) => row.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(byUtmCampaign.other.values).toBeGreaterThanOrEqual(120 - BREAKDOWN_TOP);
    expect(byUtmCampaign.other.count).toBeGreaterThanOrEqual(120 - BREAKDOWN_TOP);
    expect(sumOf(byUtmCampaign)).toBe(stats.waitlist.total);
    // Fewer values than the top: none left over.
    expect(stats.waitlist.bySource.other).toEqual({ values: 0, count: 0 });
    expect((await response.text()).length).toBeLessThan(20_000);
  });
});

describe("GET /api/admin/waitlist", () => {
  it("lists entries newest first with their attribution and delivery, searches case-insensitively, and pages with next_cursor", async () => {
    const tag = `page${crypto.randomUUID().slice(0, 8)}`;
    const emails: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const email = `${tag}-${i}@example.com`;
      emails.push(email);
      await join(email, { utm_source: "newsletter", utm_campaign: "launch", referrer_host: "News.Example" });
    }
    const first = await json<AdminPage<AdminWaitlistEntry>>(await admin(`/waitlist?q=${tag.toUpperCase()}&limit=2`, ADMIN_KEY));
    expect(first.items.map((entry) => entry.email)).toEqual([emails[4], emails[3]]);
    expect(first.items[0]).toMatchObject({
      source: "hero",
      utm_source: "newsletter",
      utm_medium: null,
      utm_campaign: "launch",
      referrer_host: "news.example",
      email_sent: true,
      notify_attempts: 1,
    });
    expect(first.items[0]!.email_sent_at).toEqual(expect.any(String));
    expect(first.next_cursor).toEqual(expect.any(String));

    const second = await json<AdminPage<AdminWaitlistEntry>>(
      await admin(`/waitlist?q=${tag}&limit=2&cursor=${first.next_cursor}`, ADMIN_KEY),
    );
    expect(second.items.map((entry) => entry.email)).toEqual([emails[2], emails[1]]);
    const last = await json<AdminPage<AdminWaitlistEntry>>(
      await admin(`/waitlist?q=${tag}&limit=2&cursor=${second.next_cursor}`, ADMIN_KEY),
    );
    expect(last.items.map((entry) => entry.email)).toEqual([emails[0]]);
    expect(last.next_cursor).toBeNull();
  });

  it('searches the campaign fields too, in any case, and answers how many match in all (issue 15: "26-50 of 60")', async () => {
    const tag = `camp${crypto.randomUUID().slice(0, 8)}`;
    const emails = [0, 1, 2].map((i) => uniqueEmail(`plain${i}`));
    // Typed by hand in three posts: one campaign in three spellings, stored as one.
    for (const [i, email] of emails.entries())
      await join(email, { utm_source: ["TikTok", "tiktok", "TIKTOK"][i], utm_campaign: `Launch-${tag}` });
    await join(uniqueEmail("host"), { referrer_host: `WWW.${tag}.example` });

    const first = await json<AdminPage<AdminWaitlistEntry>>(await admin(`/waitlist?q=LAUNCH-${tag.toUpperCase()}&limit=2`, ADMIN_KEY));
    expect(first.items.map((entry) => entry.email)).toEqual([emails[2], emails[1]]);
    expect(first.items.map((entry) => [entry.utm_source, entry.utm_campaign])).toEqual([
      ["tiktok", `launch-${tag}`],
      ["tiktok", `launch-${tag}`],
    ]);
    expect(first.total).toBe(3);
    const second = await json<AdminPage<AdminWaitlistEntry>>(
      await admin(`/waitlist?q=launch-${tag}&limit=2&cursor=${first.next_cursor}`, ADMIN_KEY),
    );
    expect(second).toMatchObject({ items: [{ email: emails[0] }], next_cursor: null, total: 3 });
    // The referring site is searched as well.
    expect(await json<AdminPage<AdminWaitlistEntry>>(await admin(`/waitlist?q=${tag}.EXAMPLE`, ADMIN_KEY))).toMatchObject({ total: 1 });
    // Without a search, the total is of the whole list.
    const all = await json<AdminPage<AdminWaitlistEntry>>(await admin("/waitlist?limit=1", ADMIN_KEY));
    const [counted] = (await env.DB.prepare("select count(*) as n from hwh_waitlist").all<{ n: number }>()).results;
    expect(all.total).toBe(counted!.n);
  });

  it("tells a failed team alert (its error and next try) from one waiting for the digest", async () => {
    const tag = `alert${crypto.randomUUID().slice(0, 8)}`;
    const at = new Date().toISOString();
    const next = new Date(Date.now() + 600_000).toISOString();
    const insert = env.DB.prepare(
      "insert into hwh_waitlist (email, email_sent, notify_attempts, notify_last_error, notify_next_attempt_at, created_at, updated_at) values (?, 0, ?, ?, ?, ?, ?)",
    );
    await env.DB.batch([
      insert.bind(`${tag}-failed@x.test`, 2, "HTTP 502", next, at, at),
      insert.bind(`${tag}-waits@x.test`, 0, null, null, at, at),
    ]);
    const before = await json<AdminStats>(await admin("/stats", ADMIN_KEY));
    expect(before.failedNotifications.count).toBeGreaterThanOrEqual(1);
    expect(before.failedNotifications.nextAttemptAt! <= next).toBe(true);
    const page = await json<AdminPage<AdminWaitlistEntry>>(await admin(`/waitlist?q=${tag}`, ADMIN_KEY));
    expect(
      page.items.map(({ email, notify_last_error, notify_next_attempt_at }) => ({ email, notify_last_error, notify_next_attempt_at })),
    ).toEqual([
      { email: `${tag}-waits@x.test`, notify_last_error: null, notify_next_attempt_at: null },
      { email: `${tag}-failed@x.test`, notify_last_error: "HTTP 502", notify_next_attempt_at: next },
    ]);
  });

  it("takes entries that share one created_at apart by id, none skipped, none twice", async () => {
    const tag = `same${crypto.randomUUID().slice(0, 8)}`;
    const at = new Date().toISOString();
    // Marked notified (email_sent 1): 2,345 pending notifications would reach a cron run's digest
    // in a file that happens to run beside this one (test/worker/notification-digest.test.ts saw 500).
    const insert = env.DB.prepare("insert into hwh_waitlist (email, email_sent, created_at, updated_at) values (?, 1, ?, ?)");
    await env.DB.batch([0, 1, 2, 3].map((i) => insert.bind(`${tag}-${i}@example.com`, at, at)));
    const seen: string[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const page: AdminPage<AdminWaitlistEntry> = await json(
        await admin(`/waitlist?q=${tag}&limit=1${cursor ? `&cursor=${cursor}` : ""}`, ADMIN_KEY),
      );
      seen.push(...page.items.map((entry) => entry.email));
      cursor = page.next_cursor;
    }
    expect(seen).toEqual([3, 2, 1, 0].map((i) => `${tag}-${i}@example.com`));
  });

  it("refuses a limit out of range, a cursor it did not give and an overlong search with 400", async () => {
    for (const query of [
      "limit=0",
      `limit=${ADMIN_PAGE.maxLimit + 1}`,
      "limit=ten",
      "cursor=bm9wZQ",
      "cursor=%%%",
      `q=${"a".repeat(255)}`,
    ]) {
      expect((await json<ErrorBody>(await admin(`/waitlist?${query}`, ADMIN_KEY), 400)).error.code, query).toBe("invalid_request");
    }
  });

  it("treats % and _ in a search as the characters they are", async () => {
    const page = await json<AdminPage<AdminWaitlistEntry>>(await admin("/waitlist?q=%25_%25", ADMIN_KEY));
    expect(page.items).toEqual([]);
  });
});

/**
 * A CSV file read as a spreadsheet would with `separator` as its list separator (RFC 4180, leniently
 * as spreadsheets do: a quote opens a quoted cell only at the start of a cell; text after a closing
 * quote is kept). Rows end at a line break outside quotes.
 */
function readCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  let atStart = true;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
      continue;
    }
    if (char === '"' && atStart) {
      quoted = true;
      atStart = false;
    } else if (char === separator) {
      row.push(cell);
      cell = "";
      atStart = true;
    } else if (char === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      atStart = true;
      i += 1;
    } else {
      cell += char;
      atStart = false;
    }
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** A cell a spreadsheet would run as a formula (leading spaces aside). */
const FORMULA_CELL = /^ *[=+\-@\t\r]/;

/** The cells of every way of splitting the file that begin like a formula (none, in a safe file). */
function formulaCells(text: string): string[] {
  return [",", ";", "\t"].flatMap((separator) =>
    readCsv(text.replace(/^\uFEFF/, ""), separator)
      .flat()
      .filter((cell) => FORMULA_CELL.test(cell)),
  );
}

/** Values that become formulas when a spreadsheet splits them at a comma, a semicolon or a tab. */
const HOSTILE_TEXT = [
  "Eve;=cmd|' /C calc'!A0;",
  "=1+1",
  "+1",
  "-2,3",
  "@SUM(A1)",
  'a,=HYPERLINK("http://evil")',
  "a; +1",
  'say ";=1"',
  "tab\t=1",
  "\t-1",
  "plain",
];

describe("CSV cells", () => {
  it("guards a formula trigger (=, +, -, @, tab, carriage return) at the start and after a comma, semicolon or tab with a leading '", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) expect(csvCell(`${start}1+1`)).toMatch(/^"?'/);
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("\tx")).toBe(`"'\tx"`);
    expect(csvCell("\rx")).toBe(`"'\rx"`);
    expect(csvCell("a=b")).toBe("a=b");
    expect(csvCell("Eve;=cmd|' /C calc'!A0;")).toBe(`"Eve;'=cmd|' /C calc'!A0;"`);
    expect(csvCell("a, -1")).toBe(`"a, '-1"`);
  });

  it("quotes a cell with a comma, semicolon, tab, quote or line break (quotes doubled), and writes nothing for null", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("a;b")).toBe('"a;b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell(null)).toBe("");
    expect(csvCell(12)).toBe("12");
    expect(csvCell(false)).toBe("false");
    expect(csvRow(["a", null, "b,c"])).toBe('a,,"b,c"\r\n');
  });

  it("a row of hostile text has no cell that starts like a formula, split at commas, semicolons or tabs, and reads back as written with commas", () => {
    const text = csvRow(HOSTILE_TEXT);
    expect(formulaCells(text)).toEqual([]);
    // Read as written (commas): the text, with a ' before each trigger that could start a cell.
    expect(readCsv(text, ",")[0]!.map((cell) => cell.replace(/'(?=[=+\-@\t\r])/g, ""))).toEqual(HOSTILE_TEXT);
  });
});

describe("GET /api/admin/waitlist.csv", () => {
  it("exports every entry as RFC 4180 CSV with a header row, quoting and a guard against formulas however the file is split", async () => {
    const hostile = [
      { email: uniqueEmail("csv-formula"), utm_source: '=HYPERLINK("http://evil")', utm_medium: "+1", utm_campaign: "-2,3" },
      { email: uniqueEmail("csv-at"), utm_source: "@SUM(A1)", utm_medium: 'quote"inside', utm_campaign: "two\nlines" },
      { email: uniqueEmail("csv-semicolon"), utm_source: "Eve;=cmd|' /C calc'!A0;", utm_medium: "a; @x", utm_campaign: "spring;=1+1" },
    ];
    for (const entry of hostile) await join(entry.email, entry);
    const response = await admin("/waitlist.csv", ADMIN_KEY);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="waitlist-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await exactText(response);
    expect(
      text.startsWith(
        "\uFEFFid,email,source,utm_source,utm_medium,utm_campaign,referrer_host," +
          "status,confirmed_at,place,referral_code,referred_by,referrals_confirmed,invited_at,invited_campaign_id," +
          "age_band,country,on_behalf_of_child," +
          "email_sent,email_sent_at,created_at,updated_at\r\n",
      ),
    ).toBe(true);
    expect(text.endsWith("\r\n")).toBe(true);
    const line = (email: string) => text.split("\r\n").find((row) => row.includes(`,${email},`))!;
    // Campaign values are stored lower-cased (issue 15).
    // Each joined pending (no place, no code yet, no referrals).
    expect(line(hostile[0]!.email)).toContain(`,hero,"'=hyperlink(""http://evil"")",'+1,"'-2,3",,pending,,,,,0,,,`);
    // Control characters (the line break) are dropped from campaign values when they are stored.
    expect(line(hostile[1]!.email)).toContain(`,hero,'@sum(a1),"quote""inside",twolines,,pending,,,,,0,,,`);
    expect(line(hostile[2]!.email)).toContain(`,hero,"eve;'=cmd|' /c calc'!a0;","a; '@x","spring;'=1+1",,pending,,,,,0,,,`);
    // Then the age band, the country and the on-behalf flag (issue 23), then the team's alert: sent.
    for (const entry of hostile) expect(line(entry.email)).toMatch(/,,(unknown|13_15|16_17|18_plus),[A-Z]{0,2},false,true,/);
    expect(formulaCells(text)).toEqual([]);
  });

  it("the list and the CSV say when an invite wave drew an entry and which campaign (issue 17); null and empty before", async () => {
    const invited = uniqueEmail("csv-invited");
    const waiting = uniqueEmail("csv-waiting");
    await join(invited);
    await join(waiting);
    await env.DB.prepare("update hwh_waitlist set invited_at = ?, invited_campaign_id = ? where email = ?")
      .bind("2026-03-01T09:00:00.000Z", 4321, invited)
      .run();
    const listed = async (email: string) =>
      (await json<AdminPage<AdminWaitlistEntry>>(await admin(`/waitlist?q=${encodeURIComponent(email)}`, ADMIN_KEY))).items[0]!;
    expect(await listed(invited)).toMatchObject({ invited_at: "2026-03-01T09:00:00.000Z", invited_campaign_id: 4321 });
    expect(await listed(waiting)).toMatchObject({ invited_at: null, invited_campaign_id: null });
    const csv = await (await admin("/waitlist.csv", ADMIN_KEY)).text();
    const header = csv.split("\r\n")[0]!.replace("\uFEFF", "").split(",");
    const cell = (email: string, name: string) =>
      csv
        .split("\r\n")
        .find((line) => line.split(",")[1] === email)!
        .split(",")[header.indexOf(name)];
    expect([cell(invited, "invited_at"), cell(invited, "invited_campaign_id")]).toEqual(["2026-03-01T09:00:00.000Z", "4321"]);
    expect([cell(waiting, "invited_at"), cell(waiting, "invited_campaign_id")]).toEqual(["", ""]);
  });

  it("streams more entries than one read takes (1,000), each exactly once", async () => {
    const tag = `bulk${crypto.randomUUID().slice(0, 8)}`;
    const insert = env.DB.prepare("insert into hwh_waitlist (email, created_at, updated_at) values (?, ?, ?)");
    const base = Date.now() - 3_600_000;
    const rows = Array.from({ length: 2_345 }, (_, i) => {
      const at = new Date(base + Math.floor(i / 3) * 1000).toISOString();
      return insert.bind(`${tag}-${i}@example.com`, at, at);
    });
    for (let i = 0; i < rows.length; i += 500) await env.DB.batch(rows.slice(i, i + 500));
    const text = await (await admin("/waitlist.csv", ADMIN_KEY)).text();
    const lines = text.split("\r\n").slice(1, -1);
    const mine = lines.map((row) => row.split(",")[1]!).filter((email) => email.startsWith(`${tag}-`));
    expect(mine).toHaveLength(2_345);
    expect(new Set(mine).size).toBe(2_345);
    // Every row once, whatever else is stored.
    expect(new Set(lines.map((row) => row.split(",")[0])).size).toBe(lines.length);
  });

  it("records each export in the audit trail: who, when, how many rows; never an address", async () => {
    await join(uniqueEmail("exported"));
    const before = Date.now();
    const text = await (await admin("/waitlist.csv", await operator())).text();
    const [record] = await testRepository().operator.auditTrail(1);
    expect(record).toMatchObject({ action: "waitlist.exported", operator: OPERATOR, subjectHash: null });
    expect((record!.details as { rows: number }).rows).toBe(text.split("\r\n").length - 2);
    expect(Date.parse(record!.createdAt)).toBeGreaterThanOrEqual(before - 1000);

    await sendContact(uniqueEmail("exported"));
    await (await admin("/submissions.csv?form=contact", ADMIN_KEY)).text();
    const [submissions] = await testRepository().operator.auditTrail(1);
    expect(submissions).toMatchObject({ action: "submissions.exported", operator: "admin-key", details: { form: "contact" } });
    expect((submissions!.details as { rows: number }).rows).toBeGreaterThanOrEqual(1);
  });
});

describe("GET /api/admin/submissions", () => {
  it("lists a form's messages newest first with their fields and delivery, searchable, paged", async () => {
    const tag = `msg${crypto.randomUUID().slice(0, 8)}`;
    const senders = [uniqueEmail("sender"), uniqueEmail("sender")];
    await sendContact(senders[0]!, `First ${tag}`);
    await sendContact(senders[1]!, `Second ${tag.toUpperCase()}`);
    const first = await json<AdminPage<AdminSubmission>>(await admin(`/submissions?form=contact&q=${tag}&limit=1`, ADMIN_KEY));
    expect(first.items).toHaveLength(1);
    expect(first.items[0]).toMatchObject({
      form: "contact",
      fields: { name: "Ada", email: senders[1], message: `Second ${tag.toUpperCase()}` },
      email_sent: true,
    });
    const second = await json<AdminPage<AdminSubmission>>(
      await admin(`/submissions?form=contact&q=${tag}&limit=1&cursor=${first.next_cursor}`, ADMIN_KEY),
    );
    expect(second.items[0]!.fields.email).toBe(senders[0]);
    expect(second.next_cursor).toBeNull();
  });

  it("answers 404 for a form the site does not have", async () => {
    expect((await json<ErrorBody>(await admin("/submissions?form=nope", ADMIN_KEY), 404)).error.code).toBe("unknown_form");
    expect((await admin("/submissions.csv?form=nope", ADMIN_KEY)).status).toBe(404);
  });

  it("exports a form's messages as CSV, one column per field of the form, guarded and quoted", async () => {
    const email = uniqueEmail("csv-message");
    const response = await postJson("/api/forms/contact", { name: "=cmd|' /C calc'!A0", email, message: 'Line one\nLine "two"' });
    expect(response.status).toBe(201);
    const text = await exactText(await admin("/submissions.csv?form=contact", ADMIN_KEY));
    expect(text.startsWith("\uFEFFid,created_at,name,email,message,email_sent,email_sent_at\r\n")).toBe(true);
    expect(text).toContain(`,'=cmd|' /C calc'!A0,${email},"Line one\nLine ""two""",true,`);
  });

  it("exports a contact name that hides a formula behind a semicolon so that no way of splitting the file runs it", async () => {
    const email = uniqueEmail("csv-semicolon");
    const response = await postJson("/api/forms/contact", { name: "Eve;=cmd|' /C calc'!A0;", email, message: "a;@SUM(1)\n-1" });
    expect(response.status).toBe(201);
    const text = await exactText(await admin("/submissions.csv?form=contact", ADMIN_KEY));
    expect(text).toContain(`,"Eve;'=cmd|' /C calc'!A0;",${email},"a;'@SUM(1)\n'-1",true,`);
    expect(formulaCells(text)).toEqual([]);
  });
});

describe("POST /api/admin/notifications/retry", () => {
  it("makes every undelivered notification due now, answers how many, and records who did it", async () => {
    const tag = `retry${crypto.randomUUID().slice(0, 8)}`;
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const at = new Date().toISOString();
    const insert = env.DB.prepare(
      "insert into hwh_waitlist (email, email_sent, notify_next_attempt_at, created_at, updated_at) values (?, ?, ?, ?, ?)",
    );
    await env.DB.batch([
      insert.bind(`${tag}-w1@x.test`, 0, later, at, at),
      insert.bind(`${tag}-w2@x.test`, 0, later, at, at),
      insert.bind(`${tag}-done@x.test`, 1, later, at, at),
    ]);

    const { requeued } = await json<RetryResult>(await admin("/notifications/retry", await operator(), { method: "POST" }));
    expect(requeued).toBeGreaterThanOrEqual(2);
    const mine = await env.DB.prepare("select email, notify_next_attempt_at as next from hwh_waitlist where email like ? order by email")
      .bind(`${tag}-%`)
      .all<{ email: string; next: string | null }>();
    expect(mine.results).toEqual([
      { email: `${tag}-done@x.test`, next: later },
      { email: `${tag}-w1@x.test`, next: null },
      { email: `${tag}-w2@x.test`, next: null },
    ]);
    const [record] = await testRepository().operator.auditTrail(1);
    expect(record).toMatchObject({ action: "notifications.retried", operator: OPERATOR, details: { requeued } });
  });
});

describe("/api/admin/people/lookup and /erase", () => {
  async function storeEverything(email: string) {
    await join(email, { utm_source: "newsletter" });
    await sendContact(email.toUpperCase(), "Please delete my data");
    await sendContact(email, "Second message");
    const session = await signIn(email);
    return session;
  }

  it("lookup answers everything stored about the address in one document", async () => {
    const email = uniqueEmail("person");
    const other = uniqueEmail("bystander");
    await sendContact(other, `mentions ${email} in the text only`);
    await storeEverything(email);

    const person = await json<PersonRecord>(await people("lookup", ` ${email.toUpperCase()} `));
    expect(person.email).toBe(email);
    expect(person.waitlist).toMatchObject({ email, utm_source: "newsletter" });
    expect(person.submissions.map((s) => s.fields.message).sort()).toEqual(["Please delete my data", "Second message"]);
    expect(person.user).toMatchObject({ email, email_confirmed_at: expect.any(String) });
    expect(person.user!.sessions).toHaveLength(1);
    expect(person.user!.sessions[0]).toMatchObject({ created_at: expect.any(String) });
    // The code that signed in is used: its record is shown (times only), no longer usable.
    expect(person.sign_in_code).toMatchObject({ sent_at: expect.any(String), usable: false });
    expect(JSON.stringify(person)).not.toMatch(/code_hash|codeHash|token_hash/);
  });

  it("lookup answers nulls and an empty list for an address nothing is stored about, and 400 for what is no address", async () => {
    const person = await json<PersonRecord>(await people("lookup", uniqueEmail("unknown")));
    expect(person).toMatchObject({ waitlist: null, submissions: [], user: null, sign_in_code: null });
    for (const action of ["lookup", "erase"] as const) {
      for (const body of [{ email: "not-an-address" }, { email: 42 }, {}, { mail: "a@b.co" }]) {
        const refused = await admin(`/people/${action}`, ADMIN_KEY, withJson(body));
        expect((await json<ErrorBody>(refused, 400)).error.code, JSON.stringify(body)).toBe("invalid_request");
      }
      const notJson = await admin(`/people/${action}`, ADMIN_KEY, { method: "POST", body: "email=a%40b.co" });
      expect(notJson.status).toBe(415);
    }
  });

  it("erase erases all of it (entry, submissions, user, sessions, refresh tokens, codes), answers the counts, and the address can join again as new", async () => {
    const email = uniqueEmail("erase");
    const bystander = uniqueEmail("bystander");
    await join(bystander);
    await sendContact(bystander, `about ${email}`);
    const session = await storeEverything(email);
    const userId = session.user.id;
    const sessionId = String(jwtPayload(session.access_token).session_id);
    expect(await countAuthRows("hwh_auth_refresh_tokens", "session_id = ?", sessionId)).toBe(1);
    // A code asked for after signing in (past the cooldown): pending, to be erased too.
    await env.DB.prepare("update hwh_auth_codes set sent_at = ? where email = ?")
      .bind(new Date(Date.now() - 120_000).toISOString(), email)
      .run();
    expect((await authCall("POST", "/otp", { email, create_user: true, data: {} })).status).toBe(200);
    expect(await countAuthRows("hwh_auth_codes", "email = ? and code_hash is not null", email)).toBe(1);
    const before = await json<PersonRecord>(await people("lookup", email));
    expect(before.sign_in_code).toMatchObject({ sent_at: expect.any(String), expires_at: expect.any(String), usable: true });

    const counts = await json(await people("erase", email, await operator()));
    expect(counts).toEqual({ waitlist: 1, submissions: 2, users: 1 });

    const after = await json<PersonRecord>(await people("lookup", email));
    expect(after).toMatchObject({ waitlist: null, submissions: [], user: null, sign_in_code: null });
    expect(await countAuthRows("hwh_auth_sessions", "user_id = ?", userId)).toBe(0);
    expect(await countAuthRows("hwh_auth_refresh_tokens", "session_id = ?", session.user.id === userId ? sessionId : "")).toBe(0);
    expect(await countAuthRows("hwh_auth_users", "email = ?", email)).toBe(0);
    expect(await countAuthRows("hwh_auth_codes", "email = ?", email)).toBe(0);
    // The session's tokens are dead.
    expect((await authCall("GET", "/user", undefined, { token: session.access_token })).status).toBeGreaterThanOrEqual(401);
    // Nobody else's data went with it.
    const kept = await json<PersonRecord>(await people("lookup", bystander));
    expect(kept.waitlist).not.toBeNull();
    expect(kept.submissions).toHaveLength(1);

    // Joining again is a new entry (201), not a duplicate.
    await join(email);
    // Erasing again finds nothing more than that entry.
    expect(await json(await people("erase", email))).toEqual({
      waitlist: 1,
      submissions: 0,
      users: 0,
    });
  });

  it("writes an audit record of each erasure: operator, time, counts and a keyed hash of the address, never the address", async () => {
    const email = uniqueEmail("audited");
    await join(email);
    const before = Date.now();
    await json(await people("erase", email, await operator()));
    await json(await people("erase", email));

    const [byKey, byOperator] = await testRepository().operator.auditTrail(2);
    const hash = await subjectHash(JWT_SECRET, email);
    expect(byOperator).toMatchObject({
      action: "person.erased",
      operator: OPERATOR,
      subjectHash: hash,
      details: { waitlist: 1, submissions: 0, users: 0 },
    });
    expect(byKey).toMatchObject({
      action: "person.erased",
      operator: "admin-key",
      subjectHash: hash,
      details: { waitlist: 0, submissions: 0, users: 0 },
    });
    expect(Date.parse(byOperator!.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const everything = JSON.stringify(await env.DB.prepare("select * from hwh_audit_log").all());
    expect(everything).not.toContain(email);
    expect(everything).not.toContain(email.split("@")[0]);
  });

  it("records each look-up (operator, time, counts, a keyed hash of the address), and the erasure's log line names no address", async () => {
    const email = uniqueEmail("looked-up");
    await join(email);
    const before = Date.now();
    await json(await people("lookup", email, await operator()));
    const [record] = await testRepository().operator.auditTrail(1);
    expect(record).toMatchObject({
      action: "person.looked_up",
      operator: OPERATOR,
      subjectHash: await subjectHash(JWT_SECRET, email),
      details: { waitlist: 1, submissions: 0, users: 0 },
    });
    expect(Date.parse(record!.createdAt)).toBeGreaterThanOrEqual(before - 1000);

    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    const operatorId = String(jwtPayload(await operator()).sub);
    await json(await people("erase", email, await operator()));
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.event === "admin.person_erased");
    expect(logged).toMatchObject({ operator: operatorId, waitlist: 1 });
    expect(lines.join("\n")).not.toContain("@");
  });
});

describe("the joiner's journey for the operator (issue 16)", () => {
  const OPT_IN_OFF: EnvOverrides = { WAITLIST_DOUBLE_OPT_IN: "false" };
  const CODE = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/;

  /** A join from `ip`, with a referral code or none; with OPT_IN_OFF it is confirmed at once. */
  async function joinFrom(ip: string, email: string, ref: string | null, overrides: EnvOverrides = {}): Promise<void> {
    const response = await call(
      "/api/waitlist",
      {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
        body: JSON.stringify({ ...ADULT_ANSWER, email, source: "hero", ...(ref ? { ref } : {}) }),
      },
      overrides,
    );
    expect(response.status, await response.clone().text()).toBe(201);
  }

  /** Confirms the entry as its e-mail's link does: the page's button pressed from `ip`. */
  async function confirmFrom(ip: string, email: string): Promise<void> {
    const { id, referralJoin } = (await testRepository().findWaitlistEntry(email))!;
    const token = await confirmationToken(
      createDeps(env, () => new Date()),
      id,
      referralJoin,
    );
    const response = await call("/confirm", {
      method: "POST",
      headers: {
        "Content-Type": FORM_MEDIA_TYPE,
        "Sec-Fetch-Site": "same-origin",
        Origin: "http://localhost",
        "CF-Connecting-IP": ip,
      },
      body: new URLSearchParams({ token }).toString(),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }

  async function entryOf(email: string): Promise<AdminWaitlistEntry> {
    const page = await json<AdminPage<AdminWaitlistEntry>>(await admin(`/waitlist?q=${encodeURIComponent(email)}`, ADMIN_KEY));
    expect(page.items).toHaveLength(1);
    return page.items[0]!;
  }

  /**
   * A referrer confirmed at once, six friends through its link who confirmed (five from one
   * network, a school's address, one from another), and one friend still pending.
   */
  async function referrerWithFriends() {
    const tag = `ref${crypto.randomUUID().slice(0, 8)}`;
    const referrer = `${tag}-referrer@example.com`;
    await joinFrom(uniqueClientIp(), referrer, null, OPT_IN_OFF);
    const code = (await entryOf(referrer)).referral_code!;
    const school = uniqueClientIp();
    const friends = Array.from({ length: 6 }, (_, i) => `${tag}-friend${i}@example.com`);
    for (const [i, friend] of friends.entries()) {
      await joinFrom(uniqueClientIp(), friend, code);
      await confirmFrom(i < 5 ? school : uniqueClientIp(), friend);
    }
    const pending = `${tag}-pending@example.com`;
    await joinFrom(uniqueClientIp(), pending, code);
    return { tag, referrer, code, school, friends, pending };
  }

  it("stats: pending and confirmed, the confirmation rate, confirmed referrals, the viral coefficient, top referrers and flagged networks (never the network)", async () => {
    const before = await json<AdminStats>(await admin("/stats", ADMIN_KEY));
    const { referrer, code, school } = await referrerWithFriends();
    const response = await admin("/stats", ADMIN_KEY);
    const text = await response.clone().text();
    const stats = await json<AdminStats>(response);
    // Eight joined: the referrer and six friends confirmed, one friend pending.
    expect(stats.waitlist.total - before.waitlist.total).toBe(8);
    expect(stats.waitlist.confirmed - before.waitlist.confirmed).toBe(7);
    expect(stats.waitlist.pending - before.waitlist.pending).toBe(1);
    expect(stats.waitlist.pending + stats.waitlist.confirmed).toBe(stats.waitlist.total);
    expect(stats.waitlist.confirmationRate).toBeCloseTo(stats.waitlist.confirmed / stats.waitlist.total, 10);
    expect(stats.referrals.confirmed - before.referrals.confirmed).toBe(6);
    expect(stats.referrals.viralCoefficient).toBeCloseTo(stats.referrals.confirmed / stats.waitlist.confirmed, 10);
    expect(stats.referrals.top).toContainEqual({ email: referrer, code, referrals: 6 });
    expect(stats.referrals.top.length).toBeLessThanOrEqual(REFERRERS_TOP);
    // Five from the school's network reach REFERRAL_NETWORK_FLAG (5): flagged, the network never named.
    expect(stats.referrals.flagAt).toBe(5);
    expect(stats.referrals.flagged).toContainEqual({ email: referrer, code, referrals: 6, fromOneNetwork: 5 });
    expect(text).not.toContain(school);
    for (const row of stats.referrals.flagged) expect(Object.keys(row).sort()).toEqual(["code", "email", "fromOneNetwork", "referrals"]);

    const stricter = await json<AdminStats>(await admin("/stats", ADMIN_KEY, {}, { REFERRAL_NETWORK_FLAG: "6" }));
    expect(stricter.referrals.flagAt).toBe(6);
    expect(stricter.referrals.flagged.map((row) => row.email)).not.toContain(referrer);
  });

  it("stats: the funnel from joined to invited, whose parts add up (issue 22)", async () => {
    const before = await json<AdminStats>(await admin("/stats", ADMIN_KEY));
    await referrerWithFriends();
    const { funnel, waitlist } = await json<AdminStats>(await admin("/stats", ADMIN_KEY));
    expect(funnel.joined).toBe(waitlist.total);
    expect(funnel.confirmed).toBe(waitlist.confirmed);
    expect(funnel.pending).toBe(waitlist.pending);
    expect([funnel.joined - before.funnel.joined, funnel.confirmed - before.funnel.confirmed]).toEqual([8, 7]);
    // Seven new confirmed inboxes nobody invited, held or unsubscribed: all waiting for a wave.
    expect([funnel.inboxes - before.funnel.inboxes, funnel.waiting - before.funnel.waiting]).toEqual([7, 7]);
    expect(funnel.sharedInbox + funnel.unsubscribed + funnel.undeliverable + funnel.invited + funnel.held + funnel.waiting).toBe(
      funnel.confirmed,
    );
    expect(funnel.inboxes).toBe(funnel.confirmed - funnel.sharedInbox);
    expect(funnel.reachable).toBe(funnel.invited + funnel.held + funnel.waiting);
  });

  it("the waitlist list, the look-up and the CSV give status, confirmed_at, place, referral_code, referred_by and referrals", async () => {
    const { tag, referrer, code, friends, pending } = await referrerWithFriends();
    const page = await json<AdminPage<AdminWaitlistEntry>>(await admin(`/waitlist?q=${tag}&limit=3`, ADMIN_KEY));
    expect(page.total).toBe(8);
    const all = [...page.items];
    for (let cursor = page.next_cursor; cursor; ) {
      const next = await json<AdminPage<AdminWaitlistEntry>>(await admin(`/waitlist?q=${tag}&limit=3&cursor=${cursor}`, ADMIN_KEY));
      all.push(...next.items);
      cursor = next.next_cursor;
    }
    const byEmail = new Map(all.map((entry) => [entry.email, entry]));
    expect(byEmail.get(pending)).toMatchObject({
      status: "pending",
      confirmed_at: null,
      place: null,
      referral_code: null,
      referred_by: code,
      referrals_confirmed: 0,
    });
    const top = byEmail.get(referrer)!;
    expect(top).toMatchObject({ status: "confirmed", referral_code: code, referred_by: null, referrals_confirmed: 6 });
    expect(top.referral_code).toMatch(CODE);
    expect(Date.parse(top.confirmed_at!)).toBeGreaterThan(Date.now() - 60_000);
    // Each place is the journey's own (two counts for one entry), whichever page it was listed on.
    const repo = testRepository();
    for (const entry of all) {
      const stored = (await repo.findWaitlistEntry(entry.email))!;
      expect(entry.place, entry.email).toBe(await repo.waitlist.placeOf(stored));
    }
    // Six referrals moved the referrer 30 places up: ahead of every friend, who confirmed after it.
    for (const friend of friends) {
      expect(byEmail.get(friend)).toMatchObject({ status: "confirmed", referred_by: code, referrals_confirmed: 0 });
      expect(byEmail.get(friend)!.place!).toBeGreaterThan(top.place!);
    }
    // No key of the journey leaks: the mailbox and network hashes, the order key, the claim.
    for (const key of ["mailbox_key", "referral_network", "rank_key", "confirm_seq", "confirm_claim"]) expect(top).not.toHaveProperty(key);

    // A code finds its referrer and the friends it brought.
    expect((await json<AdminPage<AdminWaitlistEntry>>(await admin(`/waitlist?q=${code.toLowerCase()}`, ADMIN_KEY))).total).toBe(8);

    const person = await json<PersonRecord>(await people("lookup", referrer));
    expect(person.waitlist).toMatchObject({ status: "confirmed", place: top.place, referral_code: code, referrals_confirmed: 6 });

    const csv = await (await admin("/waitlist.csv", ADMIN_KEY)).text();
    const row = (email: string) =>
      csv
        .split("\r\n")
        .find((line) => line.split(",")[1] === email)!
        .split(",");
    const header = csv.split("\r\n")[0]!.replace("\uFEFF", "").split(",");
    const cell = (email: string, name: string) => row(email)[header.indexOf(name)];
    expect([
      cell(referrer, "status"),
      cell(referrer, "place"),
      cell(referrer, "referral_code"),
      cell(referrer, "referrals_confirmed"),
    ]).toEqual(["confirmed", String(top.place), code, "6"]);
    expect(cell(referrer, "confirmed_at")).toBe(top.confirmed_at);
    expect([cell(pending, "status"), cell(pending, "place"), cell(pending, "referred_by")]).toEqual(["pending", "", code]);
  });
});
