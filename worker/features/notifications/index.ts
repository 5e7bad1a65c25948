/**
 * The team's notifications, as the other features use them: a record is stored with its
 * notification claimed (firstClaim, in the storing write) and its job handed to the mail queue
 * after the response (worker/features/mail-queue, which sends notificationMessage within the
 * hour's cap, withinCap); the cron re-queues what is due within the cap and digests the rest (runOutbox).
 */
export { firstClaim, notificationMessage, runOutbox, withinCap } from "./outbox";
export type { FirstClaim, Notified } from "./queries";
