import * as v from "valibot";
import { strictFields } from "./text";

/**
 * Signed webhooks and Slack (issue 25): the events the product sends the team's other tools, their
 * payloads (README "Webhooks and Slack" documents each), and the operator API's shapes under
 * /api/admin/webhooks (worker/features/webhooks/routes.ts), shared by the worker and the console.
 * Standard Webhooks (standardwebhooks.com): every request carries webhook-id, webhook-timestamp
 * and webhook-signature ("v1,<base64>" entries, space-separated while a rotated secret still signs).
 */

/** Every event type, in the order the console lists them. */
export const WEBHOOK_EVENT_TYPES = [
  "waitlist.joined",
  "waitlist.confirmed",
  "referral.confirmed",
  "contact.received",
  "campaign.finished",
  "person.erased",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The two kinds of endpoint: Standard Webhooks JSON (signed), or a Slack incoming webhook (short text, no personal data). */
export const WEBHOOK_KINDS = ["standard", "slack"] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/** How long a rotated secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_HOURS = 24;

/** The retry schedule after a failed attempt (Standard Webhooks' example), seconds before each retry; after the last, the delivery is dead. */
export const WEBHOOK_RETRY_SCHEDULE_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 14 * 3600, 20 * 3600, 24 * 3600] as const;

/** Attempts a delivery gets: the first, immediately, and one per step of the schedule. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_SCHEDULE_SECONDS.length + 1;

/** How much of a receiver's answer is read (and the console shows at most). */
export const WEBHOOK_ANSWER_BYTES = 512;

/** The body every Standard Webhooks request carries. */
export type WebhookEnvelope<T extends WebhookEventType = WebhookEventType> = {
  type: T;
  /** When the event happened (ISO 8601, UTC). */
  timestamp: string;
  data: WebhookData[T];
};

/** How an entry came: the placement and campaign values it joined with (null: none). */
export type WebhookAttribution = {
  source: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  referrer_host: string | null;
};

/** What a person's waitlist events say of them. `place` is their place in line when the event happened (null while unconfirmed). */
export type WebhookEntry = WebhookAttribution & {
  email: string;
  status: "pending" | "confirmed";
  place: number | null;
  joined_at: string;
  confirmed_at: string | null;
};

export type WebhookData = {
  "waitlist.joined": WebhookEntry;
  "waitlist.confirmed": WebhookEntry;
  /** A friend confirmed with the referrer's link: the referrer (their address, code and new place) and how many confirmed referrals they have. */
  "referral.confirmed": {
    referrer: { email: string; referral_code: string; place: number | null; referrals_confirmed: number };
  };
  "contact.received": { form: string; email: string; name: string | null; message: string; received_at: string };
  "campaign.finished": { campaign_id: number; name: string; sent: number; skipped: number; failed: number; finished_at: string };
  /** Delete this person: every event about them carried this address. */
  "person.erased": { email: string; erased_at: string };
};

/** An endpoint as the operator API answers it: never its secret (shown once, at creation and rotation). */
export type WebhookEndpointJson = {
  id: number;
  name: string;
  /** The address; a Slack one with its token masked. */
  url: string;
  kind: WebhookKind;
  events: WebhookEventType[];
  enabled: boolean;
  /** Why it is disabled (the operator, 410 Gone, or a run of failures), or null. */
  disabled_reason: string | null;
  disabled_at: string | null;
  /** Attempts that failed in a row, and since when (null: the last attempt succeeded). */
  failure_run: number;
  failing_since: string | null;
  last_success_at: string | null;
  /** Until when a rotated secret still signs beside the new one (null: no rotation under way). */
  previous_secret_until: string | null;
  /** Deliveries waiting (or retrying), and dead ones (the dead letters). */
  pending: number;
  dead: number;
  created_at: string;
  updated_at: string;
};

/** One delivery of one event to one endpoint, as the console lists them. */
export type WebhookDeliveryJson = {
  id: number;
  webhook_id: string;
  event_type: WebhookEventType;
  status: "pending" | "delivered" | "dead" | "cancelled";
  attempts: number;
  /** The last attempt's HTTP status, or null when it got no answer (then `last_error` says why). */
  last_status: number | null;
  last_error: string | null;
  /** The first bytes of the last answer (at most WEBHOOK_ANSWER_BYTES). */
  last_answer: string | null;
  last_at: string | null;
  next_at: string | null;
  delivered_at: string | null;
  created_at: string;
};

/** POST /api/admin/webhooks and POST …/:id/rotate: the endpoint and its secret, shown this once (Slack endpoints have none). */
export type WebhookCreated = { endpoint: WebhookEndpointJson; secret: string | null };

/** GET /api/admin/webhooks/:id: the endpoint, its recent deliveries (newest first) and its dead letters. */
export type WebhookEndpointDetail = { endpoint: WebhookEndpointJson; deliveries: WebhookDeliveryJson[]; dead: WebhookDeliveryJson[] };

/** POST …/:id/test: what the receiver answered to a signed test event (nothing is stored). */
export type WebhookTestResult = { ok: boolean; status: number | null; error: string | null; answer: string; took_ms: number };

/** POST …/:id/dead-letters/retry: how many dead deliveries were made due again. */
export type WebhookRetried = { retried: number };

/** The longest endpoint name, and the longest address accepted (worker/features/webhooks/url-guard.ts checks the rest). */
export const WEBHOOK_NAME_MAX = 100;
export const WEBHOOK_URL_MAX = 2048;
/** The most dead letters one retry names. */
export const WEBHOOK_RETRY_IDS_MAX = 50;

const NAME_MESSAGE = `name must be 1 to ${WEBHOOK_NAME_MAX} characters.`;
const URL_MESSAGE = `url must be an https address of at most ${WEBHOOK_URL_MAX} characters.`;
const EVENTS_MESSAGE = `events must be a non-empty list of: ${WEBHOOK_EVENT_TYPES.join(", ")}.`;
const KIND_MESSAGE = `kind must be one of: ${WEBHOOK_KINDS.join(", ")}.`;
const IDS_MESSAGE = `ids must be a list of at most ${WEBHOOK_RETRY_IDS_MAX} delivery ids.`;

const nameField = v.pipe(v.string(NAME_MESSAGE), v.trim(), v.minLength(1, NAME_MESSAGE), v.maxLength(WEBHOOK_NAME_MAX, NAME_MESSAGE));
const urlField = v.pipe(v.string(URL_MESSAGE), v.trim(), v.minLength(1, URL_MESSAGE), v.maxLength(WEBHOOK_URL_MAX, URL_MESSAGE));
const eventsField = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENT_TYPES, EVENTS_MESSAGE), EVENTS_MESSAGE),
  v.minLength(1, EVENTS_MESSAGE),
  v.transform((events) => WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type))),
);

/** POST /api/admin/webhooks: a new endpoint (the events kept in WEBHOOK_EVENT_TYPES' order, each once). */
export const webhookCreateSchema = strictFields({
  name: nameField,
  url: urlField,
  kind: v.optional(v.picklist(WEBHOOK_KINDS, KIND_MESSAGE), "standard"),
  events: eventsField,
});
export type WebhookCreate = v.InferOutput<typeof webhookCreateSchema>;

/** PATCH /api/admin/webhooks/:id: any of name, url, events (the kind cannot change: add another endpoint). */
export const webhookUpdateSchema = strictFields({
  name: v.optional(nameField),
  url: v.optional(urlField),
  events: v.optional(eventsField),
});
export type WebhookUpdate = v.InferOutput<typeof webhookUpdateSchema>;

/** POST /api/admin/webhooks/:id/dead-letters/retry: `ids` to retry those dead deliveries, nothing (or no body) for all. */
export const webhookRetrySchema = strictFields({
  ids: v.optional(
    v.pipe(
      v.array(v.pipe(v.number(IDS_MESSAGE), v.integer(IDS_MESSAGE), v.minValue(1, IDS_MESSAGE)), IDS_MESSAGE),
      v.minLength(1, IDS_MESSAGE),
      v.maxLength(WEBHOOK_RETRY_IDS_MAX, IDS_MESSAGE),
    ),
  ),
});
export type WebhookRetry = v.InferOutput<typeof webhookRetrySchema>;
