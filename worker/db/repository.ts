import { desc } from "drizzle-orm";
import { createAdminRepository } from "./admin-repository";
import { createAuthRepository } from "./auth-repository";
import { createConsentRepository } from "./consent-repository";
import { createCampaignDeliveryRepository } from "./campaign-delivery-repository";
import { createCampaignRepository } from "./campaign-repository";
import { createCounterRepository } from "./counter-repository";
import type { Database } from "./database";
import { createHealthRepository } from "./health-repository";
import { createJourneyRepository } from "./journey-repository";
import { type DevMailInput, createOutboxRepository, iso } from "./outbox-repository";
import { createRecipientRepository } from "./recipient-repository";
import { devMailbox } from "./schema";
import type { DevMail } from "./schema";
import { createSubmissionRepository } from "./submission-repository";
import { createWaitlistRepository } from "./waitlist-repository";

export type { CounterWindow } from "./counter-repository";
export type { DevMailInput, FirstClaim, NotificationKind, Notified, NotifiedRecord } from "./outbox-repository";
export type { JoinJourney, JoinResult } from "./waitlist-repository";

/**
 * The only code that talks to the database. It takes a drizzle database of either driver
 * (D1 in the worker by default, libSQL/Turso when configured), so both run the same queries.
 * Every write is one statement or one batch: D1 has no interactive transactions, and single
 * statements with a unique index and conditional updates are what make joins, claims and
 * counters race-free.
 *
 * One module per concern, put together here: the health check (health-repository.ts), the
 * waitlist join and the form submissions (waitlist-, submission-repository.ts), the rate-limit
 * counters (counter-repository.ts), the notification outbox (outbox-repository.ts), sign-in
 * (auth-repository.ts) and the operator API (admin-repository.ts).
 */
export function createRepository(db: Database) {
  return {
    /** Users, codes, sessions and refresh tokens of sign-in. */
    auth: createAuthRepository(db),

    /** The operator API's lists, stats, data-access requests and erasure. */
    admin: createAdminRepository(db),

    /** The joiner's journey: confirmation, places, referrals, leaving, the joiner-mail outbox. */
    journey: createJourneyRepository(db),

    /** Launch day's campaigns as the operator composes them: drafts, audiences, recipients' outcomes. */
    campaigns: createCampaignRepository(db),

    /** Launch day's delivery: expansion, claims and marks, progress, a campaign's status changes. */
    campaignDelivery: createCampaignDeliveryRepository(db),

    /** The notification outbox: claims, outcomes and what is still undelivered. */
    outbox: createOutboxRepository(db),

    /** The suppression list and the consent trail (unsubscribes, renewed consent) by mailbox key. */
    consent: createConsentRepository(db),

    /** What a campaign's recipient sees of themselves: the invitation sent, the address behind an unsubscribe link. */
    recipients: createRecipientRepository(db),

    ...createHealthRepository(db),
    ...createWaitlistRepository(db),
    ...createSubmissionRepository(db),
    ...createCounterRepository(db),

    /** Keeps an e-mail that has no delivery record of its own (a sign-in code) in the dev mailbox. */
    async insertDevMail(mail: DevMailInput, now: Date): Promise<void> {
      await db.insert(devMailbox).values({ ...mail, createdAt: iso(now) });
    },

    /** Newest first. */
    async listDevMail(limit = 100): Promise<DevMail[]> {
      return db.select().from(devMailbox).orderBy(desc(devMailbox.id)).limit(limit);
    },
  };
}

export type Repository = ReturnType<typeof createRepository>;
