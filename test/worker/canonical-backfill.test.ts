// Issue 22: addresses stored before they were canonical are moved to their canonical form by the
// cron (worker/features/addresses/canonicalize.ts), a bounded step per run, with a clear rule when
// two stored spellings turn out to be one address.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createDeps } from "../../worker/deps";
import worker from "../../worker/index";
import { canonicalizeAddresses } from "../../worker/features/addresses";
import { STEP } from "../../worker/features/addresses/canonicalize";
import { subjectHash } from "../../worker/features/operator";
import { formerMailboxKey, mailboxKey } from "../../worker/features/waitlist";
import { auditLog, authCodes, authSessions, authUsers, formSubmissions, joinerMail, waitlist } from "../../worker/platform/db/schema";
import { authCall, latestCode, recordingDatabase, verify } from "../support/auth";
import { postJson, testRepository } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

const repo = testRepository();
const secret = env.AUTH_JWT_SECRET;
const at = (day: number) => new Date(Date.UTC(2026, 10, day)).toISOString();
const deps = () => createDeps(env);
const stamp = () => `${Date.now().toString(36)}${crypto.randomUUID().replace(/-/g, "").slice(0, 6)}`;
/** The local part in full-width letters: what NFKC makes plain again. */
const wide = (text: string) => [...text].map((char) => String.fromCodePoint(char.codePointAt(0)! + 0xfee0)).join("");

/** Stores an entry as the version before issue 22 did: the address as typed (NFC, lower-cased) and its key then. */
async function storedBefore(email: string, more: Partial<typeof waitlist.$inferInsert> = {}): Promise<number> {
  await repo.seed(waitlist, [{ email, createdAt: at(1), updatedAt: at(1), mailboxKey: await formerMailboxKey(secret, email), ...more }]);
  return (await repo.findWaitlistEntry(email))!.id;
}

const emails = async (local: string) =>
  (await repo.rowsOf(waitlist)).filter((entry) => entry.email.normalize("NFKC").includes(local)).map((entry) => [entry.id, entry.email]);

beforeEach(async () => {
  // Each case starts the backfill afresh, as on a database a deploy has just migrated, with only its own rows to look at.
  const notAscii = (table: string) => env.DB.prepare(`delete from ${table} where length(email) <> length(cast(email as blob))`);
  await env.DB.batch([
    env.DB.prepare("delete from hwh_backfills"),
    notAscii("hwh_waitlist"),
    notAscii("hwh_auth_users"),
    notAscii("hwh_auth_codes"),
    env.DB.prepare(
      "delete from hwh_form_submissions where length(json_extract(form_data, '$.email')) <> length(cast(json_extract(form_data, '$.email') as blob))",
    ),
  ]);
});

describe("the backfill of addresses stored before they were canonical", () => {
  it("through the cron: an entry, its user, its code and its suppression move; the person signs in as themselves; a second run has nothing to do", async () => {
    const local = `jane${stamp()}`;
    const odd = `${wide(local)}@ｇｍａｉｌ.com`;
    const canonical = `${local}@gmail.com`;
    const id = await storedBefore(odd, { confirmedAt: at(2), confirmSeq: 900_000 + Math.floor(Math.random() * 99_999) });
    const former = await formerMailboxKey(secret, odd);
    await repo.consent.suppress({ mailboxKey: former, reason: "unsubscribed", source: "page", campaignId: null, now: new Date(at(3)) });
    await repo.seed(authUsers, [
      { id: `user-${local}`, email: odd, emailConfirmedAt: at(1), userMetadata: {}, createdAt: at(1), updatedAt: at(1) },
    ]);
    await repo.seed(authSessions, [{ id: `session-${local}`, userId: `user-${local}`, createdAt: at(1), updatedAt: at(1) }]);
    await repo.seed(authCodes, [{ email: odd, codeHash: "x", sentAt: at(1), expiresAt: at(1) }]);
    // The contact form's submission, with the address as it was typed then.
    const typed = `${wide(local.toUpperCase())}@ｇmail.com`;
    await repo.seed(formSubmissions, [{ formName: "contact", formData: { name: "Jane", email: typed, message: "Hi" }, createdAt: at(1) }]);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    const key = await mailboxKey(secret, canonical);
    expect(key).not.toBe(former);
    expect(await repo.findWaitlistEntry(canonical)).toMatchObject({ id, mailboxKey: key, confirmedAt: at(2) });
    expect(await repo.consent.statusOf(key)).toMatchObject({ reason: "unsubscribed" });
    expect(await repo.consent.statusOf(former)).toBeNull();
    expect(await repo.signIn.findUserByEmail(canonical)).toMatchObject({ id: `user-${local}` });
    expect((await repo.rowsOf(authSessions)).filter((session) => session.userId === `user-${local}`)).toHaveLength(1);
    expect((await repo.rowsOf(authCodes)).filter((code) => code.email === odd)).toEqual([]);
    // The operator's look-up (and so the erasure) finds the entry and the submission by the address's canonical form.
    const person = await repo.operator.person(canonical);
    expect(person.waitlist).toMatchObject({ id });
    expect(person.submissions.map((submission) => submission.formData)).toEqual([{ name: "Jane", email: canonical, message: "Hi" }]);

    // A join with the canonical spelling finds the entry: no second row.
    expect([201, 409]).toContain((await postJson("/api/waitlist", { ...ADULT_ANSWER, email: canonical })).status);
    expect(await emails(local)).toEqual([[id, canonical]]);

    // Typed either way, the address signs in as the same user.
    expect((await authCall("POST", "/otp", { email: `${local}@ｇmail.com` })).status).toBe(200);
    const response = await verify(canonical, await latestCode(canonical));
    expect(((await response.json()) as { user: { id: string } }).user.id).toBe(`user-${local}`);

    const again = await canonicalizeAddresses(deps());
    for (const job of ["entries", "users", "codes", "submissions"] as const)
      expect(again[job]).toEqual({ moved: 0, merged: 0, unfixable: 0, finished: true });
  });

  it.each([
    ["a confirmed entry stays over a pending one stored earlier", { odd: false, plain: true }, "plain"],
    ["a confirmed entry stays over a pending one stored later", { odd: true, plain: false }, "odd"],
    ["of two pending entries the earlier stays", { odd: false, plain: false }, "odd"],
    ["of two confirmed entries the earlier stays", { odd: true, plain: true }, "odd"],
  ])("two spellings of one address: %s, and the other goes with its mails", async (_name, confirmed, stays) => {
    const local = `kim${stamp()}`;
    const seq = () => 800_000 + Math.floor(Math.random() * 99_999);
    const confirmation = (is: boolean) => (is ? { confirmedAt: at(2), confirmSeq: seq() } : {});
    // The odd spelling was stored first.
    const oddId = await storedBefore(`${wide(local)}@example.org`, confirmation(confirmed.odd));
    const plainId = await storedBefore(`${local}@example.org`, confirmation(confirmed.plain));
    await repo.seed(joinerMail, [
      { entryId: oddId, kind: "confirm", createdAt: at(1) },
      { entryId: plainId, kind: "confirm", createdAt: at(1) },
    ]);

    const report = await canonicalizeAddresses(deps());
    expect(report.entries).toMatchObject({ moved: 0, merged: 1, finished: true });
    const kept = stays === "odd" ? oddId : plainId;
    expect(await emails(local)).toEqual([[kept, `${local}@example.org`]]);
    expect(await repo.findWaitlistEntry(`${local}@example.org`)).toMatchObject({
      confirmedAt: (stays === "odd" ? confirmed.odd : confirmed.plain) ? at(2) : null,
      mailboxKey: await mailboxKey(secret, `${local}@example.org`),
    });
    expect((await repo.rowsOf(joinerMail)).filter((mail) => [oddId, plainId].includes(mail.entryId)).map((mail) => mail.entryId)).toEqual([
      kept,
    ]);
    // The entry that went is in the audit trail, named by the address's audit hash only.
    const subject = await subjectHash(secret, `${local}@example.org`);
    const records = (await repo.rowsOf(auditLog)).filter((record) => record.subjectHash === subject);
    expect(records).toEqual([expect.objectContaining({ action: "address.merged", operator: "backfill" })]);
    expect(records[0]!.details).toMatchObject({ table: "waitlist", kept_id: kept, dropped_id: kept === oddId ? plainId : oddId });
  });

  it("one inbox, two addresses: after the run they share the mailbox key, so the one-e-mail-per-inbox audience counts them once", async () => {
    const local = `ann${stamp()}`;
    const tag = `tag${stamp()}`;
    const seq = () => 700_000 + Math.floor(Math.random() * 99_999);
    const confirmed = () => {
      const confirmSeq = seq();
      return { confirmedAt: at(2), confirmSeq, rankKey: confirmSeq, utmSource: tag };
    };
    // Stored before: a sub-address of the inbox in full-width letters, and the inbox itself in ASCII (its key then is its key today).
    await storedBefore(`${wide(local)}+1@ｇｍａｉｌ.com`, confirmed());
    await storedBefore(`${local}@gmail.com`, confirmed());
    const audience = { kind: "all" as const, utm_source: tag };
    expect(await repo.campaigns.audienceSize(audience)).toBe(2);

    expect((await canonicalizeAddresses(deps())).entries).toMatchObject({ moved: 1, merged: 0 });
    expect(await emails(local)).toEqual([
      [expect.any(Number), `${local}+1@gmail.com`],
      [expect.any(Number), `${local}@gmail.com`],
    ]);
    expect(await repo.campaigns.audienceSize(audience)).toBe(1);
  });

  it("an address already canonical is left alone; one that cannot be made canonical is left and counted, once", async () => {
    const local = stamp();
    await storedBefore(`ünal${local}@example.org`);
    await storedBefore(`a＠b${local}@example.org`);
    const submission = (email: string) => ({ formName: "contact", formData: { name: "Ada", email, message: "Hi" }, createdAt: at(1) });
    await repo.seed(formSubmissions, [submission(`ünal${local}@example.org`), submission(`a＠b${local}@example.org`)]);
    const report = await canonicalizeAddresses(deps());
    expect(report.entries).toEqual({ moved: 0, merged: 0, unfixable: 1, finished: true });
    expect(report.submissions).toEqual({ moved: 0, merged: 0, unfixable: 1, finished: true });
    expect(
      (await repo.rowsOf(waitlist))
        .filter((entry) => entry.email.includes(local))
        .map((entry) => entry.email)
        .sort(),
    ).toEqual([`a＠b${local}@example.org`, `ünal${local}@example.org`]);
    expect((await repo.rowsOf(formSubmissions)).map((row) => row.formData.email).filter((email) => String(email).includes(local))).toEqual([
      `ünal${local}@example.org`,
      `a＠b${local}@example.org`,
    ]);
    const again = await canonicalizeAddresses(deps());
    expect([again.entries.unfixable, again.submissions.unfixable]).toEqual([0, 0]);
  });

  it(`moves at most ${STEP} rows of a table per run, from where the last run stopped, and then stops looking`, async () => {
    const local = stamp();
    const count = STEP + 5;
    // In tens: D1 takes at most 100 bound values a statement.
    for (let start = 0; start < count; start += 10) {
      const rows = Array.from({ length: Math.min(10, count - start) }, (_, index) => start + index);
      await repo.seed(
        waitlist,
        rows.map((index) => ({ email: `${wide("p")}${index}x${local}@example.org`, createdAt: at(1), updatedAt: at(1) })),
      );
    }
    const first = await canonicalizeAddresses(deps());
    expect(first.entries).toEqual({ moved: STEP, merged: 0, unfixable: 0, finished: false });
    const second = await canonicalizeAddresses(deps());
    expect(second.entries).toEqual({ moved: 5, merged: 0, unfixable: 0, finished: true });
    const stored = (await repo.rowsOf(waitlist)).filter((entry) => entry.email.endsWith(`x${local}@example.org`));
    expect(stored).toHaveLength(count);
    expect(stored.every((entry) => entry.email.startsWith("p"))).toBe(true);

    // Finished: one read of its progress, not of the table.
    const statements: string[] = [];
    const recording = { ...env, DB: recordingDatabase(statements) } as Env;
    await canonicalizeAddresses(createDeps(recording));
    expect(statements.filter((query) => /hwh_waitlist|hwh_auth_users|hwh_auth_codes|hwh_form_submissions/.test(query))).toEqual([]);
  });

  it("its log line holds counts, never an address", async () => {
    const local = `log${stamp()}`;
    await storedBefore(`${wide(local)}@example.org`);
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => lines.push(line));
    await canonicalizeAddresses(deps());
    const line = lines.map((text) => JSON.parse(text) as { event: string }).find((parsed) => parsed.event === "addresses.canonicalized");
    expect(line).toMatchObject({ entries: { moved: 1 } });
    expect(JSON.stringify(line)).not.toMatch(new RegExp(`${local}|@`));
  });
});
