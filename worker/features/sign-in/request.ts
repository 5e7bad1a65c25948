import type { AppConfig } from "../../platform/config/config";
import { MIN_JWT_SECRET_LENGTH, isWeakSecret } from "../../platform/config/production";
import { clientAddress } from "../../platform/http/client";
import { log } from "../../platform/log";
import { AuthError } from "./errors";

/** What every sign-in rule needs of the request and the settings: where it came from, the secret. */

/** Where a request came from: the issuer (this origin's /auth/v1) and the client. */
export type RequestOrigin = { issuer: string; ip: string | null; userAgent: string | null };

/**
 * Where a request comes from: the issuer is this origin's /auth/v1, as in GoTrue; the client is
 * the address Cloudflare reports (clients cannot set CF-Connecting-IP through Cloudflare).
 */
export function requestOrigin(request: Request): RequestOrigin {
  return {
    issuer: `${new URL(request.url).origin}/auth/v1`,
    ip: clientAddress(request.headers),
    userAgent: request.headers.get("user-agent"),
  };
}

/** The JWT secret, or a 500 that says what to configure (and a log line for the operator). */
export function jwtSecret(config: AppConfig): string {
  const secret = config.auth.jwtSecret;
  if (isWeakSecret(secret, MIN_JWT_SECRET_LENGTH)) {
    log("error", "auth.not_configured", {
      reason: `AUTH_JWT_SECRET must be a random value of at least ${MIN_JWT_SECRET_LENGTH} characters`,
    });
    throw new AuthError(500, "unexpected_failure", "Sign-in is not configured on this server.");
  }
  return secret;
}
