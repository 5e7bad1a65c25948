import { and, count, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { AUDIENCE_ORDER, audienceWhere } from "./campaigns";
import type { CampaignAudience } from "../../../shared/campaigns";
import type { Database } from "../../../platform/db/database";
import { waitlist } from "../../../platform/db/schema";
import { pagePlaces } from "../../operator/queries/journey";
import { flaggedNetworks } from "../../referrals/queries";

/**
 * Who an invite wave would draw first (issue 22), shown to the operator before it is sent: its
 * first entries by place, by the audience's own definition and order (audienceWhere,
 * AUDIENCE_ORDER), each referrer flagged by the referrals' network flag (flaggedNetworks: the
 * rule is decided there) marked, and so are the friends such a referrer brought. Also how many
 * flagged referrers the whole wave holds and how many of its entries joined through one (beyond
 * the first rows too), and how many entries it skips because an operator held them out of waves.
 */

type Wave = Extract<CampaignAudience, { kind: "wave" }>;

/** One of the wave's first entries. */
export type WaveRow = {
  id: number;
  email: string;
  place: number;
  referralCode: string | null;
  referredBy: string | null;
  referralsConfirmed: number;
  /** Its most confirmed referrals from one network when that flags it, else null. */
  fromOneNetwork: number | null;
  /** Whether the referrer it joined through is flagged. */
  referredByFlagged: boolean;
};

export type WavePreview = { first: WaveRow[]; flagged: number; flaggedFriends: number; held: number };

/** The flagged referrers' codes with their most referrals from one network (one row per code). */
function flaggedCodes(db: Database, flagAt: number, name: string) {
  const perNetwork = flaggedNetworks(db, flagAt).as(`${name}_networks`);
  return db
    .select({ code: sql<string>`${perNetwork.code}`.as(`${name}_code`), n: sql<number>`max(${perNetwork.n})`.as(`${name}_n`) })
    .from(perNetwork)
    .groupBy(perNetwork.code)
    .as(name);
}

/** The first `limit` of the wave (at most its size), the flagged and their friends in the whole wave, and the held it skips: one batch. */
export async function wavePreview(db: Database, audience: Wave, options: { limit: number; flagAt: number }): Promise<WavePreview> {
  const firstOf = (size: number) =>
    db
      .select()
      .from(waitlist)
      .where(audienceWhere(audience))
      .orderBy(...AUDIENCE_ORDER)
      .limit(size);
  const flagged = flaggedCodes(db, options.flagAt, "flagged");
  const referrer = flaggedCodes(db, options.flagAt, "referrer_flagged");
  const first = () => firstOf(Math.min(options.limit, audience.size)).as("first");
  const wave = firstOf(audience.size).as("wave");
  // What the wave would draw were holds lifted: its audience with held_at set instead of null.
  const heldWhere = and(audienceWhere({ ...audience, kind: "all" }), isNull(waitlist.invitedAt), isNotNull(waitlist.heldAt));
  const firstRows = first();
  const [rows, places, [inWave], [friendsInWave], [held]] = await db.batch([
    db
      .select({
        id: firstRows.id,
        email: firstRows.email,
        referralCode: firstRows.referralCode,
        referredBy: firstRows.referredBy,
        referralsConfirmed: firstRows.referralsConfirmed,
        fromOneNetwork: flagged.n,
        referredByFlagged: sql<number>`${referrer.code} is not null`.as("referred_by_flagged"),
      })
      .from(firstRows)
      .leftJoin(flagged, eq(flagged.code, firstRows.referralCode))
      .leftJoin(referrer, eq(referrer.code, firstRows.referredBy))
      .orderBy(firstRows.rankKey, firstRows.confirmSeq),
    pagePlaces(db, firstOf(Math.min(options.limit, audience.size)).getSQL()),
    db.select({ n: count() }).from(wave).innerJoin(flagged, eq(flagged.code, wave.referralCode)),
    db.select({ n: count() }).from(wave).innerJoin(referrer, eq(referrer.code, wave.referredBy)),
    db.select({ n: count() }).from(waitlist).where(heldWhere),
  ]);
  const placeOf = new Map(places.map((row) => [Number(row.id), Number(row.place)]));
  return {
    first: rows.map((row) => ({
      ...row,
      place: placeOf.get(row.id) ?? 0,
      fromOneNetwork: row.fromOneNetwork === null ? null : Number(row.fromOneNetwork),
      referredByFlagged: Boolean(row.referredByFlagged),
    })),
    flagged: inWave?.n ?? 0,
    flaggedFriends: friendsInWave?.n ?? 0,
    held: held?.n ?? 0,
  };
}

/** The repository's part (repo.campaigns.wavePreview). */
export function createWavePreviewQueries(db: Database) {
  return {
    /** Who the wave would draw first, marked when flagged; the flagged and their friends in the whole wave; the held it skips. */
    wavePreview: (audience: Wave, options: { limit: number; flagAt: number }): Promise<WavePreview> => wavePreview(db, audience, options),
  };
}
