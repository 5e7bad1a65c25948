/**
 * The team's notifications, as the other features use them: a record is stored with its
 * notification claimed (firstClaim, in the storing write) and sent after the response
 * (deliverNew); the cron sends what is due, singles then a digest (runOutbox).
 */
export { deliverNew, firstClaim, runOutbox } from "./outbox";
export type { FirstClaim } from "./queries";
