// Issue 23 §2: a child below the consent age asks a parent (worker/features/parents askParent):
// what is stored (never the child's address), the parent's address canonical, refused addresses,
// the per-mailbox daily cap, the e-mail sent after the answer.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDeps } from "../../worker/deps";
import { askParent } from "../../worker/features/parents";
import { joinConfirmed, leaveWaitlist, mailboxKeys } from "../../worker/features/waitlist";
import { ApiError } from "../../worker/platform/http/errors";
import { AGE_MESSAGES } from "../../worker/shared/age";
import { WAITLIST_MESSAGES } from "../../worker/shared/waitlist";
import { call, uniqueEmail, testEnv } from "../support/worker";
import { ask, mailsTo, repo, requestOf, requestsOf } from "./parents-support";

describe("a child's request for a parent's consent", () => {
  it("stores the parent's canonical address, its mailbox key, the band, the country and the time; the child's address is in no row of any table", async () => {
    const child = uniqueEmail("child-never-stored");
    const local = uniqueEmail("Parent").split("@")[0]!;
    const typed = `  ${local.toUpperCase()}@Example.COM `;
    const parent = `${local.toLowerCase()}@example.com`;
    const before = Date.now();
    // The join routes never hand the child's address over: the request is all askParent gets.
    const stored = await ask(typed, { band: "13_15", country: "DE" });
    expect("at" in stored).toBe(true);

    const request = await requestOf(parent);
    const [key] = await mailboxKeys(env.AUTH_JWT_SECRET, parent);
    expect(request).toMatchObject({ parentEmail: parent, mailboxKey: key, ageBand: "13_15", country: "DE", origin: "http://localhost" });
    expect(request.nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Date(request.createdAt).getTime()).toBeGreaterThanOrEqual(before - 1000);

    // Every row of every table: the child's address nowhere, the parent's only in the request and its e-mail.
    const everything = JSON.stringify(await repo.everyRow());
    expect(everything).not.toContain(child);
    expect(everything.toLowerCase()).not.toContain(child.toLowerCase());
    const holders = Object.entries(await repo.everyRow())
      .filter(([, rows]) => JSON.stringify(rows).includes(parent))
      .map(([table]) => table)
      .sort();
    expect(holders).toEqual(["hwh_dev_mailbox", "hwh_parental_requests"]);
    // No waitlist entry until the parent agrees.
    expect(await repo.findWaitlistEntry(parent)).toBeUndefined();
  });

  it("sends the e-mail after the answer, to the parent only, and records it sent", async () => {
    const parent = uniqueEmail("parent-sent");
    const deps = createDeps(env);
    const stored = await askParent(deps, { parentEmail: parent, band: "under_13", country: "US", origin: "http://localhost" });
    // Nothing is sent before the answer: the work after it is the store's `after`.
    expect(await mailsTo(parent)).toHaveLength(0);
    expect((await requestOf(parent)).sentAt).toBeNull();
    await stored.after?.();
    const mails = await mailsTo(parent);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.receivers).toEqual([parent]);
    const request = await requestOf(parent);
    expect(request.sentAt).not.toBeNull();
    expect(request).toMatchObject({ attempts: 1, claim: null, lockedUntil: null, lastError: null });
  });

  it("refuses a disposable address or no address at the parent_email field, and stores nothing", async () => {
    const deps = createDeps(env);
    const refused = async (parentEmail: string) => {
      const error = await askParent(deps, { parentEmail, band: "under_13", country: null, origin: "" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      return error as ApiError;
    };
    const disposable = await refused("someone@mailinator.com");
    expect(disposable.status).toBe(400);
    expect(disposable.details).toMatchObject({ field: "parent_email", fields: { parent_email: WAITLIST_MESSAGES.emailDisposable } });
    const notAddress = await refused("not an address");
    expect(notAddress.details).toMatchObject({ field: "parent_email", fields: { parent_email: AGE_MESSAGES.parentEmailInvalid } });
    expect(await requestsOf("someone@mailinator.com")).toEqual([]);
  });
});

describe("the parent's mailbox's daily cap (WAITLIST_CONFIRM_DAILY_LIMIT, the confirmations' own)", () => {
  it("a child cannot make the product mail a stranger more than the cap: past it the answer is the same, nothing is stored or sent", async () => {
    const parent = uniqueEmail("stranger");
    const overrides = { WAITLIST_CONFIRM_DAILY_LIMIT: "2" };
    for (let i = 0; i < 5; i++) {
      const stored = await ask(parent, { overrides });
      // The child's answer says nothing either way (the join routes answer 202 parent_asked).
      expect("at" in stored).toBe(true);
      expect("refused" in stored).toBe(false);
    }
    expect(await requestsOf(parent)).toHaveLength(2);
    expect(await mailsTo(parent)).toHaveLength(2);
  });

  it("shares the counter with the joiner e-mails: an address that had its welcome today under a cap of 1 gets no parent's e-mail", async () => {
    const parent = uniqueEmail("confirmed-first");
    const overrides = { WAITLIST_CONFIRM_DAILY_LIMIT: "1" };
    const deps = createDeps(testEnv(overrides));
    // A one-click join's welcome counts against the same cap.
    expect(await joinConfirmed(deps, parent)).toBe("joined");
    expect(await leaveWaitlist(deps, parent)).toBe(true);
    expect(await mailsTo(parent)).toHaveLength(1);
    await ask(parent, { overrides });
    expect(await requestsOf(parent)).toEqual([]);
    expect(await mailsTo(parent)).toHaveLength(1);
  });
});

describe("through the join (POST /api/waitlist, a 12-year-old in the US)", () => {
  it("answers 202 parent_asked, stores the request and mails the parent; the child's address is in no row of any table, the request id nowhere in the answer", async () => {
    const child = uniqueEmail("twelve");
    const parent = uniqueEmail("their-parent");
    const now = new Date();
    const response = await call("/api/waitlist", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-IPCountry": "US" },
      body: JSON.stringify({
        email: child,
        birth_month: now.getUTCMonth() + 1,
        birth_year: now.getUTCFullYear() - 12,
        parent_email: parent,
      }),
    });
    const text = await response.text();
    expect(response.status, text).toBe(202);
    expect(JSON.parse(text)).toEqual({ status: "parent_asked", message: AGE_MESSAGES.parentSentTitle });
    const request = await requestOf(parent);
    expect(request).toMatchObject({ ageBand: "under_13", country: "US" });
    expect(text).not.toContain(request.nonce);
    expect(await mailsTo(parent)).toHaveLength(1);
    const everything = JSON.stringify(await repo.everyRow()).toLowerCase();
    expect(everything).not.toContain(child.toLowerCase());
    expect(await repo.findWaitlistEntry(child)).toBeUndefined();
  });
});
