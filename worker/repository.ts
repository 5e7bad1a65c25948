import { createAddressRepository } from "./features/addresses/queries";
import { createCampaignRepository } from "./features/campaigns/queries/campaigns";
import { createCampaignDeliveryRepository } from "./features/campaigns/queries/delivery";
import { createRecipientRepository } from "./features/campaigns/queries/recipients";
import { createWavePreviewQueries } from "./features/campaigns/queries/wave-preview";
import { createConsentRepository } from "./features/campaigns/queries/consent";
import { createSubmissionRepository } from "./features/contact/queries";
import { createDevMailQueries } from "./features/dev-mailbox/queries";
import { createHealthRepository } from "./features/health/queries";
import { createMailQueueRepository } from "./features/mail-queue/queries";
import { createOutboxRepository } from "./features/notifications/queries";
import { createAdminRepository } from "./features/operator/queries";
import { createPagesRepository } from "./features/pages/queries";
import { createParentalRepository } from "./features/parents/queries";
import { createReferralRepository } from "./features/referrals/queries";
import { createRetentionRepository } from "./features/retention/queries";
import { createAuthRepository } from "./features/sign-in/queries";
import { createVisitorMailRepository } from "./features/waitlist/queries/budget";
import { createWaitlistRepository } from "./features/waitlist/queries/join";
import { createJourneyRepository } from "./features/waitlist/queries/journey";
import { createWebhookRepository } from "./features/webhooks/queries";
import { createCounterRepository } from "./platform/db/counters";
import type { Database } from "./platform/db/database";

export type { CounterWindow } from "./platform/db/counters";
export type { FirstClaim, NotificationKind, Notified, NotifiedRecord } from "./features/notifications/queries";
export type { JoinJourney, JoinResult } from "./features/waitlist/queries/join";

/**
 * The only code that talks to the database: one namespace per feature (`repo.<feature>.<verb>`),
 * each put together from that feature's own queries (features/<name>/queries*), plus the
 * platform's counters. It takes a drizzle database of either driver (D1 in the worker by
 * default, libSQL/Turso when configured), so both run the same queries. Every write is one
 * statement or one batch: D1 has no interactive transactions, and single statements with a
 * unique index and conditional updates are what make joins, claims and counters race-free.
 */
export function createRepository(db: Database) {
  return {
    /** The join, confirmation, places, leaving, and the joiner-mail outbox with its daily budget. */
    waitlist: { ...createWaitlistRepository(db), ...createJourneyRepository(db), ...createVisitorMailRepository(db) },

    /** A referrer's friends still pending, and the network flag. */
    referrals: createReferralRepository(db),

    /** A child's requests for a parent's consent (each its own e-mail's outbox), and how parents answered. */
    parents: createParentalRepository(db),

    /** The generic forms' submissions (the contact form). */
    contact: createSubmissionRepository(db),

    /** The team's notification outbox: claims, outcomes and what is still undelivered. */
    notifications: createOutboxRepository(db),

    /** The mail queue's batches (claimed and recorded in one call each), the cron's re-queue, and its dead letters. */
    mailQueue: createMailQueueRepository(db),

    /** Users, codes, sessions and refresh tokens of sign-in. */
    signIn: createAuthRepository(db),

    /** Signed webhooks and Slack: the endpoints, and the deliveries the consumer claims and records. */
    webhooks: createWebhookRepository(db),

    /** The operator API's lists, stats, data-access requests and erasure. */
    operator: createAdminRepository(db),

    /** Launch day's campaigns as the operator composes them: drafts, audiences and a wave's first entries, recipients' outcomes. */
    campaigns: { ...createCampaignRepository(db), ...createWavePreviewQueries(db) },

    /** Launch day's delivery: expansion, claims and marks, progress, a campaign's status changes. */
    campaignDelivery: createCampaignDeliveryRepository(db),

    /** The suppression list and the consent trail (unsubscribes, renewed consent) by mailbox key. */
    consent: createConsentRepository(db),

    /** What a campaign's recipient sees of themselves: the invitation sent, the address behind an unsubscribe link. */
    recipients: createRecipientRepository(db),

    /** The backfill of addresses stored before they were canonical: its progress and its moves. */
    addresses: createAddressRepository(db),

    /** The retention schedule's sweeps and what they deleted, per day and kind. */
    retention: createRetentionRepository(db),

    /** The per-client and per-mailbox counters behind every limit. */
    counters: createCounterRepository(db),

    /** The health check's schema probe. */
    health: createHealthRepository(db),

    /** The confirmed count the home page states (read once a minute per location: features/pages/live-count.ts). */
    pages: createPagesRepository(db),

    /** What the dev mailbox shows. */
    devMail: createDevMailQueries(db),
  };
}

export type Repository = ReturnType<typeof createRepository>;
