// Issue 22: one mailbox, one address. Every address is put in one canonical form before it is
// stored or keyed (the domain through UTS-46 to ASCII, the local part NFKC and lower-cased), so
// Unicode and international spellings of one inbox meet every per-mailbox rule as one address.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { canonicalMailbox } from "../../worker/features/sign-in";
import { isDisposableAddress } from "../../worker/features/waitlist/disposable";
import { normalizeEmail } from "../../worker/shared/text";
import { WAITLIST_MESSAGES } from "../../worker/shared/waitlist";
import { authCall, expectAuthError, latestCode, verify } from "../support/auth";
import { call, postJson, testRepository } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

const repo = testRepository();
const stamp = () => `${Date.now().toString(36)}${crypto.randomUUID().replace(/-/g, "").slice(0, 6)}`;

describe("the canonical form of an address (worker/shared/text.ts)", () => {
  it.each([
    ["jane@ｇｍａｉｌ.com", "jane@gmail.com"],
    ["jane@𝐠mail.com", "jane@gmail.com"],
    ["ｊａｎｅ@gmail.com", "jane@gmail.com"],
    ["𝐉ane@GMAIL.com", "jane@gmail.com"],
    ["jane@gmail。com", "jane@gmail.com"],
    ["jane@gmail．com", "jane@gmail.com"],
    ["Jane@Bücher.de", "jane@xn--bcher-kva.de"],
    ["jane@xn--bcher-kva.de", "jane@xn--bcher-kva.de"],
    ["jane@XN--BCHER-KVA.DE", "jane@xn--bcher-kva.de"],
    ["jane@bu\u0308cher.de", "jane@xn--bcher-kva.de"],
    ["x1@ｍａｉｌｉｎａｔｏｒ.com", "x1@mailinator.com"],
    ["alice@ｅxample.org", "alice@example.org"],
    ["ﬁona@example.org", "fiona@example.org"],
    ["Ünal@example.org", "ünal@example.org"],
    ["  Jane@Example.COM ", "jane@example.com"],
    ["user.name+tag@sub.example.co.uk", "user.name+tag@sub.example.co.uk"],
  ])("%s is %s", (typed, canonical) => {
    expect(normalizeEmail(typed)).toBe(canonical);
    // A canonical address is its own canonical form, so it can be stored and compared as it is.
    expect(normalizeEmail(canonical)).toBe(canonical);
  });

  it.each([
    ["an @ that NFKC makes of a full-width one", "a＠b@example.com"],
    ["a small commercial at", "a﹫b@example.com"],
    ["a trailing dot made of an ideographic full stop", "jane@gmail.com。"],
    ["an empty label made of full-width dots", "jane@gmail．．com"],
    ["a percent-encoded domain", "jane@ex%61mple.com"],
    ["a slash after mapping", "jane@a／b.com"],
    ["a path", "jane@example.com/x"],
    ["a port", "jane@example.com:25"],
    ["a query", "jane@example.com?x"],
    ["an IPv4 address", "jane@192.0.2.1"],
    ["a hexadecimal IPv4 address", "jane@0x7f.1"],
    ["a label starting with a hyphen", "jane@-example.com"],
    ["an underscore in the domain", "jane@ex_ample.com"],
    ["a space NFKC makes of an ideographic one", "ja\u3000ne@example.com"],
    ["no domain", "jane@"],
    ["no @", "jane.example.com"],
  ])("%s cannot be made canonical: refused", (_name, typed) => {
    expect(normalizeEmail(typed)).toBe("");
  });

  it("the per-mailbox rules read the canonical form: the mailbox, the disposable list", () => {
    expect(canonicalMailbox("J.a.n.e+x@ｇｍａｉｌ.com")).toBe("jane@gmail.com");
    expect(canonicalMailbox("jane+1@ｇｏｏｇｌｅｍａｉｌ.com")).toBe("jane@gmail.com");
    expect(isDisposableAddress("x1@ｍａｉｌｉｎａｔｏｒ.com")).toBe(true);
  });
});

describe("every form stores the canonical address and refuses what cannot be made one", () => {
  it("the waitlist: two spellings of one address are one entry", async () => {
    const local = `wide${stamp()}`;
    const wide = [...local].map((char) => String.fromCodePoint(char.codePointAt(0)! + 0xfee0)).join("");
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email: `${wide}@ｅxample.org` })).status).toBe(201);
    const entry = await repo.findWaitlistEntry(`${local}@example.org`);
    expect(entry).toBeDefined();
    const again = await postJson("/api/waitlist", { ...ADULT_ANSWER, email: `${local}@example.org` });
    expect([201, 409]).toContain(again.status);
    const rows = await env.DB.prepare("select email from hwh_waitlist where email like ?").bind(`%${local}%`).all<{ email: string }>();
    expect(rows.results).toEqual([{ email: `${local}@example.org` }]);
  });

  it("the waitlist and the contact form refuse an address that cannot be made canonical, in the spec's words", async () => {
    for (const email of ["a＠b@example.com", "jane@gmail.com。", "jane@ex%61mple.com"]) {
      const join = await postJson("/api/waitlist", { ...ADULT_ANSWER, email });
      expect(join.status, email).toBe(400);
      expect(((await join.json()) as { error: { message: string } }).error.message).toBe(WAITLIST_MESSAGES.emailInvalid);
      const form = await postJson("/api/forms/contact", { name: "Ada", email, message: "Hello" });
      expect(form.status, email).toBe(400);
      expect(JSON.stringify(await form.json())).toContain("Please enter a valid email address");
      await expectAuthError(await authCall("POST", "/otp", { email }), 400, "validation_failed");
    }
  });

  it("the contact form stores the canonical address", async () => {
    const local = `contact${stamp()}`;
    expect((await postJson("/api/forms/contact", { name: "Ada", email: `${local}@Bücher.de`, message: "Hello" })).status).toBe(201);
    const row = await env.DB.prepare("select form_data from hwh_form_submissions where form_data like ?")
      .bind(`%${local}%`)
      .first<{ form_data: string }>();
    expect(JSON.parse(row!.form_data).email).toBe(`${local}@xn--bcher-kva.de`);
  });

  it("sign-in: a code asked for with one spelling is e-mailed to the canonical address and verified with another", async () => {
    const local = `signin${stamp()}`;
    expect((await authCall("POST", "/otp", { email: `${local}@Bücher.de` })).status).toBe(200);
    const code = await latestCode(`${local}@xn--bcher-kva.de`);
    const response = await verify(`${local.toUpperCase()}@xn--BCHER-kva.de`, code);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { user: { email: string } }).user.email).toBe(`${local}@xn--bcher-kva.de`);
  });
});

describe("the attacks of issue 22, with Unicode spellings of one inbox", () => {
  const HOUR = 3_600_000;
  let start = 0;
  beforeEach(() => {
    start = Math.ceil(Date.now() / HOUR) * HOUR + HOUR;
    vi.useFakeTimers({ toFake: ["Date"] });
  });

  it("8 spellings of one inbox get no more than the hourly cap of codes (5)", async () => {
    const local = `jane${stamp()}`;
    const spellings = [
      `${local}@gmail.com`,
      `${local}@ｇｍａｉｌ.com`,
      `${local}@𝐠mail.com`,
      `${local}@gmail。com`,
      `${local.toUpperCase()}@GMAIL.COM`,
      `${local}@ｇmail.com`,
      `${local}@gｍail.com`,
      `${local}@𝐠𝐦𝐚𝐢𝐥.com`,
    ];
    const statuses = [];
    for (const [index, email] of spellings.entries()) {
      vi.setSystemTime(start + index * 2000);
      statuses.push((await authCall("POST", "/otp", { email }, { overrides: { AUTH_CODE_COOLDOWN_SECONDS: "1" } })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const mails = await env.DB.prepare("select receivers from hwh_dev_mailbox where receivers like ? and title like '%sign-in code%'")
      .bind(`%${local}%`)
      .all<{ receivers: string }>();
    expect(mails.results.map((row) => row.receivers)).toEqual(Array(5).fill(JSON.stringify([`${local}@gmail.com`])));
  });

  it("6 joins with 6 spellings get no more than the day's cap of confirmation e-mails (3)", async () => {
    const local = `kid${stamp()}`;
    const spellings = ["example.org", "ｅxample.org", "ｅｘａｍｐｌｅ.org", "example。org", "EXAMPLE.ORG", "𝐞xample.org"];
    for (const domain of spellings)
      expect([201, 409]).toContain((await postJson("/api/waitlist", { ...ADULT_ANSWER, email: `${local}@${domain}` })).status);
    const mails = await env.DB.prepare("select receivers from hwh_dev_mailbox where receivers like ? and title like 'Confirm your place%'")
      .bind(`%${local}%`)
      .all<{ receivers: string }>();
    expect(mails.results.map((row) => row.receivers)).toEqual(Array(3).fill(JSON.stringify([`${local}@example.org`])));
  });

  it("x1@ｍａｉｌｉｎａｔｏｒ.com is refused as a disposable address", async () => {
    const response = await postJson("/api/waitlist", { ...ADULT_ANSWER, email: `x1${stamp()}@ｍａｉｌｉｎａｔｏｒ.com` });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(WAITLIST_MESSAGES.emailDisposable);
  });

  it("alice@ｅxample.org with Alice's own referral code earns her nothing", async () => {
    vi.useRealTimers();
    const local = `alice${stamp()}`;
    const atOnce = { WAITLIST_DOUBLE_OPT_IN: "false" };
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email: `${local}@example.org` }, atOnce)).status).toBe(201);
    const alice = (await repo.findWaitlistEntry(`${local}@example.org`))!;
    for (const email of [`${local}@ｅxample.org`, `${local}+2@ｅｘａｍｐｌｅ.org`, `ａ${local.slice(1)}+3@example.org`]) {
      const response = await call(
        "/api/waitlist",
        {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ ...ADULT_ANSWER, email, ref: alice.referralCode }),
        },
        atOnce,
      );
      expect([201, 409]).toContain(response.status);
    }
    expect((await repo.findWaitlistEntry(`${local}@example.org`))!.referralsConfirmed).toBe(0);
  });
});
