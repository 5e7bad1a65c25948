import { desc } from "drizzle-orm";
import { createAdminRepository } from "./features/operator/queries";
import { createAuthRepository } from "./features/sign-in/queries";
import { createConsentRepository } from "./features/campaigns/unsubscribe/queries";
import { createCampaignDeliveryRepository } from "./features/campaigns/queries/delivery";
import { createCampaignRepository } from "./features/campaigns/queries/campaigns";
import { createCounterRepository } from "./platform/db/counters";
import type { Database } from "./platform/db/database";
import { createHealthRepository } from "./features/health/queries";
import { createJourneyRepository } from "./features/waitlist/queries/journey";
import { type DevMailInput, createOutboxRepository, iso } from "./features/notifications/queries";
import { createRecipientRepository } from "./features/campaigns/queries/recipients";
import { devMailbox } from "./platform/db/schema";
import type { DevMail } from "./platform/db/schema";
import { createSubmissionRepository } from "./features/contact/queries";
import { createWaitlistRepository } from "./features/waitlist/queries/join";

export type { CounterWindow } from "./platform/db/counters";
export type { DevMailInput, FirstClaim, NotificationKind, Notified, NotifiedRecord } from "./features/notifications/queries";
export type { JoinJourney, JoinResult } from "./features/waitlist/queries/join";

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
