/**
 * What sign-in does, as plain functions of validated input (worker/features/sign-in/schemas.ts) and the
 * worker's dependencies; the routes in worker/features/sign-in/routes.ts only parse requests and shape
 * answers. One module per concern, gathered here:
 *
 * - request.ts: where a request came from, the JWT secret;
 * - codes.ts: POST /otp, the code, its caps and cooldown, its e-mail;
 * - sessions.ts: POST /verify, POST /token, GET /user, POST /logout;
 * - admin.ts: the admin routes (/admin/users), their key and their audit records.
 */

export { adminDeleteUser, adminGetUser, adminListUsers, ADMIN_MAX_PER_PAGE, readPagination, requireAdmin } from "./admin";
export { requestCode, type CodeRequest } from "./codes";
export { jwtSecret, requestOrigin, type RequestOrigin } from "./request";
export {
  authenticate,
  LOGOUT_SCOPES,
  readLogoutScope,
  refreshSession,
  signOut,
  verifyCode,
  type LogoutScope,
  type SessionJson,
} from "./sessions";
