import { and, eq, isNotNull, isNull, type SQL } from "drizzle-orm";
import type { CampaignAudience } from "../shared/campaigns";
import { waitlist } from "./schema";
import type { Campaign } from "./schema";

/**
 * Campaigns as the operator composes them (worker/routes/campaigns.ts): drafts, their audience
 * and its size, and what the console reads of a campaign after sending (recipients, dead
 * letters). Delivery (expansion, claims, progress) is worker/db/campaign-delivery-repository.ts,
 * which takes the audience's definition from here: one definition for the size the operator is
 * shown and the rows sending expands.
 */

/**
 * Who is in an audience (README "Launch day"), as a WHERE clause on hwh_waitlist: confirmed
 * entries only, a wave's only those not invited yet, either narrowed to one utm_source (given
 * as stored: lower-cased). A wave is the first N of these in line order (AUDIENCE_ORDER); the
 * clause names rank_key (set exactly when confirmed) so SQLite walks the partial rank indexes
 * (the uninvited one for a wave) rather than the table.
 */
export function audienceWhere(audience: CampaignAudience): SQL {
  const utmSource = audience.utm_source ?? null;
  return and(
    isNotNull(waitlist.confirmedAt),
    isNotNull(waitlist.rankKey),
    audience.kind === "wave" ? isNull(waitlist.invitedAt) : undefined,
    utmSource === null ? undefined : eq(waitlist.utmSource, utmSource),
  )!;
}

/** Line order (place): how a wave takes its first N, and the order expansion walks. */
export const AUDIENCE_ORDER = [waitlist.rankKey, waitlist.confirmSeq] as const;

/** A stored campaign's audience, as the API spells it. */
export function audienceOf(campaign: Pick<Campaign, "audienceKind" | "waveSize" | "utmSource">): CampaignAudience {
  return campaign.audienceKind === "wave"
    ? { kind: "wave", size: campaign.waveSize ?? 0, utm_source: campaign.utmSource }
    : { kind: "all", utm_source: campaign.utmSource };
}

/** The columns that store an audience. */
export function audienceColumns(audience: CampaignAudience): Pick<Campaign, "audienceKind" | "waveSize" | "utmSource"> {
  return {
    audienceKind: audience.kind,
    waveSize: audience.kind === "wave" ? audience.size : null,
    utmSource: audience.utm_source ?? null,
  };
}
