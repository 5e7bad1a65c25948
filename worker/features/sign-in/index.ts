/**
 * Sign-in (GoTrue-compatible, /auth/v1), as the other features use it: who a request's Bearer
 * token is (the operator API and /api/me ask), the request's origin, the server secret, its
 * errors, the name the audit trail gives the admin key, and the folded mailbox an address reaches
 * (the caps', and the waitlist's mailbox key). worker/index.ts mounts its routes from routes.ts.
 */
export { ADMIN_KEY_OPERATOR, bearerToken, isAdminKey } from "./bearer";
export { AuthError } from "./errors";
export { canonicalMailbox } from "./mailbox";
export { authenticate, jwtSecret, requestOrigin } from "./service";
