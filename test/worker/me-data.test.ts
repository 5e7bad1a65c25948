import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PersonRecord } from "../../worker/shared/admin";
import { KEPT_AFTER_ERASURE } from "../../worker/shared/erasure";
import { ME_DATA_FILENAME, ME_ROUTES } from "../../worker/shared/me";
import type { MyData } from "../../worker/shared/my-data";
import { ADMIN_KEY, signIn } from "../support/auth";
import { call, postJson, testRepository, uniqueEmail } from "../support/worker";
import { ADULT_ANSWER, ADULT_JOIN_INIT } from "../support/age";

/**
 * Issue 22: "Download my data" was one minified line of internal names (notify_attempts,
 * sign_in_code.usable, email_sent about the team's alert). Now: an indented file whose names a
 * student understands, each part explained at its top, what an erasure keeps at its end; the
 * operator's look-up keeps the full record under the API's names.
 */

async function download(token: string): Promise<{ text: string; data: MyData; response: Response }> {
  const response = await call(ME_ROUTES.data, { headers: { Authorization: `Bearer ${token}` } });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return { text, data: JSON.parse(text) as MyData, response };
}

async function lookUp(email: string): Promise<PersonRecord> {
  const response = await call("/api/admin/people/lookup", {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ email }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as PersonRecord;
}

/** Every key of the file, its path with it, apart from what the person wrote or sign-in was given (their own names). */
function keysOf(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => keysOf(item, `${path}[${i}]`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === "what you wrote" || key === "details saved with your sign-in" ? [key] : [key, ...keysOf(inner, `${path}.${key}`)],
  );
}

describe("GET /api/me/data: a file a student can read", () => {
  it("is indented JSON with plain names, explained at its top, ending with what an erasure keeps", async () => {
    const email = uniqueEmail("readable");
    const { access_token: token } = await signIn(email);
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email, source: "hero" })).status).toBe(201);
    expect((await postJson("/api/forms/contact", { name: "Ada", email, message: "Hello" })).status).toBe(201);

    const { text, data, response } = await download(token);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="${ME_DATA_FILENAME}"`);
    // Indented two spaces, one value a line, ending with a new line.
    expect(text.split("\n").length).toBeGreaterThan(50);
    expect(text).toMatch(/^\{\n {2}"about this file": \{\n {4}"what this is": /);
    expect(text.endsWith("}\n")).toBe(true);

    // The explanation first, each part explained in it, what is kept last.
    const keys = Object.keys(data);
    expect(keys[0]).toBe("about this file");
    expect(Object.keys(data["about this file"].parts)).toEqual(keys.slice(1));
    for (const explanation of Object.values(data["about this file"].parts)) expect(explanation.length).toBeGreaterThan(20);
    expect(keys.at(-1)).toBe("what we keep if you delete everything");
    expect(data["what we keep if you delete everything"]).toEqual([...KEPT_AFTER_ERASURE]);
    // No internal name anywhere: no snake_case, none of the columns a student stumbled on (a link's own
    // parameter may follow a plain name in brackets, "campaign source (utm_source)", as the privacy policy names it).
    const names = keysOf(data).map((name) => name.replace(/ \(utm_[a-z]+\)$/, ""));
    expect(names.filter((name) => /_|notify|usable|sign_in_code/.test(name))).toEqual([]);

    // The same facts as the operator's look-up, which keeps its full record under the API's names.
    const record = await lookUp(email);
    expect(record).toMatchObject({ email, sign_in_code: { usable: expect.any(Boolean) } });
    expect(record.waitlist).toHaveProperty("notify_attempts");
    const entry = data["your place on the waitlist"]!;
    expect(entry).toMatchObject({
      "record number": record.waitlist!.id,
      status: "waiting for you to confirm your email address",
      "joined at": record.waitlist!.created_at,
      "your place in line": null,
      "how you found us": { "signup form": "hero" },
      "our team's notice of your signup": { sent: record.waitlist!.email_sent, tries: record.waitlist!.notify_attempts },
    });
    expect(data["your email address"]).toBe(email);
    expect(data["messages you sent us"]).toEqual([
      expect.objectContaining({ form: "contact", "what you wrote": { name: "Ada", email, message: "Hello" } }),
    ]);
    expect(data["your sign-in"]).toMatchObject({ "email address": email, "account id": record.user!.id });
    expect(data["your sign-in"]!["devices you signed in on"]).toHaveLength(record.user!.sessions.length);
    expect(data["your latest sign-in code"]).toEqual({
      "sent at": record.sign_in_code!.sent_at,
      "expires at": record.sign_in_code!.expires_at,
      "can still be used": record.sign_in_code!.usable,
    });
    // The e-mails sent to the person: the join's confirmation (the operator's record has none of these).
    expect(data["emails we sent you"]["confirmation and welcome emails"]).toEqual([
      expect.objectContaining({ email: "confirm your address" }),
    ]);
    expect(data["emails we sent you"]["launch emails"]).toEqual([]);
    expect(data["launch news and invitations"]).toEqual({ "you get them": true, "stopped at": null, why: null, history: [] });
  });

  it("names the launch e-mails meant for the person and what became of each; a confirmed entry's place and code", async () => {
    const email = uniqueEmail("readable-launch");
    const { access_token: token } = await signIn(email);
    const joined = await call(ME_ROUTES.waitlist, {
      method: "POST",
      headers: { ...ADULT_JOIN_INIT.headers, Authorization: `Bearer ${token}` },
      body: ADULT_JOIN_INIT.body,
    });
    expect(joined.status).toBe(200);
    const entry = (await testRepository().findWaitlistEntry(email))!;
    const repo = testRepository();
    const sent = await repo.campaigns.create(
      { subject: "You're in", body: "Come in.", audience: { kind: "wave", size: 1 } },
      "ops@example.com",
      new Date(),
    );
    const skipped = await repo.campaigns.create(
      { subject: "News", body: "Hello.", audience: { kind: "all" } },
      "ops@example.com",
      new Date(),
    );
    await env.DB.batch([
      env.DB.prepare(
        "insert into hwh_campaign_recipients (campaign_id, entry_id, place, status, sent_at, updated_at) values (?1, ?2, 1, 'sent', ?3, ?3)",
      ).bind(sent.id, entry.id, "2026-11-25T04:12:09.000Z"),
      env.DB.prepare(
        "insert into hwh_campaign_recipients (campaign_id, entry_id, status, skip_reason, updated_at) values (?1, ?2, 'skipped', 'unsubscribed', ?3)",
      ).bind(skipped.id, entry.id, "2026-11-26T04:12:09.000Z"),
    ]);

    const { data } = await download(token);
    expect(data["emails we sent you"]["launch emails"]).toEqual([
      { "launch email number": sent.id, subject: "You're in", "what happened": "sent", "sent at": "2026-11-25T04:12:09.000Z" },
      { "launch email number": skipped.id, subject: "News", "what happened": "not sent: you had unsubscribed", "sent at": null },
    ]);
    expect(data["your place on the waitlist"]).toMatchObject({
      status: "confirmed",
      "your place in line": expect.any(Number),
      "your referral code": entry.referralCode,
      "confirmed at": entry.confirmedAt,
    });
  });
});
