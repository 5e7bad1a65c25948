import type { Deps } from "../../deps";
import { signConfirmation, verifyConfirmation } from "./keys";

/**
 * Why a confirmation token cannot be used, each its own page (worker/features/waitlist/confirm-routes.ts):
 * "invalid" (not our shape or signature: 400), "expired" (410), "unknown" (a good token whose
 * entry is gone, left or erased: 404). None of them changes anything.
 */
export type ConfirmTokenProblem = "invalid" | "expired" | "unknown";

export class ConfirmTokenError extends Error {
  override name = "ConfirmTokenError";
  constructor(readonly problem: ConfirmTokenProblem) {
    super(`The confirmation token is ${problem}.`);
  }
  /** The HTTP status of the problem's page. */
  get status(): 400 | 404 | 410 {
    return this.problem === "invalid" ? 400 : this.problem === "expired" ? 410 : 404;
  }
}

/**
 * The token of an entry's confirmation link, working for WAITLIST_CONFIRM_TTL_SECONDS from now;
 * `join`: the referral_join of the join whose e-mail it is, so that confirming through it may count that join's referral.
 */
export function confirmationToken(deps: Deps, entryId: number, join: string | null = null): Promise<string> {
  const expires = new Date(deps.now().getTime() + deps.config.waitlist.confirmTtlSeconds * 1000);
  return signConfirmation(deps.config.auth.jwtSecret, entryId, expires, join);
}

/**
 * The entry a token confirms, and the join it carries when it carries one. Throws
 * ConfirmTokenError "invalid" for anything not signed by this server (the signature is checked
 * first, so a forged expiry says nothing), "expired" once its time has passed.
 */
export async function readConfirmationToken(deps: Deps, token: string): Promise<{ entryId: number; join?: string }> {
  const read = await verifyConfirmation(deps.config.auth.jwtSecret, token.trim());
  if (!read) throw new ConfirmTokenError("invalid");
  if (read.expiresUnix * 1000 <= deps.now().getTime()) throw new ConfirmTokenError("expired");
  return read.join ? { entryId: read.entryId, join: read.join } : { entryId: read.entryId };
}
