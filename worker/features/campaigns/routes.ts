import { Hono, type Context, type MiddlewareHandler } from "hono";
import { campaignJson, deadLetterJson, recipientsCsv } from "./json";
import { recordAction, type OperatorEnv } from "../operator";
import { campaignBodyProblem } from "./content";
import { campaignById, cancelCampaign, editCampaign, pauseCampaign, resumeCampaign, retryDeadLetters, startCampaign } from "./actions";
import { PREVIEW_PATH, previewOf, sendTestEmail, signPreview } from "./preview";
import { wavePreviewOf } from "./wave-preview";
import type { Campaign } from "../../platform/db/schema";
import { jsonBody, MAX_BODY_BYTES, validJson } from "../../platform/http/body";
import { API_BODY_ERRORS } from "../../platform/http/errors";
import {
  audienceRequestSchema,
  campaignDraftSchema,
  campaignSendSchema,
  campaignTestSchema,
  deadLetterRetrySchema,
} from "../../shared/campaign-requests";
import {
  CAMPAIGN_LIMITS,
  type AudienceSize,
  type CampaignList,
  type CampaignTestResult,
  type DeadLetterList,
} from "../../shared/campaigns";

/**
 * Launch day's operator routes, /api/admin/campaigns (docs/api.md "Operator API" and docs/launch-day.md),
 * behind the operator API's limit and authorisation (worker/features/operator/routes.ts mounts them). Drafts
 * are composed here (worker/features/campaigns/queries/campaigns.ts); editing, sending, pausing, resuming,
 * cancelling and retrying dead letters are the operator's actions on a campaign
 * (worker/features/campaigns/actions.ts), each recorded in the audit trail with who did it.
 */

/** A draft's JSON: its body may hold CAMPAIGN_LIMITS.bodyMax characters (code points) of up to 4 UTF-8 bytes each. */
const DRAFT_BODY_BYTES = 4 * (CAMPAIGN_LIMITS.bodyMax + CAMPAIGN_LIMITS.subjectMax) + MAX_BODY_BYTES;
/** How many campaigns the list answers (newest first): a team makes a handful; this only bounds the answer. */
const LIST_MAX = 100;
/** How many dead letters the list answers at once (a retry of all of them takes every one). */
const DEAD_LETTERS_MAX = 1000;
/** How far ahead a campaign may be scheduled: further is a typo, not a plan. */
const SCHEDULE_MAX_MS = 366 * 24 * 3600_000;

/** An id in the path: digits only (anything else is no route: 404). */
const ID = "/:id{[1-9][0-9]{0,14}}";

const errors = API_BODY_ERRORS;
const invalid = (field: string, message: string) => errors.invalid({ [field]: message });

type BodyEnv = { Variables: { requestBody?: Record<string, unknown> } };

/** Like jsonBody, but a request with no body at all (no Content-Type, nothing sent) is `{}`: every field optional. */
const optionalJsonBody: MiddlewareHandler<BodyEnv> = async (c, next) => {
  if (c.req.raw.body === null && !c.req.header("content-type")) {
    c.set("requestBody", {});
    return next();
  }
  return jsonBody(errors)(c, next);
};

/** The id in the path (ID: digits only). */
const idOf = (c: Context) => Number(c.req.param("id"));

/** The campaign named in the path, or 404. */
const campaignOf = (c: Context<OperatorEnv>) => campaignById(c.get("deps"), idOf(c));

/** A body with a `[words](address)` link that is not http(s) would be sent as raw text: refused with its words. */
function checkBody(body: string): void {
  const problem = campaignBodyProblem(body);
  if (problem) throw invalid("body", problem);
}

/** Where the e-mails' links point: SITE_URL, or locally the request's own origin. */
const originOf = (c: Context) => new URL(c.req.url).origin;

/** Records an operator's campaign action, then answers the campaign as it is now (`status`: 201 for a new one). */
async function recorded(
  c: Context<OperatorEnv>,
  action: string,
  campaign: Campaign,
  details: Record<string, unknown> = {},
  status: 200 | 201 = 200,
) {
  const deps = c.get("deps");
  await recordAction(deps, c.get("operator"), `campaign.${action}`, { campaign_id: campaign.id, ...details });
  return c.json(await campaignJson(deps, campaign), status);
}

/** The send's time: null (now), or a moment ahead, within SCHEDULE_MAX_MS. */
function sendTime(sendAt: string | null, now: Date): Date | null {
  if (sendAt === null) return null;
  const at = new Date(sendAt);
  // The schema's ISO check admits spellings Date cannot read ("…T09:00:00+01"): NaN compares
  // false with everything, and would have fallen through to "send now".
  if (Number.isNaN(at.getTime()))
    throw invalid("send_at", "send_at must be a date and time with its time zone, e.g. 2026-03-01T09:00:00Z.");
  if (at.getTime() <= now.getTime()) throw invalid("send_at", "send_at must be ahead of now; leave it out to send now.");
  if (at.getTime() - now.getTime() > SCHEDULE_MAX_MS) throw invalid("send_at", "send_at must be within a year from now.");
  return at;
}

export const campaignRoutes = new Hono<OperatorEnv>()
  .get("/", async (c) => {
    const deps = c.get("deps");
    const campaigns = await deps.repo.campaigns.list(LIST_MAX);
    return c.json({ campaigns: await Promise.all(campaigns.map((campaign) => campaignJson(deps, campaign))) } satisfies CampaignList);
  })

  .post("/", jsonBody(errors, DRAFT_BODY_BYTES), validJson(campaignDraftSchema, errors), async (c) => {
    const deps = c.get("deps");
    const draft = c.req.valid("json");
    checkBody(draft.body);
    const campaign = await deps.repo.campaigns.create(draft, c.get("operator").name, deps.now());
    return recorded(c, "created", campaign, { audience: draft.audience }, 201);
  })

  .post("/audience", jsonBody(errors), validJson(audienceRequestSchema, errors), async (c) => {
    const deps = c.get("deps");
    const { audience } = c.req.valid("json");
    const [size, wave, ageUnknown] = await Promise.all([
      deps.repo.campaigns.audienceSize(audience),
      audience.kind === "wave" ? wavePreviewOf(deps, audience) : null,
      deps.repo.campaigns.audienceAgeUnknown(audience),
    ]);
    return c.json({ audience_size: size, wave, age_unknown: ageUnknown } satisfies AudienceSize);
  })

  .get(ID, async (c) => c.json(await campaignJson(c.get("deps"), await campaignOf(c))))

  .patch(ID, jsonBody(errors, DRAFT_BODY_BYTES), validJson(campaignDraftSchema, errors), async (c) => {
    const deps = c.get("deps");
    const draft = c.req.valid("json");
    checkBody(draft.body);
    return c.json(await campaignJson(deps, await editCampaign(deps, idOf(c), draft)));
  })

  .post(`${ID}/preview`, async (c) => {
    const deps = c.get("deps");
    const campaign = await campaignOf(c);
    const preview = await previewOf(deps, campaign, originOf(c));
    const token = await signPreview(deps.config.auth.jwtSecret, campaign.id, deps.now());
    return c.json({ ...preview, preview_url: `${PREVIEW_PATH}?token=${token}` });
  })

  .post(`${ID}/test`, optionalJsonBody, validJson(campaignTestSchema, errors), async (c) => {
    const sentTo = await sendTestEmail(c.get("deps"), await campaignOf(c), c.get("operator"), c.req.valid("json").to, originOf(c));
    return c.json({ sent_to: sentTo } satisfies CampaignTestResult);
  })

  .post(`${ID}/send`, optionalJsonBody, validJson(campaignSendSchema, errors), async (c) => {
    const deps = c.get("deps");
    const sendAt = sendTime(c.req.valid("json").send_at, deps.now());
    const campaign = await startCampaign(deps, idOf(c), sendAt, originOf(c));
    return recorded(c, campaign.status === "scheduled" ? "scheduled" : "started", campaign, { send_at: campaign.sendAt });
  })

  .post(`${ID}/pause`, async (c) => recorded(c, "paused", await pauseCampaign(c.get("deps"), idOf(c))))

  .post(`${ID}/resume`, async (c) => recorded(c, "resumed", await resumeCampaign(c.get("deps"), idOf(c), originOf(c))))

  .post(`${ID}/cancel`, async (c) => recorded(c, "cancelled", await cancelCampaign(c.get("deps"), idOf(c))))

  .get(`${ID}/recipients.csv`, async (c) => recipientsCsv(c, await campaignOf(c)))

  .get(`${ID}/dead-letters`, async (c) => {
    const campaign = await campaignOf(c);
    const rows = await c.get("deps").repo.campaigns.deadLetters(campaign.id, DEAD_LETTERS_MAX);
    return c.json({ dead_letters: rows.map(deadLetterJson) } satisfies DeadLetterList);
  })

  .post(`${ID}/dead-letters/retry`, optionalJsonBody, validJson(deadLetterRetrySchema, errors), async (c) => {
    const ids = c.req.valid("json").recipient_ids;
    const campaign = await retryDeadLetters(c.get("deps"), idOf(c), ids, originOf(c));
    return recorded(c, "dead_letters_retried", campaign, { recipients: ids ?? "all" });
  });
