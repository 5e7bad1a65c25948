import type { AppConfig } from "../../platform/config/config";
import { MIN_ADMIN_KEY_LENGTH, isWeakSecret } from "../../platform/config/production";
import { secretsEqual } from "../../platform/crypto";

/**
 * Reading `Authorization: Bearer <token>` and recognising the admin key, in one place for the
 * sign-in admin routes (/auth/v1/admin) and the operator API (/api/admin).
 */

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or null. */
export function bearerToken(authorization: string | null | undefined): string | null {
  return BEARER.exec(authorization ?? "")?.[1] ?? null;
}

/**
 * Whether `token` is the configured AUTH_ADMIN_KEY. Compared in constant time (through digests,
 * so neither where they differ nor their lengths shows), and only a strong key counts: with a
 * weak or missing key configured, nothing is the admin key.
 */
export async function isAdminKey(config: AppConfig, token: string): Promise<boolean> {
  const expected = config.auth.adminKey;
  const matches = await secretsEqual(token, expected);
  return matches && !isWeakSecret(expected, MIN_ADMIN_KEY_LENGTH);
}

/** Whether the configured admin key is strong enough to open anything (AUTH_ADMIN_KEY). */
export function adminKeyConfigured(config: AppConfig): boolean {
  return !isWeakSecret(config.auth.adminKey, MIN_ADMIN_KEY_LENGTH);
}

/** Who the audit trail and the logs name for a request made with the admin key. */
export const ADMIN_KEY_OPERATOR = "admin-key";
