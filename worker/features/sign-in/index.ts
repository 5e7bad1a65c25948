/**
 * Sign-in, as the other features use it: who is signed in (authenticate a Bearer access token,
 * for /api/me), the request's origin, the server secret, its errors, and the folded mailbox an
 * address reaches (the caps', and the waitlist's mailbox key).
 */
export { AuthError } from "./errors";
export { canonicalMailbox } from "./mailbox";
export { authenticate, jwtSecret, requestOrigin } from "./service";
