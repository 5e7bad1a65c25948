import { AUTH_STORAGE_KEY } from "./client";

/**
 * The e-mail of the session auth-js left in localStorage, read synchronously so the header can
 * show who is signed in on the very first paint, before auth-js itself is loaded. It is only a
 * hint: auth-js confirms it (INITIAL_SESSION) or corrects it (e.g. SIGNED_OUT when the refresh
 * token was revoked) shortly after. Anything unreadable counts as signed out.
 */
export function storedSessionEmail(): string | null {
  let raw: string | null;
  try {
    raw = window.localStorage.getItem(AUTH_STORAGE_KEY);
  } catch {
    // Storage can be disabled or blocked (privacy settings): nothing is stored then.
    return null;
  }
  if (!raw) return null;
  try {
    const session: unknown = JSON.parse(raw);
    if (!isRecord(session)) return null;
    // A session auth-js can use carries both tokens; without them it would sign out at once.
    if (typeof session.access_token !== "string" || typeof session.refresh_token !== "string") return null;
    const user = session.user;
    if (!isRecord(user) || typeof user.email !== "string" || user.email === "") return null;
    return user.email;
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
