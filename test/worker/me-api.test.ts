import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { subjectHash } from "../../worker/features/operator/audit";
import type { PersonRecord } from "../../worker/shared/admin";
import { JOURNEY_TEXT } from "../../worker/shared/journey-text";
import { ME_DATA_FILENAME, ME_ERRORS, ME_ROUTES, type MeAnswer, type MeData, type MeErasure } from "../../worker/shared/me";
import { mailboxKey } from "../../worker/features/waitlist/keys";
import { ADMIN_KEY, JWT_SECRET, signIn } from "../support/auth";
import { call, postJson, testRepository, uniqueEmail, type EnvOverrides } from "../support/worker";

/**
 * Issue 16 §3: the signed-in joiner's own API behind "My place" (/#/me). Every route needs the
 * access token of a sign-in and acts on its address only; none is ever stored by a cache.
 */

type ErrorBody = { error: { code: string; message: string; retry_after?: number } };

/** A call to an /api/me route with a bearer token (or none). */
function me(method: string, path: string, token: string | null, body?: unknown, overrides: EnvOverrides = {}): Promise<Response> {
  const headers = new Headers();
  if (token !== null) headers.set("Authorization", `Bearer ${token}`);
  if (body !== undefined) headers.set("Content-Type", "application/json");
  return call(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, overrides);
}

async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  return JSON.parse(text) as T;
}

/** A signed-in address: its access token. */
async function signedIn(tag: string): Promise<{ email: string; token: string }> {
  const email = uniqueEmail(tag);
  return { email, token: (await signIn(email)).access_token };
}

async function joinWaitlist(email: string): Promise<void> {
  const response = await postJson("/api/waitlist", { email, source: "hero" });
  expect(response.status, await response.clone().text()).toBe(201);
}

const entryOf = (email: string) => testRepository().findWaitlistEntry(email);

/** Every route, with a request that would succeed for someone signed in. */
const ROUTES: { method: string; path: string; body?: unknown }[] = [
  { method: "GET", path: ME_ROUTES.me },
  { method: "POST", path: ME_ROUTES.waitlist },
  { method: "DELETE", path: ME_ROUTES.waitlist },
  { method: "POST", path: ME_ROUTES.confirmation },
  { method: "GET", path: ME_ROUTES.data },
  { method: "POST", path: ME_ROUTES.subscription, body: { subscribed: false } },
  { method: "DELETE", path: ME_ROUTES.me, body: { confirm: "someone@example.com" } },
];

describe("/api/me: only for someone signed in", () => {
  it("answers 401 not_signed_in (the API's error shape) without a token, with a forged one and with the admin key", async () => {
    const forged = `${(await signedIn("forged")).token.slice(0, -4)}AAAA`;
    for (const { method, path, body } of ROUTES) {
      for (const token of [null, "not-a-token", forged, ADMIN_KEY]) {
        const response = await me(method, path, token, body);
        const answer = await json<ErrorBody>(response, 401);
        expect(answer.error.code, `${method} ${path}`).toBe(ME_ERRORS.notSignedIn);
        expect(response.headers.get("WWW-Authenticate")).toBe('Bearer realm="me"');
      }
    }
  });

  it("answers 401 once the session is signed out", async () => {
    const { token } = await signedIn("signed-out");
    await json<MeAnswer>(await me("GET", ME_ROUTES.me, token));
    const logout = await call("/auth/v1/logout", { method: "POST", headers: { Authorization: `Bearer ${token}` } });
    expect(logout.status).toBe(204);
    expect((await json<ErrorBody>(await me("GET", ME_ROUTES.me, token), 401)).error.code).toBe(ME_ERRORS.notSignedIn);
  });
});

describe("GET /api/me and the waitlist actions", () => {
  it("not on the list: status none, nothing else", async () => {
    const { email, token } = await signedIn("none");
    expect(await json<MeAnswer>(await me("GET", ME_ROUTES.me, token))).toEqual({
      email,
      status: "none",
      position: null,
      referral_code: null,
      referral_link: null,
      referrals_pending: 0,
      referrals_confirmed: 0,
      joined_at: null,
      confirmed_at: null,
      share: { text: JOURNEY_TEXT.shareText },
      referral_boost: 5,
      age_band: null,
      on_behalf_of_child: false,
      invited_at: null,
      invited_by: null,
      subscription: { subscribed: true, unsubscribed_at: null, reason: null },
    } satisfies MeAnswer);
  });

  it("joined but not confirmed: pending, with the join's time", async () => {
    const { email, token } = await signedIn("pending");
    await joinWaitlist(email);
    const answer = await json<MeAnswer>(await me("GET", ME_ROUTES.me, token));
    expect(answer).toMatchObject({
      email,
      status: "pending",
      position: null,
      referral_code: null,
      referral_link: null,
      confirmed_at: null,
    });
    expect(answer.joined_at).toBe((await entryOf(email))!.createdAt);
  });

  it("POST /api/me/waitlist joins with one click, confirmed at once, with a place and a referral link; again changes nothing", async () => {
    const { email, token } = await signedIn("one-click");
    const answer = await json<MeAnswer>(await me("POST", ME_ROUTES.waitlist, token));
    const entry = (await entryOf(email))!;
    expect(entry.confirmedAt).not.toBeNull();
    expect(answer).toMatchObject({
      email,
      status: "confirmed",
      referral_code: entry.referralCode,
      referral_link: `http://localhost/?ref=${entry.referralCode}`,
      joined_at: entry.createdAt,
      confirmed_at: entry.confirmedAt,
    });
    expect(answer.position).toBeGreaterThanOrEqual(1);
    expect(await json<MeAnswer>(await me("GET", ME_ROUTES.me, token))).toEqual(answer);
    // Pressed twice: the same entry, the same place.
    expect(await json<MeAnswer>(await me("POST", ME_ROUTES.waitlist, token))).toEqual(answer);
    expect((await entryOf(email))!.confirmSeq).toBe(entry.confirmSeq);
  });

  it("POST /api/me/waitlist confirms an address that joined and waits for its e-mail (signing in proved it)", async () => {
    const { email, token } = await signedIn("confirm-by-sign-in");
    await joinWaitlist(email);
    const answer = await json<MeAnswer>(await me("POST", ME_ROUTES.waitlist, token));
    expect(answer.status).toBe("confirmed");
    expect(answer.joined_at).toBe((await entryOf(email))!.createdAt);
  });

  it("DELETE /api/me/waitlist leaves the list (the entry and its joiner e-mails deleted); the sign-in stays", async () => {
    const { email, token } = await signedIn("leave");
    await joinWaitlist(email);
    const id = (await entryOf(email))!.id;
    const answer = await json<MeAnswer>(await me("DELETE", ME_ROUTES.waitlist, token));
    expect(answer).toMatchObject({ email, status: "none", position: null, joined_at: null });
    expect(await entryOf(email)).toBeUndefined();
    const mails = await env.DB.prepare("select count(*) as n from hwh_joiner_mail where entry_id = ?").bind(id).first<{ n: number }>();
    expect(mails!.n).toBe(0);
    // Still signed in; leaving again is no error.
    expect((await json<MeAnswer>(await me("DELETE", ME_ROUTES.waitlist, token))).status).toBe("none");
  });
});

describe("GET /api/me for an entry an invite wave drew (issue 17)", () => {
  /** What a wave's expansion and its send leave: the entry invited by `campaign`, its recipient row `status`. */
  async function invite(email: string, status: "queued" | "sent" | "skipped", subject: string) {
    const campaign = await testRepository().campaigns.create(
      { subject, body: "Come in.", audience: { kind: "wave", size: 1 } },
      "ops@example.com",
      new Date(),
    );
    const entry = (await entryOf(email))!;
    const invitedAt = "2026-11-25T04:10:00.000Z";
    const sentAt = status === "sent" ? "2026-11-25T04:12:09.000Z" : null;
    await env.DB.batch([
      env.DB.prepare("update hwh_waitlist set invited_at = ?1, invited_campaign_id = ?2 where id = ?3").bind(
        invitedAt,
        campaign.id,
        entry.id,
      ),
      env.DB.prepare(
        "insert into hwh_campaign_recipients (campaign_id, entry_id, place, status, sent_at, updated_at) values (?1, ?2, 1, ?3, ?4, ?5)",
      ).bind(campaign.id, entry.id, status, sentAt, invitedAt),
    ]);
    return { invitedAt, sentAt };
  }

  it("says when it was invited, and the wave's e-mail (subject, sent_at) once it was sent to this address", async () => {
    const { token } = await signedIn("invited-sent");
    const joined = await json<MeAnswer>(await me("POST", ME_ROUTES.waitlist, token));
    expect(joined).toMatchObject({ invited_at: null, invited_by: null });
    const { email } = joined;
    const { invitedAt, sentAt } = await invite(email, "sent", "You're in: Homework Helper is open");
    expect(await json<MeAnswer>(await me("GET", ME_ROUTES.me, token))).toMatchObject({
      status: "confirmed",
      invited_at: invitedAt,
      invited_by: { subject: "You're in: Homework Helper is open", sent_at: sentAt },
    });
  });

  it("invited but its e-mail not sent (still queued, or skipped): invited_at only, no e-mail to look for", async () => {
    for (const status of ["queued", "skipped"] as const) {
      const { token } = await signedIn(`invited-${status}`);
      const { email } = await json<MeAnswer>(await me("POST", ME_ROUTES.waitlist, token));
      const { invitedAt } = await invite(email, status, "Not this one");
      expect(await json<MeAnswer>(await me("GET", ME_ROUTES.me, token))).toMatchObject({ invited_at: invitedAt, invited_by: null });
    }
  });
});

describe("POST /api/me/confirmation: the confirmation e-mail again", () => {
  it("sends it while pending, to the address only, up to the day's cap; then 429 with retry_after, and nothing is sent", async () => {
    const { email, token } = await signedIn("resend");
    await joinWaitlist(email);
    const mailsTo = async () =>
      (await testRepository().devMail.list(500)).filter(
        (mail) => mail.receivers.includes(email) && mail.bodyHtml.includes("/confirm?token="),
      ).length;
    let sent = 0;
    let refused: Response | null = null;
    for (let tries = 0; tries < 4 && !refused; tries += 1) {
      const response = await me("POST", ME_ROUTES.confirmation, token);
      if (response.status === 429) refused = response;
      else {
        expect(await json(response)).toEqual({ sent: true });
        sent += 1;
      }
    }
    expect(refused, "the daily cap (3 confirmation e-mails) ends the resends").not.toBeNull();
    const body = await json<ErrorBody>(refused!, 429);
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.retry_after).toBeGreaterThan(0);
    expect(body.error.retry_after).toBeLessThanOrEqual(86_400);
    expect(refused!.headers.get("Retry-After")).toBe(String(body.error.retry_after));
    expect(sent).toBeGreaterThanOrEqual(1);
    const mails = await mailsTo();
    expect(mails).toBeLessThanOrEqual(3);
    expect(mails).toBeGreaterThanOrEqual(sent);
  });

  it("answers 409 not_pending when there is nothing to confirm (not on the list, or confirmed)", async () => {
    const { token } = await signedIn("not-pending");
    expect((await json<ErrorBody>(await me("POST", ME_ROUTES.confirmation, token), 409)).error.code).toBe(ME_ERRORS.notPending);
    await json<MeAnswer>(await me("POST", ME_ROUTES.waitlist, token));
    expect((await json<ErrorBody>(await me("POST", ME_ROUTES.confirmation, token), 409)).error.code).toBe(ME_ERRORS.notPending);
  });
});

describe("GET /api/me/data: my data", () => {
  it("holds the operator's data-access answer for the address, as a download, recorded with the operator 'self'", async () => {
    const { email, token } = await signedIn("data");
    await joinWaitlist(email);
    const sent = await postJson("/api/forms/contact", { name: "Ada", email, message: "Hello" });
    expect(sent.status).toBe(201);

    const response = await me("GET", ME_ROUTES.data, token);
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="${ME_DATA_FILENAME}"`);
    const mine = await json<MeData>(response);
    const operator = await json<PersonRecord>(
      await call("/api/admin/people/lookup", {
        method: "POST",
        headers: { Authorization: `Bearer ${ADMIN_KEY}`, "Content-Type": "application/json" },
        body: JSON.stringify({ email }),
      }),
    );
    // The same records, under the file's plain names (test/worker/me-data.test.ts checks every part).
    expect(mine["your email address"]).toBe(operator.email);
    expect(mine["your place on the waitlist"]?.["record number"]).toBe(operator.waitlist?.id);
    expect(mine["messages you sent us"].map((message) => message["record number"])).toEqual(operator.submissions.map((row) => row.id));
    expect(mine["your sign-in"]?.["account id"]).toBe(operator.user?.id);
    expect(mine["your sign-in"]?.["devices you signed in on"].map((device) => device["session id"])).toEqual(
      operator.user?.sessions.map((session) => session.id),
    );
    expect(mine["launch news and invitations"]).toEqual({ "you get them": true, "stopped at": null, why: null, history: [] });
    expect(operator.email).toBe(email);
    expect(operator.submissions).toHaveLength(1);
    expect(operator.user?.sessions).toHaveLength(1);

    const hash = await subjectHash(JWT_SECRET, email);
    const records = (await testRepository().operator.auditTrail(50)).filter((record) => record.subjectHash === hash);
    expect(records.map((record) => [record.action, record.operator])).toContainEqual(["person.looked_up", "self"]);
  });

  it("includes the consent trail of the address's mailbox: whether it is suppressed, and every event with how and its campaign", async () => {
    const { email, token } = await signedIn("data-consent");
    const key = await mailboxKey(JWT_SECRET, email);
    const consent = testRepository().consent;
    // A one-click unsubscribe from campaign 7's e-mail, "Subscribe again", then "Unsubscribe" on /#/me.
    await consent.suppress({ mailboxKey: key, reason: "unsubscribed", source: "one-click", campaignId: 7, now: new Date() });
    await json<MeAnswer>(await me("POST", ME_ROUTES.subscription, token, { subscribed: true }));
    const off = await json<MeAnswer>(await me("POST", ME_ROUTES.subscription, token, { subscribed: false }));

    const data = (await json<MeData>(await me("GET", ME_ROUTES.data, token)))["launch news and invitations"];
    expect(data).toMatchObject({ "you get them": false, "stopped at": off.subscription.unsubscribed_at, why: "you unsubscribed" });
    const stored = await consent.events(key);
    expect(data.history).toEqual([
      {
        "what happened": "you unsubscribed",
        how: "the unsubscribe button of your email app",
        "from launch email number": 7,
        when: stored[0]!.createdAt,
      },
      { "what happened": "you subscribed again", how: "your My place page", "from launch email number": null, when: stored[1]!.createdAt },
      { "what happened": "you unsubscribed", how: "your My place page", "from launch email number": null, when: stored[2]!.createdAt },
    ]);
    // Only this mailbox's trail: someone else's unsubscribe is not in it.
    const other = await mailboxKey(JWT_SECRET, uniqueEmail("data-other"));
    await consent.suppress({ mailboxKey: other, reason: "unsubscribed", source: "page", campaignId: 7, now: new Date() });
    expect((await json<MeData>(await me("GET", ME_ROUTES.data, token)))["launch news and invitations"].history).toHaveLength(3);
  });
});

describe("DELETE /api/me: delete everything", () => {
  it("needs the address typed again: another address or none is refused, and nothing is erased", async () => {
    const { email, token } = await signedIn("typed");
    await joinWaitlist(email);
    const wrong = await json<ErrorBody>(await me("DELETE", ME_ROUTES.me, token, { confirm: `x${email}` }), 400);
    expect(wrong.error.code).toBe(ME_ERRORS.confirmMismatch);
    expect((await json<ErrorBody>(await me("DELETE", ME_ROUTES.me, token, {}), 400)).error.code).toBe("validation_failed");
    expect((await json<ErrorBody>(await me("DELETE", ME_ROUTES.me, token), 415)).error.code).toBe("unsupported_media_type");
    expect(await entryOf(email)).toBeDefined();
    expect((await json<MeAnswer>(await me("GET", ME_ROUTES.me, token))).status).toBe("pending");
  });

  it("erases the entry, the messages and the sign-in (the operator's erasure, audited as 'self' without the address); the token then answers 401", async () => {
    const { email, token } = await signedIn("erase");
    await joinWaitlist(email);
    expect((await postJson("/api/forms/contact", { name: "Ada", email, message: "Hello" })).status).toBe(201);

    // Typed in another case, with spaces: the same address.
    const counts = await json<MeErasure>(await me("DELETE", ME_ROUTES.me, token, { confirm: ` ${email.toUpperCase()} ` }));
    expect(counts).toEqual({ waitlist: 1, submissions: 1, users: 1 });
    expect(await entryOf(email)).toBeUndefined();
    const users = await env.DB.prepare("select count(*) as n from hwh_auth_users where email = ?").bind(email).first<{ n: number }>();
    expect(users!.n).toBe(0);

    // The session is gone with the user.
    for (const { method, path, body } of ROUTES) {
      expect((await json<ErrorBody>(await me(method, path, token, body), 401)).error.code).toBe(ME_ERRORS.notSignedIn);
    }

    const hash = await subjectHash(JWT_SECRET, email);
    const [record] = (await testRepository().operator.auditTrail(50)).filter(
      (row) => row.subjectHash === hash && row.action === "person.erased",
    );
    expect(record).toMatchObject({ operator: "self", details: { waitlist: 1, submissions: 1, users: 1 } });
    const everything = JSON.stringify(await env.DB.prepare("select * from hwh_audit_log").all());
    expect(everything).not.toContain(email);
  });
});
