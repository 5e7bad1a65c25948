/**
 * Sign-in: e-mail code sign-in under /auth/v1, the GoTrue-compatible subset @supabase/auth-js
 * needs (docs/api.md). What other features use of it is exported here, and only here:
 *
 * - the user and session behind an `Authorization: Bearer` access token (/api/me, the operator
 *   API), where a request came from, and the secret that signs tokens and keys hashes;
 * - the Bearer header's token and the admin key (the operator API takes it as sign-in's admin
 *   routes do), and who the audit trail names for it;
 * - the mailbox an address reaches (the waitlist folds addresses as the code caps do);
 * - the cron's clean-up of old counters, codes and refresh tokens.
 *
 * Inside, one way down: routes.ts (and not-enabled.ts) read and answer; codes.ts (POST /otp),
 * sessions.ts (POST /verify, POST /token, GET /user, POST /logout) and admin.ts (/admin/users)
 * hold the rules, with request.ts, bearer.ts, mailbox.ts, secrets.ts, access-token.ts, user.ts,
 * email.ts and errors.ts under them; queries/ is its storage (repo.signIn).
 */

export { ADMIN_KEY_OPERATOR, bearerToken, isAdminKey } from "./bearer";
export { forgetDevice } from "./device";
export { AuthError } from "./errors";
export { pruneRecords } from "./housekeeping";
export { canonicalMailbox, foldMailbox } from "./mailbox";
export { jwtSecret, requestOrigin, type RequestOrigin } from "./request";
export { authenticate } from "./sessions";
