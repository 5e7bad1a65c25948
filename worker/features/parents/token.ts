import type { Deps } from "../../deps";
import { secretsEqual, signature } from "../../platform/crypto";
import type { ParentalRequest } from "../../platform/db/schema";

/**
 * The parent's link's token (GET and POST /parent): `<requestId>.<expiresUnix>.<nonce>.<base64url
 * HMAC>`, signed with the server secret under its own purpose, so no other token of this worker
 * passes for it. The nonce is the request's own random value (stored with it), so a link names
 * exactly one request, and a request made again under a reused id (never: ids are AUTOINCREMENT)
 * would not answer to an old link. It expires when the request does: RETENTION_PARENTAL_REQUEST_DAYS
 * after the request was made.
 */

const PURPOSE = "parental-request";
const SHAPE = /^([1-9][0-9]{0,15})\.([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** Why a token cannot be used, each its own page: 400 (not ours, or changed), 410 (expired), 404 (answered, expired and deleted, or unknown). */
export type ParentTokenProblem = "invalid" | "expired" | "unknown";

export class ParentTokenError extends Error {
  override name = "ParentTokenError";
  constructor(readonly problem: ParentTokenProblem) {
    super(`The parent's token is ${problem}.`);
  }
  get status(): 400 | 404 | 410 {
    return this.problem === "invalid" ? 400 : this.problem === "expired" ? 410 : 404;
  }
}

/** When a request made at `createdAt` expires (its link, and the retention schedule's deletion). */
export function expiryOf(deps: Deps, createdAt: string): Date {
  return new Date(new Date(createdAt).getTime() + deps.config.retention.parentalRequestDays * 86_400_000);
}

/** The token of a request's link, working until the request expires. */
export async function parentToken(deps: Deps, request: Pick<ParentalRequest, "id" | "nonce" | "createdAt">): Promise<string> {
  const payload = `${request.id}.${Math.floor(expiryOf(deps, request.createdAt).getTime() / 1000)}.${request.nonce}`;
  return `${payload}.${await signature(deps.config.auth.jwtSecret, PURPOSE, payload)}`;
}

/**
 * The request a token names, as it is stored now. Throws ParentTokenError "invalid" for anything
 * this server did not sign (the signature is checked first, so a forged expiry says nothing),
 * "expired" once its time has passed, "unknown" when its request is gone (answered, deleted) or
 * the nonce is not the request's.
 */
export async function requestOfToken(deps: Deps, token: string): Promise<ParentalRequest> {
  const match = SHAPE.exec(token.trim());
  if (!match) throw new ParentTokenError("invalid");
  const expected = await signature(deps.config.auth.jwtSecret, PURPOSE, `${match[1]}.${match[2]}.${match[3]}`);
  if (!(await secretsEqual(match[4]!, expected))) throw new ParentTokenError("invalid");
  if (Number(match[2]) * 1000 <= deps.now().getTime()) throw new ParentTokenError("expired");
  const request = await deps.repo.parents.requestById(Number(match[1]));
  if (!request || request.nonce !== match[3]) throw new ParentTokenError("unknown");
  return request;
}
