import { toHex } from "../../shared/hash";
import { hmac } from "../../platform/crypto";

/**
 * How the audit trail names the person an operator's action was about (an erasure): keyed with
 * the server secret, so the trail never holds the address, yet the same address always gives
 * the same hash (a later request about it can be matched to the record).
 */
export async function subjectHash(secret: string, email: string): Promise<string> {
  return toHex(await hmac(secret, "audit-subject", email));
}
