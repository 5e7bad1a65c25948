import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CAMPAIGN_ERRORS, CAMPAIGN_LIMITS, type AudienceSize, type CampaignJson, type CampaignList } from "../../worker/shared/campaigns";
import { signIn } from "../support/auth";
import {
  ADMIN_KEY,
  OPERATOR,
  auditOf,
  campaignCall,
  createDraft,
  draft,
  failure,
  fakeQueue,
  json,
  operator,
  seedConfirmed,
  uniqueTag,
} from "../support/campaign-api";

/** POST …/audience's answer for `audience`. */
async function audienceSize(audience: unknown): Promise<number> {
  return (await json<AudienceSize>(await campaignCall("/audience", ADMIN_KEY, { body: { audience } }))).audience_size;
}

describe("who may use /api/admin/campaigns", () => {
  it("every campaign route answers 401 without credentials and 403 to a signed-in non-operator, as every operator route", async () => {
    const { id } = await createDraft({ kind: "all", utm_source: uniqueTag() });
    const routes: [string, string, unknown?][] = [
      ["GET", ""],
      ["POST", "", draft({ kind: "all" })],
      ["POST", "/audience", { audience: { kind: "all" } }],
      ["GET", `/${id}`],
      ["PATCH", `/${id}`, draft({ kind: "all" })],
      ["POST", `/${id}/preview`],
      ["POST", `/${id}/test`, {}],
      ["POST", `/${id}/send`, {}],
      ["POST", `/${id}/pause`],
      ["POST", `/${id}/resume`],
      ["POST", `/${id}/cancel`],
      ["GET", `/${id}/recipients.csv`],
      ["GET", `/${id}/dead-letters`],
      ["POST", `/${id}/dead-letters/retry`, {}],
    ];
    const stranger = (await signIn("not-an-operator@example.com")).access_token;
    for (const [method, path, body] of routes) {
      const none = await campaignCall(path, null, { method, body });
      expect(none.status, `${method} ${path}`).toBe(401);
      expect(none.headers.get("WWW-Authenticate")).toBe('Bearer realm="operator"');
      await failure(await campaignCall(path, stranger, { method, body }), 403, "not_operator");
    }
    // Nothing was changed by the refused requests.
    expect((await json<CampaignJson>(await campaignCall(`/${id}`, ADMIN_KEY))).status).toBe("draft");
  });

  it("takes an operator's token as well as the admin key, and records who created the draft", async () => {
    const token = await operator();
    const created = await json<CampaignJson>(await campaignCall("", token, { body: draft({ kind: "all" }) }), 201);
    expect(created.created_by).toBe(OPERATOR);
    const [record] = await auditOf("campaign.created");
    expect(record).toEqual({ operator: OPERATOR, details: { campaign_id: created.id, audience: { kind: "all", utm_source: null } } });
  });
});

describe("drafts", () => {
  it("POST creates a draft (201) with its id, the audience's size now, no progress, and nothing missing", async () => {
    const tag = uniqueTag();
    await seedConfirmed(tag, 4, { pending: 2 });
    const created = await json<CampaignJson>(await campaignCall("", ADMIN_KEY, { body: draft({ kind: "all", utm_source: tag }) }), 201);
    expect(created).toMatchObject({
      subject: "We're open",
      body: draft({ kind: "all" }).body,
      audience: { kind: "all", utm_source: tag },
      status: "draft",
      audience_size: 4,
      send_at: null,
      created_by: "admin-key",
      started_at: null,
      finished_at: null,
      progress: { counts: { queued: 0, sending: 0, sent: 0, failed: 0, skipped: 0 }, expanded: 0, expansion_done: false },
      transport_warnings: [],
      missing_settings: [],
    });
    expect(created.id).toBeGreaterThan(0);
    expect(await json<CampaignJson>(await campaignCall(`/${created.id}`, ADMIN_KEY))).toEqual(created);
  });

  it("stores what it was given cleaned: the subject trimmed, CRLF line breaks as LF, utm_source lower-cased", async () => {
    const tag = uniqueTag();
    await seedConfirmed(tag, 2);
    const body = {
      subject: "  Launch day  ",
      body: "One\r\n\r\nTwo\r\nthree",
      audience: { kind: "wave", size: 5, utm_source: tag.toUpperCase() },
    };
    const created = await json<CampaignJson>(await campaignCall("", ADMIN_KEY, { body }), 201);
    expect(created).toMatchObject({
      subject: "Launch day",
      body: "One\n\nTwo\nthree",
      audience: { kind: "wave", size: 5, utm_source: tag },
    });
    expect(created.audience_size).toBe(2);
  });

  it("takes a body of the full CAMPAIGN_LIMITS.bodyMax characters (larger than other JSON bodies may be)", async () => {
    const body = `${"é".repeat(CAMPAIGN_LIMITS.bodyMax - 1)}!`;
    const created = await json<CampaignJson>(await campaignCall("", ADMIN_KEY, { body: { ...draft({ kind: "all" }), body } }), 201);
    expect(created.body).toHaveLength(CAMPAIGN_LIMITS.bodyMax);
  });

  it("counts characters as a person does (code points): 150 emoji in the subject and 20,000 in the body pass, one more does not", async () => {
    const subject = "🎉".repeat(CAMPAIGN_LIMITS.subjectMax);
    const body = "🎉".repeat(CAMPAIGN_LIMITS.bodyMax);
    const created = await json<CampaignJson>(
      await campaignCall("", ADMIN_KEY, { body: { ...draft({ kind: "all" }), subject, body } }),
      201,
    );
    expect([created.subject, created.body]).toEqual([subject, body]);
    const tooLong = await failure(
      await campaignCall("", ADMIN_KEY, { body: { ...draft({ kind: "all" }), subject: `${subject}🎉` } }),
      400,
      "validation_failed",
    );
    expect(tooLong).toMatchObject({ field: "subject", message: "The subject must be at most 150 characters." });
    // Past the byte limit the message names whole KB.
    const large = await failure(
      await campaignCall("", ADMIN_KEY, { body: { ...draft({ kind: "all" }), body: "🎉".repeat(30_000) } }),
      413,
      "payload_too_large",
    );
    expect(large.message).toMatch(/^The request body is larger than \d+ KB\.$/);
  });

  it("lists campaigns newest first, each with its status and size", async () => {
    const first = await createDraft({ kind: "all" });
    const second = await createDraft({ kind: "wave", size: 3 });
    const { campaigns } = await json<CampaignList>(await campaignCall("", ADMIN_KEY));
    const ids = campaigns.map((campaign) => campaign.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(campaigns.find((campaign) => campaign.id === second.id)).toEqual(second);
  });

  it("PATCH replaces a draft's subject, body and audience, and answers the new size", async () => {
    const tag = uniqueTag();
    await seedConfirmed(tag, 6);
    const created = await createDraft({ kind: "all", utm_source: tag });
    expect(created.audience_size).toBe(6);
    const next = { subject: "Wave one", body: "Come in.", audience: { kind: "wave", size: 4, utm_source: tag } };
    const patched = await json<CampaignJson>(await campaignCall(`/${created.id}`, ADMIN_KEY, { method: "PATCH", body: next }));
    expect(patched).toMatchObject({ id: created.id, subject: "Wave one", body: "Come in.", audience: next.audience, audience_size: 4 });
    expect(patched.updated_at >= created.updated_at).toBe(true);
    expect(await json<CampaignJson>(await campaignCall(`/${created.id}`, ADMIN_KEY))).toEqual(patched);
  });

  it("answers 404 campaign_not_found for an id that is no campaign, and no route for an id that is no number", async () => {
    await failure(await campaignCall("/987654321", ADMIN_KEY), 404, CAMPAIGN_ERRORS.notFound);
    await failure(
      await campaignCall("/987654321", ADMIN_KEY, { method: "PATCH", body: draft({ kind: "all" }) }),
      404,
      CAMPAIGN_ERRORS.notFound,
    );
    await failure(await campaignCall("/987654321/preview", ADMIN_KEY, { method: "POST" }), 404, CAMPAIGN_ERRORS.notFound);
    await failure(await campaignCall("/987654321/recipients.csv", ADMIN_KEY), 404, CAMPAIGN_ERRORS.notFound);
    await failure(await campaignCall("/abc", ADMIN_KEY), 404, "not_found");
    // A path that exists, asked with another method: 405 with what it takes.
    const wrong = await campaignCall("/audience", ADMIN_KEY);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("Allow")).toBe("POST");
  });
});

describe("what a draft may hold (400 naming the field)", () => {
  const cases: [string, unknown, string][] = [
    ["no subject", { body: "Hi", audience: { kind: "all" } }, "subject"],
    ["a blank subject", { subject: " \u200b ", body: "Hi", audience: { kind: "all" } }, "subject"],
    ["a subject too long", { subject: "s".repeat(CAMPAIGN_LIMITS.subjectMax + 1), body: "Hi", audience: { kind: "all" } }, "subject"],
    ["a subject of two lines", { subject: "One\nTwo", body: "Hi", audience: { kind: "all" } }, "subject"],
    ["no body", { subject: "Hi", audience: { kind: "all" } }, "body"],
    ["a body too long", { subject: "Hi", body: "b".repeat(CAMPAIGN_LIMITS.bodyMax + 1), audience: { kind: "all" } }, "body"],
    ["a body with a control character", { subject: "Hi", body: "a\u0007b", audience: { kind: "all" } }, "body"],
    ["a link that is not http(s)", { subject: "Hi", body: "[Open](javascript:alert(1))", audience: { kind: "all" } }, "body"],
    ["no audience", { subject: "Hi", body: "Hi" }, "audience"],
    ["an unknown kind of audience", { subject: "Hi", body: "Hi", audience: { kind: "everyone" } }, "audience"],
    ["a wave without a size", { subject: "Hi", body: "Hi", audience: { kind: "wave" } }, "audience"],
    ["a wave of 0", { subject: "Hi", body: "Hi", audience: { kind: "wave", size: 0 } }, "audience"],
    ["a wave of 2.5", { subject: "Hi", body: "Hi", audience: { kind: "wave", size: 2.5 } }, "audience"],
    ["a wave too large", { subject: "Hi", body: "Hi", audience: { kind: "wave", size: CAMPAIGN_LIMITS.waveMax + 1 } }, "audience"],
    ["a utm_source that is not text", { subject: "Hi", body: "Hi", audience: { kind: "all", utm_source: 5 } }, "audience"],
    ["a size on an all audience", { subject: "Hi", body: "Hi", audience: { kind: "all", size: 5 } }, "audience"],
    ["a field the API does not have", { subject: "Hi", body: "Hi", audience: { kind: "all" }, status: "sent" }, "status"],
  ];
  it.each(cases)("%s", async (_name, body, field) => {
    const error = await failure(await campaignCall("", ADMIN_KEY, { body }), 400, "validation_failed");
    expect(error.field).toBe(field);
    expect(error.message.length).toBeGreaterThan(0);
    const { id } = await createDraft({ kind: "all" });
    const patched = await failure(await campaignCall(`/${id}`, ADMIN_KEY, { method: "PATCH", body }), 400, "validation_failed");
    expect(patched.field).toBe(field);
  });

  it("refuses a body that is not JSON (415, 400) or larger than a campaign's limit (413)", async () => {
    await failure(
      await campaignCall("", ADMIN_KEY, { body: "subject=Hi", headers: { "Content-Type": "text/plain" } }),
      415,
      "unsupported_media_type",
    );
    await failure(await campaignCall("", ADMIN_KEY, { body: "{not json" }), 400, "invalid_json");
    await failure(
      await campaignCall("", ADMIN_KEY, { body: { ...draft({ kind: "all" }), body: "é".repeat(50_000) } }),
      413,
      "payload_too_large",
    );
  });

  it("POST …/audience checks the audience the same way", async () => {
    const error = await failure(
      await campaignCall("/audience", ADMIN_KEY, { body: { audience: { kind: "wave", size: -1 } } }),
      400,
      "validation_failed",
    );
    expect(error.field).toBe("audience");
    expect(error.message).toContain("audience.size");
    expect((await failure(await campaignCall("/audience", ADMIN_KEY, { body: {} }), 400, "validation_failed")).field).toBe("audience");
  });
});

describe("the audience's size before anything is sent", () => {
  it("all: every confirmed entry (pending ones are not in it), optionally of one utm_source in any case", async () => {
    const tag = uniqueTag();
    await seedConfirmed(tag, 5, { pending: 3 });
    expect(await audienceSize({ kind: "all", utm_source: tag })).toBe(5);
    expect(await audienceSize({ kind: "all", utm_source: ` ${tag.toUpperCase()} ` })).toBe(5);
    const confirmed = await env.DB.prepare("select count(*) as n from hwh_waitlist where confirmed_at is not null").first<{ n: number }>();
    expect(await audienceSize({ kind: "all" })).toBe(confirmed!.n);
    expect(await audienceSize({ kind: "all", utm_source: `${tag}-nobody` })).toBe(0);
  });

  it("wave: the first N confirmed entries not yet invited, at most N; invited entries still count for all", async () => {
    const tag = uniqueTag();
    const entries = await seedConfirmed(tag, 5, { pending: 2 });
    expect(await audienceSize({ kind: "wave", size: 3, utm_source: tag })).toBe(3);
    expect(await audienceSize({ kind: "wave", size: 10, utm_source: tag })).toBe(5);
    await env.DB.prepare(
      `update hwh_waitlist set invited_at = ?, invited_campaign_id = 1 where id in (${entries[0]!.id}, ${entries[1]!.id})`,
    )
      .bind(new Date().toISOString())
      .run();
    expect(await audienceSize({ kind: "wave", size: 10, utm_source: tag })).toBe(3);
    expect(await audienceSize({ kind: "wave", size: 2, utm_source: tag })).toBe(2);
    expect(await audienceSize({ kind: "all", utm_source: tag })).toBe(5);
    // A draft's size is counted again each time it is read: the invitations show at once.
    expect((await createDraft({ kind: "wave", size: 10, utm_source: tag })).audience_size).toBe(3);
  });
});

describe("sending, pausing, resuming, cancelling", () => {
  it("send now: 200 with status sending, the expansion handed to the queue, and recorded; then pause, resume, cancel with 409 for what does not apply", async () => {
    const tag = uniqueTag();
    await seedConfirmed(tag, 3);
    const { queue, sent } = fakeQueue();
    const overrides = { CAMPAIGN_QUEUE: queue };
    const { id } = await createDraft({ kind: "all", utm_source: tag });
    const act = (action: string, body?: unknown) => campaignCall(`/${id}/${action}`, ADMIN_KEY, { method: "POST", body }, overrides);

    const started = await json<CampaignJson>(await act("send", {}));
    expect(started).toMatchObject({ id, status: "sending", send_at: null });
    expect(started.started_at).not.toBeNull();
    expect(sent.map((message) => message.body)).toEqual([{ type: "expand", campaign_id: id, origin: "http://localhost" }]);
    expect((await auditOf("campaign.started"))[0]).toEqual({ operator: "admin-key", details: { campaign_id: id, send_at: null } });

    // A started campaign is not a draft any more: not sent again, not edited.
    expect((await failure(await act("send", {}), 409, CAMPAIGN_ERRORS.wrongStatus)).status).toBe("sending");
    await failure(
      await campaignCall(`/${id}`, ADMIN_KEY, { method: "PATCH", body: draft({ kind: "all" }) }),
      409,
      CAMPAIGN_ERRORS.wrongStatus,
    );
    await failure(await act("resume"), 409, CAMPAIGN_ERRORS.wrongStatus);

    expect((await json<CampaignJson>(await act("pause"))).status).toBe("paused");
    await failure(await act("pause"), 409, CAMPAIGN_ERRORS.wrongStatus);
    expect((await json<CampaignJson>(await act("resume"))).status).toBe("sending");
    expect((await json<CampaignJson>(await act("cancel"))).status).toBe("cancelled");
    for (const action of ["send", "pause", "resume", "cancel"]) await failure(await act(action, {}), 409, CAMPAIGN_ERRORS.wrongStatus);
    for (const action of ["paused", "resumed", "cancelled"])
      expect((await auditOf(`campaign.${action}`))[0]?.details).toEqual({ campaign_id: id });
  });

  it("send at a time ahead: scheduled, its start handed to the queue with a delay; still editable; cancelled before it starts", async () => {
    const tag = uniqueTag();
    await seedConfirmed(tag, 2);
    const { queue, sent } = fakeQueue();
    const { id } = await createDraft({ kind: "wave", size: 1, utm_source: tag });
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await json<CampaignJson>(
      await campaignCall(`/${id}/send`, ADMIN_KEY, { body: { send_at: at } }, { CAMPAIGN_QUEUE: queue }),
    );
    expect(scheduled).toMatchObject({ status: "scheduled", send_at: at, audience_size: 1 });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toEqual({ type: "start", campaign_id: id, origin: "http://localhost" });
    expect(sent[0]!.delaySeconds).toBeGreaterThan(3500);
    expect((await auditOf("campaign.scheduled"))[0]?.details).toEqual({ campaign_id: id, send_at: at });
    const patched = await campaignCall(`/${id}`, ADMIN_KEY, { method: "PATCH", body: draft({ kind: "wave", size: 2, utm_source: tag }) });
    expect(await json<CampaignJson>(patched)).toMatchObject({ status: "scheduled", audience_size: 2 });
    expect((await json<CampaignJson>(await campaignCall(`/${id}/cancel`, ADMIN_KEY, { method: "POST" }))).status).toBe("cancelled");
  });

  it("refuses a send_at that is not a time, is past or is more than a year ahead (400 send_at), and an empty audience (400)", async () => {
    const { id } = await createDraft({ kind: "all", utm_source: uniqueTag() });
    const send = (body: unknown) => campaignCall(`/${id}/send`, ADMIN_KEY, { body }, { CAMPAIGN_QUEUE: fakeQueue().queue });
    // "…+01" passes the schema's ISO check but Date cannot read it: it must not mean "now".
    const soonUnreadable = `${new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 19)}+01`;
    for (const send_at of [
      "tomorrow",
      "2026-13-01T00:00:00Z",
      new Date(Date.now() - 1000).toISOString(),
      "2099-01-01T00:00:00Z",
      5,
      soonUnreadable,
    ]) {
      expect((await failure(await send({ send_at }), 400, "validation_failed")).field, String(send_at)).toBe("send_at");
    }
    await failure(await send({}), 400, CAMPAIGN_ERRORS.emptyAudience);
    expect((await json<CampaignJson>(await campaignCall(`/${id}`, ADMIN_KEY))).status).toBe("draft");
  });

  it("without the sender settings: missing_settings names them and send is a 409 naming them", async () => {
    const tag = uniqueTag();
    await seedConfirmed(tag, 1);
    const unset = { SENDER_NAME: "", SENDER_POSTAL_ADDRESS: " ", CAMPAIGN_QUEUE: fakeQueue().queue };
    const created = await createDraft({ kind: "all", utm_source: tag }, unset);
    expect(created.missing_settings).toEqual(["SENDER_NAME", "SENDER_POSTAL_ADDRESS"]);
    const error = await failure(
      await campaignCall(`/${created.id}/send`, ADMIN_KEY, { body: {} }, unset),
      409,
      CAMPAIGN_ERRORS.senderMissing,
    );
    expect(error.message).toContain("SENDER_NAME");
    expect(error.message).toContain("SENDER_POSTAL_ADDRESS");
    expect((await json<CampaignJson>(await campaignCall(`/${created.id}`, ADMIN_KEY))).status).toBe("draft");
  });

  it("transport_warnings says when the visitors' transport cannot set the unsubscribe headers (the provider)", async () => {
    const created = await createDraft({ kind: "all" }, { MAIL_PROVIDER_TOKEN: "provider-token" });
    expect(created.transport_warnings).toHaveLength(1);
    expect(created.transport_warnings[0]).toContain("List-Unsubscribe");
    expect(created.transport_warnings[0]).toContain("link");
  });
});
