import type { Context } from "hono";
import { missingSenderSettings } from "../../platform/config/campaigns";
import type { RecipientOutcome } from "./queries/campaigns";
import type { Campaign } from "../../platform/db/schema";
import type { Deps } from "../../deps";
import { csvStream, type CsvColumn } from "../../platform/http/csv";
import { describeError, log } from "../../platform/log";
import type { MailTransport } from "../../platform/mail/transport";
import { audienceOf, type CampaignJson, type DeadLetter } from "../../shared/campaigns";
import { recordAction, type OperatorEnv } from "../operator";
import { notStarted, progressOf } from "./progress";

/** The operator API's JSON and CSV of campaigns (worker/shared/campaigns.ts: snake_case, as the other operator routes). */

/** What the visitors' transport cannot do for a campaign, in words for the operator. */
export function transportWarnings(transport: MailTransport): string[] {
  if (transport.canSetHeaders) return [];
  return [
    "The e-mail transport cannot set the List-Unsubscribe and List-Unsubscribe-Post headers, so mail apps show no unsubscribe button; " +
      'the unsubscribe link in each e-mail\'s footer still works. Cloudflare Email Service sets them (docs/launch-day.md "The runbook": EMAIL_FROM).',
  ];
}

/**
 * A campaign as the console shows it. Its audience size is counted now while it can still
 * change (a draft or scheduled campaign: the same clause sending expands), and is the rows
 * expanded once sending began; the progress is counted from the recipients' rows.
 */
export async function campaignJson(deps: Deps, campaign: Campaign): Promise<CampaignJson> {
  const [audienceSize, progress] = await Promise.all([
    notStarted(campaign) ? deps.repo.campaigns.audienceSize(audienceOf(campaign)) : campaign.audienceSize,
    progressOf(deps, campaign),
  ]);
  return {
    id: campaign.id,
    subject: campaign.subject,
    body: campaign.body,
    audience: audienceOf(campaign),
    status: campaign.status,
    audience_size: audienceSize,
    send_at: campaign.sendAt,
    created_by: campaign.createdBy,
    created_at: campaign.createdAt,
    updated_at: campaign.updatedAt,
    started_at: campaign.startedAt,
    finished_at: campaign.finishedAt,
    progress,
    transport_warnings: transportWarnings(deps.visitorTransport),
    missing_settings: missingSenderSettings(deps.config.campaigns),
  };
}

export function deadLetterJson(row: RecipientOutcome): DeadLetter {
  return {
    recipient_id: row.id,
    email: row.email,
    attempts: row.attempts,
    last_error: row.lastError,
    dead_lettered_at: row.deadLetteredAt ?? "",
  };
}

/** The recipients' export: who (empty once erased), where in line (waves), and what became of them. */
const RECIPIENT_COLUMNS: readonly CsvColumn<RecipientOutcome>[] = [
  { header: "email", value: (row) => row.email },
  { header: "place", value: (row) => row.place },
  { header: "status", value: (row) => row.status },
  { header: "skip_reason", value: (row) => row.skipReason },
  { header: "attempts", value: (row) => row.attempts },
  { header: "last_error", value: (row) => row.lastError },
  { header: "sent_at", value: (row) => row.sentAt },
];

/** Rows per read of the export (as the waitlist's): small enough for any Worker's memory. */
const EXPORT_PAGE = 1000;

/**
 * GET …/:id/recipients.csv: every recipient in expansion order, read in pages by id and streamed
 * (worker/platform/http/csv.ts guards every cell against formulas), named
 * `campaign-<id>-recipients-<date>.csv`. Recorded in the audit trail before any row goes out,
 * as the other exports are.
 */
export async function recipientsCsv(c: Context<OperatorEnv>, campaign: Campaign): Promise<Response> {
  const deps = c.get("deps");
  const details = { campaign_id: campaign.id, rows: campaign.audienceSize };
  await recordAction(deps, c.get("operator"), "campaign.recipients_exported", details);
  const body = csvStream<RecipientOutcome, number>(
    RECIPIENT_COLUMNS,
    async (after) => {
      const rows = await deps.repo.campaigns.recipientsPage(campaign.id, after ?? 0, EXPORT_PAGE);
      return { rows, next: rows.length === EXPORT_PAGE ? rows[rows.length - 1]!.id : null };
    },
    (error) => log("error", "admin.export_failed", { export: `campaign-recipients:${campaign.id}`, error: describeError(error) }),
  );
  const date = deps.now().toISOString().slice(0, 10);
  return c.body(body, 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="campaign-${campaign.id}-recipients-${date}.csv"`,
  });
}
