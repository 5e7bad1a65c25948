/**
 * Referrals, as the other features use them: a new referral code for a confirmation, and the
 * network flag's log line after a referred confirmation. The place formula, the counting of a
 * referral and its credit, and the flag's rule are the data layer's (queries.ts), put into the
 * waitlist's confirming batches and the operator's stats there.
 */
export { newReferralCode } from "./code";
export { flagNetwork } from "./network-flag";
