/**
 * Addresses stored before they were canonical (issue 22): the cron's backfill that moves them,
 * and what is keyed by them, to their canonical form (canonicalize.ts; queries/ is its storage,
 * repo.addresses). New addresses are canonical when they arrive (worker/shared/text.ts).
 */
export { canonicalizeAddresses, type CanonicalizeReport } from "./canonicalize";
