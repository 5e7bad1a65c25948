import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDeps } from "../../worker/deps";
import { FORM_MEDIA_TYPE } from "../../worker/platform/http/body";
import { devMailboxTransport } from "../../worker/platform/mail/transport";
import { ME_ROUTES, type MeAnswer } from "../../worker/shared/me";
import { leaveWaitlist } from "../../worker/features/waitlist";
import { confirmationToken } from "../../worker/features/waitlist/tokens";
import { mailboxKey } from "../../worker/features/waitlist/keys";
import { ADMIN_KEY, JWT_SECRET, latestCode, requestCode, signIn } from "../support/auth";
import { call, type EnvOverrides, postJson, testRepository, uniqueEmail } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

/**
 * Issue 17 §3: the suppression list as the person sees and changes it. /api/me shows whether
 * the mailbox gets campaigns and can unsubscribe or subscribe again; joining the waitlist again
 * is consent again only when the mailbox's owner confirms it (the link's button, a signed-in
 * join; or any new join with double opt-in off), never a 409 duplicate; an erasure takes the
 * row and its trail; sign-in codes are not campaigns and still arrive. The dev mailbox keeps a
 * message's headers.
 */

const repo = testRepository();
const keyOf = (email: string) => mailboxKey(JWT_SECRET, email);
const suppress = async (email: string, source: "one-click" | "page" = "one-click") =>
  repo.consent.suppress({ mailboxKey: await keyOf(email), reason: "unsubscribed", source, campaignId: 3, now: new Date() });
const eventsOf = async (email: string) => (await repo.consent.events(await keyOf(email))).map(({ event, source }) => ({ event, source }));

function me(method: string, path: string, token: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return call(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function join(email: string, status = 201, overrides: EnvOverrides = {}): Promise<void> {
  const response = await postJson("/api/waitlist", { ...ADULT_ANSWER, email, source: "hero" }, overrides);
  expect(response.status, await response.clone().text()).toBe(status);
}

const AT_ONCE: EnvOverrides = { WAITLIST_DOUBLE_OPT_IN: "false" };
const deps = () => createDeps(env);

/** The token of the address's confirmation link, as its e-mail carries it. */
async function confirmLink(email: string): Promise<string> {
  const entry = (await repo.findWaitlistEntry(email))!;
  return confirmationToken(deps(), entry.id, entry.referralJoin);
}

/** Presses the confirmation page's button, as a browser submits the site's own form. */
async function expectPressed(token: string): Promise<void> {
  const response = await call("/confirm", {
    method: "POST",
    headers: { "Content-Type": FORM_MEDIA_TYPE, "Sec-Fetch-Site": "same-origin", Origin: "http://localhost" },
    body: new URLSearchParams({ token }).toString(),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

describe("/api/me: the subscription to campaign e-mail", () => {
  it("GET says subscribed; POST {subscribed:false} unsubscribes (source me), POST {subscribed:true} subscribes again; each once", async () => {
    const email = uniqueEmail("me-sub");
    const { access_token: token } = await signIn(email);
    expect((await json<MeAnswer>(await me("GET", ME_ROUTES.me, token))).subscription).toEqual({
      subscribed: true,
      unsubscribed_at: null,
      reason: null,
    });

    const off = await json<MeAnswer>(await me("POST", ME_ROUTES.subscription, token, { subscribed: false }));
    expect(off.subscription).toMatchObject({ subscribed: false, reason: "unsubscribed" });
    expect(Date.parse(off.subscription.unsubscribed_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect(await repo.consent.statusOf(await keyOf(email))).toMatchObject({ source: "me", campaignId: null });
    await json<MeAnswer>(await me("POST", ME_ROUTES.subscription, token, { subscribed: false }));

    const on = await json<MeAnswer>(await me("POST", ME_ROUTES.subscription, token, { subscribed: true }));
    expect(on.subscription).toEqual({ subscribed: true, unsubscribed_at: null, reason: null });
    await json<MeAnswer>(await me("POST", ME_ROUTES.subscription, token, { subscribed: true }));
    expect(await eventsOf(email)).toEqual([
      { event: "unsubscribed", source: "me" },
      { event: "resubscribed", source: "me" },
    ]);
  });

  it("shows an unsubscribe from an e-mail's link, for every address of the same inbox (the key folds +tags)", async () => {
    const email = uniqueEmail("me-link");
    const { access_token: token } = await signIn(email);
    await suppress(email.replace("@", "+news@"));
    expect((await json<MeAnswer>(await me("GET", ME_ROUTES.me, token))).subscription).toMatchObject({
      subscribed: false,
      reason: "unsubscribed",
    });
  });

  it("refuses a body without a boolean `subscribed`: 400 naming the field, nothing changes", async () => {
    const email = uniqueEmail("me-bad");
    const { access_token: token } = await signIn(email);
    for (const body of [{}, { subscribed: "false" }, { subscribed: 0 }]) {
      const answer = await json<{ error: { code: string; field: string } }>(await me("POST", ME_ROUTES.subscription, token, body), 400);
      expect(answer.error).toMatchObject({ code: "validation_failed", field: "subscribed" });
    }
    expect(await repo.consent.statusOf(await keyOf(email))).toBeNull();
  });
});

describe("consent comes back only from the mailbox's owner (anyone can type an address into the join form)", () => {
  it("unsubscribed, left, joined again: still suppressed until the confirmation link's button is pressed, then rejoined (confirm)", async () => {
    const email = uniqueEmail("rejoin");
    await join(email);
    await expectPressed(await confirmLink(email));
    await suppress(email);
    expect(await leaveWaitlist(deps(), email)).toBe(true);

    await join(email);
    expect(await repo.consent.statusOf(await keyOf(email))).toMatchObject({ reason: "unsubscribed", source: "one-click" });
    const link = await confirmLink(email);
    // Opening the link (a mail scanner, a preview) is no consent either.
    expect((await call(`/confirm?token=${encodeURIComponent(link)}`)).status).toBe(200);
    expect(await repo.consent.statusOf(await keyOf(email))).not.toBeNull();
    expect(await eventsOf(email)).toEqual([{ event: "unsubscribed", source: "one-click" }]);

    await expectPressed(link);
    expect(await repo.consent.statusOf(await keyOf(email))).toBeNull();
    // Pressed again: already confirmed, nothing more written.
    await expectPressed(link);
    expect(await eventsOf(email)).toEqual([
      { event: "unsubscribed", source: "one-click" },
      { event: "rejoined", source: "confirm" },
    ]);
  });

  it("a stranger's 409 duplicate of a confirmed, unsubscribed address changes nothing and writes no event", async () => {
    const email = uniqueEmail("rejoin-dup");
    await join(email);
    await expectPressed(await confirmLink(email));
    await suppress(email, "page");
    await join(email, 409);
    expect(await repo.consent.statusOf(await keyOf(email))).toMatchObject({ reason: "unsubscribed", source: "page" });
    expect(await eventsOf(email)).toEqual([{ event: "unsubscribed", source: "page" }]);
  });

  it("with WAITLIST_DOUBLE_OPT_IN=false a new join (confirmed at once) clears it; its 409 duplicate later does not", async () => {
    const email = uniqueEmail("rejoin-at-once");
    await suppress(email);
    await join(email, 201, AT_ONCE);
    expect(await repo.consent.statusOf(await keyOf(email))).toBeNull();
    await suppress(email, "page");
    await join(email, 409, AT_ONCE);
    expect(await repo.consent.statusOf(await keyOf(email))).toMatchObject({ source: "page" });
    expect(await eventsOf(email)).toEqual([
      { event: "unsubscribed", source: "one-click" },
      { event: "rejoined", source: "join" },
      { event: "unsubscribed", source: "page" },
    ]);
  });

  it("a signed-in one-click join clears it (signing in proved the address)", async () => {
    const email = uniqueEmail("rejoin-me");
    const { access_token: token } = await signIn(email);
    await suppress(email);
    const answer = await json<MeAnswer>(await me("POST", ME_ROUTES.waitlist, token, ADULT_ANSWER));
    expect(answer).toMatchObject({ status: "confirmed", subscription: { subscribed: true, unsubscribed_at: null, reason: null } });
    expect(await eventsOf(email)).toEqual([
      { event: "unsubscribed", source: "one-click" },
      { event: "rejoined", source: "join" },
    ]);
  });
});

describe("erasure takes the suppression and the consent trail", () => {
  it("DELETE /api/me (delete everything)", async () => {
    const email = uniqueEmail("erase-me");
    const { access_token: token } = await signIn(email);
    await join(email);
    await suppress(email);
    expect(await eventsOf(email)).toHaveLength(1);
    await json(await me("DELETE", ME_ROUTES.me, token, { confirm: email }));
    expect(await repo.consent.statusOf(await keyOf(email))).toBeNull();
    expect(await eventsOf(email)).toEqual([]);
  });

  it("the operator's erasure, also after the entry left the list (found by the address's own key)", async () => {
    const email = uniqueEmail("erase-op");
    const other = uniqueEmail("erase-other");
    await suppress(email);
    await suppress(other);
    const response = await call("/api/admin/people/erase", {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({ email }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await repo.consent.statusOf(await keyOf(email))).toBeNull();
    expect(await eventsOf(email)).toEqual([]);
    // Nobody else's.
    expect(await repo.consent.statusOf(await keyOf(other))).not.toBeNull();
  });
});

describe("what the suppression list does not stop", () => {
  it("sign-in codes still go to an unsubscribed address", async () => {
    const email = uniqueEmail("suppressed-code");
    await suppress(email);
    const code = await requestCode(email);
    expect(code).toMatch(/^\d{6}$/);
    expect(await latestCode(email)).toBe(code);
  });
});

describe("the dev mailbox keeps each message's headers", () => {
  it("in its JSON and on its page (escaped), as Email Service would deliver them: never the idempotency key", async () => {
    const to = uniqueEmail("headers");
    const url = "http://localhost/unsubscribe?token=1.abc.def&x=<y>";
    const receipt = await devMailboxTransport().send({
      receivers: [to],
      title: "With headers",
      bodyHtml: "<p>Hi</p>",
      bodyText: "Hi",
      headers: { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      idempotencyKey: "campaign-1-recipient-2",
    });
    await repo.devMail.insert(receipt.devMail!, new Date());
    const { messages } = await json<{ messages: { receivers: string[]; headers: Record<string, string> }[] }>(
      await call("/dev/mailbox?format=json"),
    );
    expect(messages.find((message) => message.receivers[0] === to)?.headers).toEqual({
      "List-Unsubscribe": `<${url}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    const page = await (await call("/dev/mailbox")).text();
    expect(page).toContain(
      "<dt>List-Unsubscribe:</dt><dd>&lt;http://localhost/unsubscribe?token=1.abc.def&amp;x=&lt;y&gt;&gt;</dd><dt>List-Unsubscribe-Post:</dt><dd>List-Unsubscribe=One-Click</dd>",
    );
  });

  it("a message without headers stores none and answers {}", async () => {
    const to = uniqueEmail("no-headers");
    const receipt = await devMailboxTransport().send({ receivers: [to], title: "Plain", bodyHtml: "<p>Hi</p>" });
    expect(receipt.devMail!.headers).toBeNull();
    await repo.devMail.insert(receipt.devMail!, new Date());
    const { messages } = await json<{ messages: { receivers: string[]; headers: Record<string, string> }[] }>(
      await call("/dev/mailbox?format=json"),
    );
    expect(messages.find((message) => message.receivers[0] === to)?.headers).toEqual({});
  });
});
