import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { PREVIEW_PATH, signPreview } from "../../worker/features/campaigns/preview";
import { PREVIEW_CSP } from "../../worker/features/campaigns/preview-routes";
import type { CampaignJson, CampaignPreview, CampaignTestResult, DeadLetterList } from "../../worker/shared/campaigns";
import { CONSOLE_CSP, SITE_CSP, staticHeadersFile } from "../../worker/shared/security-headers";
import {
  ADMIN_KEY,
  OPERATOR,
  auditOf,
  campaignCall,
  createDraft,
  failure,
  fakeQueue,
  json,
  operator,
  seedConfirmed,
  uniqueTag,
} from "../support/campaign-api";
import { call } from "../support/worker";

const JWT_SECRET = "test-jwt-secret-0123456789abcdef0123456789abcdef";
const COMPANY = "team@example.com";

type PreviewAnswer = CampaignPreview & { preview_url: string };

/** The dev mailbox's newest message to `to`, with its headers. */
async function lastMailTo(to: string) {
  const row = await env.DB.prepare(
    "select title, body_html, body_text, headers from hwh_dev_mailbox where receivers = ? order by id desc limit 1",
  )
    .bind(JSON.stringify([to]))
    .first<{ title: string; body_html: string; body_text: string | null; headers: string | null }>();
  return row && { ...row, headers: JSON.parse(row.headers ?? "{}") as Record<string, string> };
}

describe("preview", () => {
  it("answers the e-mail as a recipient gets it (HTML, text, List-Unsubscribe headers) and a signed 10-minute page address", async () => {
    const { id } = await createDraft({ kind: "all" });
    const preview = await json<PreviewAnswer>(await campaignCall(`/${id}/preview`, ADMIN_KEY, { method: "POST" }));
    expect(preview.title).toBe("We're open");
    expect(preview.html).toContain("Your place is ready");
    expect(preview.html).toContain('href="https://homeworkhelper.example/start"');
    expect(preview.html).toContain("Homework Helper Test Ltd");
    expect(preview.text).toContain("1 Test Street, Testville, 00000");
    expect(preview.headers["List-Unsubscribe"]).toMatch(/^<http:\/\/localhost\/unsubscribe\?token=[^>]+>$/);
    expect(preview.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(preview.preview_url).toMatch(new RegExp(`^${PREVIEW_PATH}\\?token=${id}\\.\\d+\\.[A-Za-z0-9_-]{43}$`));
    const expires = Number(/\.(\d+)\./.exec(preview.preview_url)![1]) * 1000;
    expect(expires - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(10 * 60_000);
  });

  it("the preview page shows the e-mail under its own policy, framable by this site only, never stored", async () => {
    const { id } = await createDraft({ kind: "all" });
    const { preview_url, html } = await json<PreviewAnswer>(await campaignCall(`/${id}/preview`, ADMIN_KEY, { method: "POST" }));
    const page = await call(preview_url);
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(await page.text()).toBe(html);
    expect(page.headers.get("Content-Security-Policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'self'",
    );
    expect(page.headers.get("X-Frame-Options")).toBe("SAMEORIGIN");
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect(page.headers.get("Referrer-Policy")).toBe("no-referrer");
  });

  it("the preview page refuses a changed token (400), an expired one (410) and a campaign that is gone (404), under the same policy", async () => {
    const { id } = await createDraft({ kind: "all" });
    const token = await signPreview(JWT_SECRET, id, new Date());
    const last = token.at(-1) === "A" ? "B" : "A";
    const otherId = token.replace(/^\d+/, String(id + 1));
    const cases: [string, number][] = [
      [`${token.slice(0, -1)}${last}`, 400],
      [otherId, 400],
      ["", 400],
      [`${id}.9999999999.${token.split(".")[2]}`, 400],
      [await signPreview(JWT_SECRET, id, new Date(Date.now() - 11 * 60_000)), 410],
      [await signPreview(JWT_SECRET, 987654321, new Date()), 404],
    ];
    for (const [given, status] of cases) {
      const page = await call(`${PREVIEW_PATH}?token=${encodeURIComponent(given)}`);
      expect(page.status, given).toBe(status);
      expect(page.headers.get("Content-Security-Policy")).toBe(PREVIEW_CSP);
      expect(await page.text()).not.toContain("Your place is ready");
    }
  });

  it("the console's policy admits frames of this origin (the preview page), replacing the site's policy on /admin", () => {
    expect(CONSOLE_CSP).toContain("frame-src 'self'");
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    expect(CONSOLE_CSP.startsWith(SITE_CSP)).toBe(true);
    expect(SITE_CSP).not.toContain("frame-src");
    const file = staticHeadersFile();
    for (const pattern of ["/admin", "/admin/*"]) {
      expect(file).toContain(`\n${pattern}\n  ! Content-Security-Policy\n`);
      expect(file).toContain(`Content-Security-Policy: ${CONSOLE_CSP}\n`);
    }
  });
});

describe("test send", () => {
  it("sends the e-mail to the signed-in operator with [Test] before the subject and the List-Unsubscribe headers (the dev mailbox keeps it)", async () => {
    const { id } = await createDraft({ kind: "all" });
    const result = await json<CampaignTestResult>(await campaignCall(`/${id}/test`, await operator(), { body: {} }));
    expect(result).toEqual({ sent_to: OPERATOR });
    const mail = (await lastMailTo(OPERATOR))!;
    expect(mail.title).toBe("[Test] We're open");
    expect(mail.body_html).toContain("Your place is ready");
    expect(mail.body_text).toContain("You're getting this because you joined the Homework Helper waitlist on");
    expect(mail.headers["List-Unsubscribe"]).toMatch(/^<http:\/\/localhost\/unsubscribe\?token=\d+\.[0-9a-f]{64}\.[A-Za-z0-9_-]{43}>$/);
    expect(mail.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    // A test changes nothing about the campaign.
    expect((await json<CampaignJson>(await campaignCall(`/${id}`, ADMIN_KEY))).status).toBe("draft");
  });

  it("with the admin key, `to` must name an operator's or the company's address (400 to otherwise)", async () => {
    const { id } = await createDraft({ kind: "all" });
    expect((await failure(await campaignCall(`/${id}/test`, ADMIN_KEY, { body: {} }), 400, "validation_failed")).field).toBe("to");
    expect((await failure(await campaignCall(`/${id}/test`, ADMIN_KEY, { method: "POST" }), 400, "validation_failed")).field).toBe("to");
    const stranger = await campaignCall(`/${id}/test`, ADMIN_KEY, { body: { to: "stranger@example.com" } });
    expect((await failure(stranger, 400, "validation_failed")).field).toBe("to");
    expect(
      (await failure(await campaignCall(`/${id}/test`, ADMIN_KEY, { body: { to: "no address" } }), 400, "validation_failed")).field,
    ).toBe("to");
    expect(await json<CampaignTestResult>(await campaignCall(`/${id}/test`, ADMIN_KEY, { body: { to: COMPANY.toUpperCase() } }))).toEqual({
      sent_to: COMPANY,
    });
    expect((await lastMailTo(COMPANY))?.title).toBe("[Test] We're open");
    expect(await lastMailTo("stranger@example.com")).toBeNull();
    // COMPANY_EMAIL written with capitals is the same address.
    const capitalised = await campaignCall(`/${id}/test`, ADMIN_KEY, { body: { to: COMPANY } }, { COMPANY_EMAIL: COMPANY.toUpperCase() });
    expect(await json<CampaignTestResult>(capitalised)).toEqual({ sent_to: COMPANY });
  });

  it("answers 502 when the transport does not take the e-mail", async () => {
    const { id } = await createDraft({ kind: "all" });
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("down", { status: 503 }));
    const error = await failure(
      await campaignCall(`/${id}/test`, await operator(), { body: {} }, { MAIL_PROVIDER_TOKEN: "provider-token" }),
      502,
      "mail_not_sent",
    );
    expect(error.message).toContain("HTTP 503");
  });
});

/** A campaign that was sent, with recipient rows as the engine leaves them (entry ids; -1 for an erased entry). */
async function sentCampaign(
  rows: { entryId: number; status: string; extra?: Record<string, unknown> }[],
): Promise<{ id: number; rowIds: number[] }> {
  const { id } = await createDraft({ kind: "all" });
  const now = new Date().toISOString();
  await env.DB.prepare("update hwh_campaigns set status = 'sent', audience_size = ?, expanded_at = ?, started_at = ? where id = ?")
    .bind(rows.length, now, now, id)
    .run();
  const rowIds: number[] = [];
  for (const [i, row] of rows.entries()) {
    const columns = {
      campaign_id: id,
      entry_id: row.entryId < 0 ? 900_000_000 + id * 10 + i : row.entryId,
      status: row.status,
      updated_at: now,
      ...row.extra,
    };
    const names = Object.keys(columns);
    const inserted = await env.DB.prepare(
      `insert into hwh_campaign_recipients (${names.join(", ")}) values (${names.map(() => "?").join(", ")}) returning id`,
    )
      .bind(...Object.values(columns))
      .first<{ id: number }>();
    rowIds.push(inserted!.id);
  }
  return { id, rowIds };
}

describe("recipients.csv", () => {
  it("lists every recipient with its outcome, in order; an erased entry's address is empty; every cell is guarded against formulas", async () => {
    const tag = uniqueTag();
    const [sent, skipped] = await seedConfirmed(tag, 2);
    const hostileEmail = `=1+1-${tag}@example.com`;
    const hostile = await env.DB.prepare("insert into hwh_waitlist (email, created_at, updated_at) values (?, ?, ?) returning id")
      .bind(hostileEmail, new Date().toISOString(), new Date().toISOString())
      .first<{ id: number }>();
    const { id } = await sentCampaign([
      { entryId: sent!.id, status: "sent", extra: { place: 1, attempts: 1, sent_at: "2026-03-01T09:00:01.000Z" } },
      { entryId: skipped!.id, status: "skipped", extra: { place: 2, skip_reason: "unsubscribed", attempts: 1 } },
      { entryId: hostile!.id, status: "failed", extra: { attempts: 5, last_error: '@SUM(A1);=HYPERLINK("http://evil")' } },
      { entryId: -1, status: "skipped", extra: { skip_reason: "erased", attempts: 1 } },
    ]);
    const response = await campaignCall(`/${id}/recipients.csv`, await operator());
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      new RegExp(`^attachment; filename="campaign-${id}-recipients-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(await response.arrayBuffer());
    expect(text.split("\r\n")).toEqual([
      "\uFEFFemail,place,status,skip_reason,attempts,last_error,sent_at",
      `${sent!.email},1,sent,,1,,2026-03-01T09:00:01.000Z`,
      `${skipped!.email},2,skipped,unsubscribed,1,,`,
      `'${hostileEmail},,failed,,5,"'@SUM(A1);'=HYPERLINK(""http://evil"")",`,
      ",,skipped,erased,1,,",
      "",
    ]);
    expect((await auditOf("campaign.recipients_exported"))[0]).toEqual({ operator: OPERATOR, details: { campaign_id: id, rows: 4 } });
  });

  it("streams more recipients than one read takes (1,000), each once", async () => {
    const { id } = await createDraft({ kind: "all" });
    const now = new Date().toISOString();
    const insert = env.DB.prepare(
      "insert into hwh_campaign_recipients (campaign_id, entry_id, status, updated_at) values (?, ?, 'queued', ?)",
    );
    const statements = Array.from({ length: 2_345 }, (_, i) => insert.bind(id, 800_000_000 + i, now));
    for (let i = 0; i < statements.length; i += 500) await env.DB.batch(statements.slice(i, i + 500));
    const lines = (await (await campaignCall(`/${id}/recipients.csv`, ADMIN_KEY)).text()).split("\r\n").slice(1, -1);
    expect(lines).toHaveLength(2_345);
    expect(new Set(lines).size).toBe(1);
    expect(lines[0]).toBe(",,queued,,0,,");
  });
});

describe("dead letters", () => {
  it("lists the recipients whose message reached the dead-letter queue; retry puts them back in the queue and the campaign sending again", async () => {
    const tag = uniqueTag();
    const [a, b, c] = await seedConfirmed(tag, 3);
    const at = "2026-03-01T10:00:00.000Z";
    const { id, rowIds } = await sentCampaign([
      { entryId: a!.id, status: "failed", extra: { attempts: 6, last_error: "provider answered HTTP 500", dead_lettered_at: at } },
      { entryId: b!.id, status: "failed", extra: { attempts: 6, last_error: "timeout", dead_lettered_at: at } },
      // Bounced: failed for good, never dead-lettered, so not retried.
      { entryId: c!.id, status: "failed", extra: { attempts: 1, last_error: "provider error (bounced)" } },
    ]);
    const list = await json<DeadLetterList>(await campaignCall(`/${id}/dead-letters`, ADMIN_KEY));
    expect(list.dead_letters).toEqual([
      { recipient_id: rowIds[0], email: a!.email, attempts: 6, last_error: "provider answered HTTP 500", dead_lettered_at: at },
      { recipient_id: rowIds[1], email: b!.email, attempts: 6, last_error: "timeout", dead_lettered_at: at },
    ]);

    const { queue, sent } = fakeQueue();
    const retry = (body?: unknown) =>
      campaignCall(`/${id}/dead-letters/retry`, ADMIN_KEY, { method: "POST", body }, { CAMPAIGN_QUEUE: queue });
    const invalid = await failure(await retry({ recipient_ids: ["x"] }), 400, "validation_failed");
    expect(invalid.field).toBe("recipient_ids");
    const retried = await json<CampaignJson>(await retry({ recipient_ids: [rowIds[1]] }));
    expect(retried.status).toBe("sending");
    expect(sent.map((message) => message.body)).toEqual([
      { type: "send", campaign_id: id, recipient_id: rowIds[1], origin: "http://localhost" },
    ]);
    const status = async (rowId: number) =>
      (await env.DB.prepare("select status from hwh_campaign_recipients where id = ?").bind(rowId).first<{ status: string }>())!.status;
    expect([await status(rowIds[0]!), await status(rowIds[1]!), await status(rowIds[2]!)]).toEqual(["failed", "queued", "failed"]);
    expect(
      (await json<DeadLetterList>(await campaignCall(`/${id}/dead-letters`, ADMIN_KEY))).dead_letters.map((row) => row.recipient_id),
    ).toEqual([rowIds[0]]);
    // No body: all that are left.
    await json<CampaignJson>(await retry());
    expect(await status(rowIds[0]!)).toBe("queued");
    expect((await json<DeadLetterList>(await campaignCall(`/${id}/dead-letters`, ADMIN_KEY))).dead_letters).toEqual([]);
    const records = await auditOf("campaign.dead_letters_retried");
    expect(records.slice(0, 2).map((record) => record.details)).toEqual([
      { campaign_id: id, recipients: "all" },
      { campaign_id: id, recipients: [rowIds[1]] },
    ]);
  });

  it("retry of a draft's dead letters is a 409 (nothing was sent)", async () => {
    const { id } = await createDraft({ kind: "all" });
    await failure(await campaignCall(`/${id}/dead-letters/retry`, ADMIN_KEY, { body: {} }), 409, "campaign_wrong_status");
  });
});
