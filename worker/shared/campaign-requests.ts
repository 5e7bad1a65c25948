import * as v from "valibot";
import { REASON_MAX_LENGTH } from "./admin-launch";
import { CAMPAIGN_LIMITS, type CampaignAudience, characterCount } from "./campaigns";
import { emailField, strictFields, textField } from "./text";
import { storedCampaignValue } from "./waitlist";

/**
 * The request bodies of the operator API's campaign routes (worker/features/campaigns/routes.ts), declared
 * once: the worker validates with them, and the console may check a draft with the same rules
 * before sending it. A 400 names the first field with a problem (`audience` for any part of it).
 */

const formatted = (n: number) => n.toLocaleString("en-US");

/** Subject and body are counted by code points (characterCount), as a person counts characters. */
const subject = v.pipe(
  textField({
    required: true,
    maxLength: Number.POSITIVE_INFINITY,
    messages: {
      notText: "subject must be text.",
      required: "Write a subject.",
      forbidden: "The subject must be one line of text without control or invisible characters.",
    },
  }),
  v.check(
    (value) => characterCount(value) <= CAMPAIGN_LIMITS.subjectMax,
    `The subject must be at most ${CAMPAIGN_LIMITS.subjectMax} characters.`,
  ),
);

/** Paragraphs and links; a line break however the client wrote it is stored as "\n" (and counted once). */
const body = v.pipe(
  textField({
    required: true,
    multiline: true,
    maxLength: Number.POSITIVE_INFINITY,
    messages: {
      notText: "body must be text.",
      required: "Write the e-mail's text.",
      forbidden: "The text must not hold control or invisible characters.",
    },
  }),
  v.transform((value) => value.replace(/\r\n?/g, "\n")),
  v.check(
    (value) => characterCount(value) <= CAMPAIGN_LIMITS.bodyMax,
    `The text must be at most ${formatted(CAMPAIGN_LIMITS.bodyMax)} characters.`,
  ),
);

/** Only one utm_source, spelled as the waitlist stores them (lower-cased); empty or null: any. */
const utmSource = v.optional(
  v.pipe(
    v.nullable(v.string("audience.utm_source must be text or null.")),
    v.transform((value) => (value === null ? null : storedCampaignValue(value))),
  ),
  null,
);

const WAVE_SIZE_MESSAGE = `audience.size must be a whole number from 1 to ${formatted(CAMPAIGN_LIMITS.waveMax)}.`;

const audienceMessage = 'audience must be {"kind": "all"} or {"kind": "wave", "size": N}, either optionally with "utm_source".';

/** Who a campaign goes to (worker/shared/campaigns.ts CampaignAudience). */
export const audienceSchema = v.variant(
  "kind",
  [
    v.strictObject({ kind: v.literal("all"), utm_source: utmSource }, audienceMessage),
    v.strictObject(
      {
        kind: v.literal("wave"),
        size: v.pipe(
          v.number(WAVE_SIZE_MESSAGE),
          v.integer(WAVE_SIZE_MESSAGE),
          v.minValue(1, WAVE_SIZE_MESSAGE),
          v.maxValue(CAMPAIGN_LIMITS.waveMax, WAVE_SIZE_MESSAGE),
        ),
        utm_source: utmSource,
      },
      audienceMessage,
    ),
  ],
  audienceMessage,
) satisfies v.GenericSchema<unknown, CampaignAudience>;

/** POST /api/admin/campaigns and PATCH …/:id. */
export const campaignDraftSchema = strictFields({
  subject,
  body,
  audience: v.pipe(
    v.unknown(),
    v.check((value) => value !== undefined, "Choose an audience."),
    audienceSchema,
  ),
});

/** POST …/audience: an audience's size before anything is saved. */
export const audienceRequestSchema = strictFields({
  audience: v.pipe(
    v.unknown(),
    v.check((value) => value !== undefined, "Choose an audience."),
    audienceSchema,
  ),
});

/** POST …/:id/send: now (no send_at), or at send_at (ISO 8601 with its time zone; the route checks it is ahead). */
export const campaignSendSchema = strictFields({
  send_at: v.optional(
    v.nullable(
      v.pipe(
        v.string("send_at must be a date and time (ISO 8601), or null to send now."),
        v.isoTimestamp("send_at must be a date and time with its time zone, e.g. 2026-03-01T09:00:00Z."),
      ),
    ),
    null,
  ),
});

/** POST …/:id/test: `to` only with the admin key (an operator's or the company's address). */
export const campaignTestSchema = strictFields({
  to: v.optional(emailField({ required: "to must be an e-mail address.", invalid: "to must be an e-mail address." }, false), ""),
});

/** How many dead letters one retry names at most. */
export const RETRY_IDS_MAX = 1000;

const RECIPIENT_IDS_MESSAGE = `recipient_ids must be a list of at most ${RETRY_IDS_MAX} recipient ids.`;

/** POST …/:id/dead-letters/retry: all of them, or the named ones. */
export const deadLetterRetrySchema = strictFields({
  recipient_ids: v.optional(
    v.pipe(
      v.array(
        v.pipe(v.number(RECIPIENT_IDS_MESSAGE), v.integer(RECIPIENT_IDS_MESSAGE), v.minValue(1, RECIPIENT_IDS_MESSAGE)),
        RECIPIENT_IDS_MESSAGE,
      ),
      v.maxLength(RETRY_IDS_MAX, RECIPIENT_IDS_MESSAGE),
    ),
  ),
});

/** The answer to a reason that names an address (any spelling of "@"). */
export const REASON_NAMES_NO_ADDRESS =
  "The reason is kept after the person is erased, so it names no e-mail address: use the entry's place or id.";

/**
 * Why an operator acts on one entry, kept in the audit trail: one line, required, and no address
 * (the trail outlives an erasure and holds people only as keyed hashes).
 */
const reason = v.pipe(
  textField({
    required: true,
    maxLength: REASON_MAX_LENGTH,
    messages: {
      notText: "reason must be text.",
      required: "Say why, for the audit trail.",
      forbidden: `The reason must be one line of at most ${REASON_MAX_LENGTH} characters.`,
    },
  }),
  v.check((value) => !value.normalize("NFKC").includes("@"), REASON_NAMES_NO_ADDRESS),
);

/** POST /api/admin/waitlist/:id/hold: out of invite waves, or back in, and why (worker/shared/admin-launch.ts HoldRequest). */
export const holdRequestSchema = strictFields({
  held: v.boolean("held must be true (out of invite waves) or false (back in)."),
  reason,
});

/** POST /api/admin/waitlist/:id/void-referral: why (VoidRequest). */
export const voidRequestSchema = strictFields({ reason });
