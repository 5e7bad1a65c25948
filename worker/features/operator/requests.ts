import type { Context } from "hono";
import type { ListCursor, ListQuery, Listed } from "./queries";
import { ApiError } from "../../platform/http/errors";
import { ADMIN_PAGE, type AdminPage } from "../../shared/admin";
import { findForm, type FormDefinition } from "../../shared/forms";
import { isEmailShaped, normalizeEmail } from "../../shared/text";

/**
 * What the operator API reads from a request (a list's limit, cursor and search, a form, a
 * person's address) and the keyset paging every list and export shares.
 */

const badRequest = (message: string) => new ApiError(400, "invalid_request", message);

/** `limit`, `cursor` and `q` of a list request. */
export function listQuery(c: Context): ListQuery {
  const rawLimit = c.req.query("limit");
  let limit: number = ADMIN_PAGE.defaultLimit;
  if (rawLimit !== undefined) {
    limit = Number(rawLimit);
    if (!/^\d+$/.test(rawLimit) || limit < 1 || limit > ADMIN_PAGE.maxLimit)
      throw badRequest(`limit must be a whole number from 1 to ${ADMIN_PAGE.maxLimit}.`);
  }
  const q = (c.req.query("q") ?? "").trim();
  if (q.length > 254) throw badRequest("q must be at most 254 characters.");
  const rawCursor = c.req.query("cursor");
  return { q, limit, after: rawCursor ? readCursor(rawCursor) : null };
}

/** A cursor names the last row of the page before: base64url of `created_at|id`. */
export function writeCursor(cursor: ListCursor): string {
  return btoa(`${cursor.createdAt}|${cursor.id}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function readCursor(cursor: string): ListCursor {
  let text = "";
  try {
    text = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    // Not base64: refused below.
  }
  const match = /^(\d{4}-\d{2}-\d{2}T[\d:.]+Z)\|(\d{1,15})$/.exec(text);
  if (!match) throw badRequest("cursor is not one this API gave: start again without it.");
  return { createdAt: match[1]!, id: Number(match[2]) };
}

/**
 * A page of at most `limit` rows from a read of `limit + 1` (newest first), and where the next
 * page starts: after the page's last row, only when a row beyond it was read (null: no more).
 * The lists and the CSV exports all page so.
 */
export function keysetPage<R extends { createdAt: string; id: number }>(rows: R[], limit: number): { rows: R[]; next: ListCursor | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null };
}

/** A list's answer: the page as JSON, with its cursor and how many rows match in all. */
export function listPage<R extends { createdAt: string; id: number }, T>(
  found: Listed<R>,
  limit: number,
  toJson: (row: R) => T,
): AdminPage<T> {
  const { rows: items, next } = keysetPage(found.rows, limit);
  return { items: items.map(toJson), next_cursor: next ? writeCursor(next) : null, total: found.total };
}

/** `form` of a submissions request: a form of the site (its slug). */
export function formOf(c: Context): FormDefinition {
  const slug = c.req.query("form") ?? "contact";
  const form = findForm(slug);
  if (!form) throw new ApiError(404, "unknown_form", `There is no form "${slug.slice(0, 40)}".`);
  return form;
}

/** The `email` of a people request's JSON body (already read), as sign-in and the waitlist store it. */
export async function personEmail(c: Context): Promise<string> {
  const body: unknown = await c.req.json();
  const given = body !== null && typeof body === "object" && "email" in body ? body.email : undefined;
  const email = typeof given === "string" ? normalizeEmail(given) : "";
  if (!isEmailShaped(email)) throw badRequest("The address is not an e-mail address.");
  return email;
}
