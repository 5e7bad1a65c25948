/**
 * Sign-in (GoTrue-compatible, /auth/v1), as the other features use it: who a request's Bearer
 * token is (the operator API asks), the server secret, and the name the audit trail gives the
 * admin key. worker/index.ts mounts its routes from routes.ts.
 */
export { ADMIN_KEY_OPERATOR, bearerToken, isAdminKey } from "./bearer";
export { AuthError } from "./errors";
export { authenticate, jwtSecret, requestOrigin } from "./service";
