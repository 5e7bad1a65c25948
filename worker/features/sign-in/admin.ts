import type { AppConfig } from "../../platform/config/config";
import type { Deps } from "../../deps";
import { log } from "../../platform/log";
import { ADMIN_KEY_OPERATOR, adminKeyConfigured, bearerToken, isAdminKey } from "./bearer";
import { AuthError, noAuthorization, userNotFound, validationFailed } from "./errors";
import { userJson, type UserJson } from "./user";

/**
 * The admin routes of sign-in (/auth/v1/admin, GoTrue's admin API), for scripts holding the
 * admin key. What they read and erase is recorded in the audit trail (repo.operator.recordAction)
 * and in a log line: the action, the operator ("admin-key"), the time and counts or a user id,
 * never the person's address.
 */

/**
 * The admin routes need `Authorization: Bearer <AUTH_ADMIN_KEY>`. No bearer token is a 401;
 * a wrong one, or any token while no admin key is configured, is a 403.
 */
export async function requireAdmin(config: AppConfig, authorization: string | undefined): Promise<void> {
  const given = bearerToken(authorization);
  if (given === null) throw noAuthorization();
  if (await isAdminKey(config, given)) return;
  if (!adminKeyConfigured(config)) {
    throw new AuthError(403, "not_admin", "User not allowed: the admin API is not configured on this server (AUTH_ADMIN_KEY).");
  }
  throw new AuthError(403, "not_admin", "User not allowed");
}

/**
 * Records what the admin key did: a log line first (so an erasure is traced even if the audit
 * trail cannot be written), then the audit record. A record that cannot be written fails the
 * request (a 500 through the routes' error handler): nothing is answered unrecorded.
 */
async function audit(deps: Deps, action: string, details: Record<string, unknown>): Promise<void> {
  log("info", "auth.admin_action", { action, operator: ADMIN_KEY_OPERATOR, ...details });
  await deps.repo.operator.recordAction(action, ADMIN_KEY_OPERATOR, details, deps.now());
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /admin/users/:id: one user; the look-up is audited when it finds someone. */
export async function adminGetUser(deps: Deps, id: string): Promise<UserJson> {
  const user = UUID.test(id) ? await deps.repo.signIn.findUserById(id.toLowerCase()) : undefined;
  if (!user) throw userNotFound(404);
  await audit(deps, "auth_user.read", { user_id: user.id });
  return userJson(user);
}

/** DELETE /admin/users/:id: the user with their sessions, tokens and code; audited. */
export async function adminDeleteUser(deps: Deps, id: string): Promise<void> {
  const deleted = UUID.test(id) ? await deps.repo.signIn.deleteUser(id.toLowerCase()) : undefined;
  if (!deleted) throw userNotFound(404);
  await audit(deps, "auth_user.deleted", { user_id: deleted.id, users: 1 });
}

export const ADMIN_MAX_PER_PAGE = 1000;

export function readPagination(page: string | undefined, perPage: string | undefined): { page: number; perPage: number } {
  const parse = (raw: string | undefined, fallback: number, max: number, name: string) => {
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1 || value > max) throw validationFailed(`${name} must be a whole number from 1 to ${max}.`);
    return value;
  };
  return { page: parse(page, 1, 1_000_000, "page"), perPage: parse(perPage, 50, ADMIN_MAX_PER_PAGE, "per_page") };
}

/** GET /admin/users: one page of users, newest first, with the total; audited with its counts. */
export async function adminListUsers(deps: Deps, pagination: { page: number; perPage: number }) {
  const { users, total } = await deps.repo.signIn.listUsers(pagination.page, pagination.perPage);
  await audit(deps, "auth_users.listed", { page: pagination.page, per_page: pagination.perPage, users: users.length, total });
  return { users: users.map(userJson), total };
}
