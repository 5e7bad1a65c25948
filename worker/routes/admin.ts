import { Hono, type Context, type MiddlewareHandler } from "hono";
import { AuthError } from "../auth/errors";
import { secretsEqual, subjectHash } from "../auth/secrets";
import { authenticate, jwtSecret, requestOrigin } from "../auth/service";
import { MIN_ADMIN_KEY_LENGTH, isWeakSecret } from "../config";
import type { ListCursor, ListQuery } from "../db/admin-repository";
import type { AuthSession, FormSubmission, WaitlistEntry } from "../db/schema";
import type { AppEnv } from "../deps";
import { csvStream, type CsvValue } from "../http/csv";
import { ApiError, apiLimitErrors } from "../http/errors";
import { limitPerClient } from "../http/rate-limit";
import { describeError, log } from "../log";
import {
  ADMIN_ERRORS,
  ADMIN_PAGE,
  ATTRIBUTION_FIELDS,
  type AdminPage,
  type AdminSession,
  type AdminSubmission,
  type AdminWaitlistEntry,
  type ErasureCounts,
  type PersonRecord,
  type RetryResult,
} from "../shared/admin";
import { findForm, formSlugOf, type FormDefinition } from "../shared/forms";
import { isEmailShaped, normalizeEmail } from "../shared/text";

/**
 * The operator API, /api/admin/* (README "Operator API"): what the console (/admin/) shows, and
 * what scripts use. Every request counts against the client's OPERATOR_RATE_LIMIT first, then
 * must come from an operator:
 *
 * - `Authorization: Bearer <access token>` of a signed-in user whose address is in
 *   OPERATOR_EMAILS, checked at every request (removing an address revokes it at once); or
 * - `Authorization: Bearer <AUTH_ADMIN_KEY>` (a script), when a strong key is configured.
 *
 * No credentials or a token that is not valid: 401 not_signed_in; a valid token of anyone else:
 * 403 not_operator. Answers are never stored (the API's Cache-Control: no-store).
 */

type OperatorEnv = AppEnv & { Variables: { operator: string } };

/** Who the audit trail names for a script using the admin key. */
const ADMIN_KEY_OPERATOR = "admin-key";

const notSignedIn = () =>
  new ApiError(
    401,
    ADMIN_ERRORS.notSignedIn,
    "Sign in with an operator's address, or send Authorization: Bearer <AUTH_ADMIN_KEY>.",
    {},
    {
      "WWW-Authenticate": 'Bearer realm="operator"',
    },
  );

const operatorOnly: MiddlewareHandler<OperatorEnv> = async (c, next) => {
  const deps = c.get("deps");
  const authorization = c.req.header("Authorization") ?? "";
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  if (!token) throw notSignedIn();
  const adminKey = deps.config.auth.adminKey;
  // Compared in constant time, and only a strong key counts: a weak one opens nothing.
  if ((await secretsEqual(token, adminKey)) && !isWeakSecret(adminKey, MIN_ADMIN_KEY_LENGTH)) {
    c.set("operator", ADMIN_KEY_OPERATOR);
    return next();
  }
  let email: string;
  try {
    email = (await authenticate(deps, requestOrigin(c.req.raw), authorization)).user.email;
  } catch (error) {
    // Expired, signed out, forged: not signed in. The database failing is not the caller's fault.
    if (error instanceof AuthError && error.status < 500) throw notSignedIn();
    throw error;
  }
  if (!deps.config.operatorEmails.has(email)) {
    throw new ApiError(403, ADMIN_ERRORS.notOperator, "This account is not an operator of the site (OPERATOR_EMAILS).");
  }
  c.set("operator", email);
  return next();
};

const limited = limitPerClient(
  (c) => ({ name: "operator", ...c.get("deps").config.operatorLimit }),
  apiLimitErrors((retryAfter) => `Too many requests. Try again in ${retryAfter} seconds.`, "Something went wrong. Please try again."),
);

// ---------------------------------------------------------------------------------------------
// Reading requests

const badRequest = (message: string) => new ApiError(400, "invalid_request", message);

/** `limit`, `cursor` and `q` of a list request. */
function listQuery(c: Context): ListQuery {
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
function writeCursor(row: { createdAt: string; id: number }): string {
  return btoa(`${row.createdAt}|${row.id}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function readCursor(cursor: string): ListCursor {
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

/** A page of `limit` rows, asked for as `limit + 1` so the cursor is given only when more follow. */
function page<R extends { createdAt: string; id: number }, T>(rows: R[], limit: number, toJson: (row: R) => T): AdminPage<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items: items.map(toJson), next_cursor: rows.length > limit && last ? writeCursor(last) : null };
}

/** `form` of a submissions request: a form of the site (its slug). */
function formOf(c: Context): FormDefinition {
  const slug = c.req.query("form") ?? "contact";
  const form = findForm(slug);
  if (!form) throw new ApiError(404, "unknown_form", `There is no form "${slug.slice(0, 40)}".`);
  return form;
}

/** The address of /people/:email, as sign-in and the waitlist store it. */
function personEmail(c: Context): string {
  const email = normalizeEmail(c.req.param("email") ?? "");
  if (!isEmailShaped(email)) throw badRequest("The address is not an e-mail address.");
  return email;
}

// ---------------------------------------------------------------------------------------------
// Answers

const delivery = (row: WaitlistEntry | FormSubmission) => ({
  email_sent: row.emailSent,
  email_sent_at: row.emailSentAt,
  notify_attempts: row.notifyAttempts,
  notify_last_error: row.notifyLastError,
});

function waitlistJson(row: WaitlistEntry): AdminWaitlistEntry {
  return {
    id: row.id,
    email: row.email,
    source: row.source,
    utm_source: row.utmSource,
    utm_medium: row.utmMedium,
    utm_campaign: row.utmCampaign,
    referrer_host: row.referrerHost,
    ...delivery(row),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

function submissionJson(row: FormSubmission): AdminSubmission {
  return { id: row.id, form: formSlugOf(row.formName), fields: row.formData, ...delivery(row), created_at: row.createdAt };
}

function sessionJson(session: AuthSession): AdminSession {
  return {
    id: session.id,
    created_at: session.createdAt,
    updated_at: session.updatedAt,
    refreshed_at: session.refreshedAt,
    user_agent: session.userAgent,
    ip: session.ip,
  };
}

const WAITLIST_COLUMNS = [
  "id",
  "email",
  "source",
  ...ATTRIBUTION_FIELDS,
  "email_sent",
  "email_sent_at",
  "created_at",
  "updated_at",
] as const;

/** How many rows one read of an export takes: small enough for any Worker's memory. */
const EXPORT_PAGE = 1000;

function csvResponse(c: Context<OperatorEnv>, name: string, body: ReadableStream<Uint8Array>): Response {
  const date = c.get("deps").now().toISOString().slice(0, 10);
  return c.body(body, 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${name}-${date}.csv"`,
  });
}

const exportFailed = (what: string) => (error: unknown) =>
  log("error", "admin.export_failed", { export: what, error: describeError(error) });

export const adminRoutes = new Hono<OperatorEnv>()
  .use("*", limited, operatorOnly)

  .get("/stats", async (c) => {
    const deps = c.get("deps");
    return c.json(await deps.repo.admin.stats(deps.now()));
  })

  .get("/waitlist", async (c) => {
    const query = listQuery(c);
    const rows = await c.get("deps").repo.admin.listWaitlist({ ...query, limit: query.limit + 1 });
    return c.json(page(rows, query.limit, waitlistJson));
  })

  .get("/waitlist.csv", (c) => {
    const { admin } = c.get("deps").repo;
    const body = csvStream<ListCursor>(
      WAITLIST_COLUMNS,
      async (after) => {
        const rows = await admin.listWaitlist({ q: "", limit: EXPORT_PAGE, after });
        const last = rows[rows.length - 1];
        const json = rows.map(waitlistJson);
        return {
          rows: json.map((entry) => WAITLIST_COLUMNS.map((column): CsvValue => entry[column])),
          next: rows.length === EXPORT_PAGE && last ? { createdAt: last.createdAt, id: last.id } : null,
        };
      },
      exportFailed("waitlist"),
    );
    return csvResponse(c, "waitlist", body);
  })

  .get("/submissions", async (c) => {
    const form = formOf(c);
    const query = listQuery(c);
    const rows = await c.get("deps").repo.admin.listSubmissions(form.name, { ...query, limit: query.limit + 1 });
    return c.json(page(rows, query.limit, submissionJson));
  })

  .get("/submissions.csv", (c) => {
    const form = formOf(c);
    const { admin } = c.get("deps").repo;
    const fieldNames = form.fields.map((field) => field.name);
    const body = csvStream<ListCursor>(
      ["id", "created_at", ...fieldNames, "email_sent", "email_sent_at"],
      async (after) => {
        const rows = await admin.listSubmissions(form.name, { q: "", limit: EXPORT_PAGE, after });
        const last = rows[rows.length - 1];
        return {
          rows: rows.map((row) => [
            row.id,
            row.createdAt,
            ...fieldNames.map((name): CsvValue => {
              const value = row.formData[name];
              return value === undefined || value === null ? null : typeof value === "string" ? value : JSON.stringify(value);
            }),
            row.emailSent,
            row.emailSentAt,
          ]),
          next: rows.length === EXPORT_PAGE && last ? { createdAt: last.createdAt, id: last.id } : null,
        };
      },
      exportFailed(`submissions:${form.slug}`),
    );
    return csvResponse(c, `${form.slug}-submissions`, body);
  })

  .post("/notifications/retry", async (c) => {
    const deps = c.get("deps");
    const requeued = await deps.repo.admin.requeueUndelivered();
    await deps.repo.admin.recordAction("notifications.retried", c.get("operator"), { requeued }, deps.now());
    return c.json({ requeued } satisfies RetryResult);
  })

  .get("/people/:email", async (c) => {
    const email = personEmail(c);
    const found = await c.get("deps").repo.admin.person(email);
    const { user, signInCode: code } = found;
    return c.json({
      email,
      waitlist: found.waitlist ? waitlistJson(found.waitlist) : null,
      submissions: found.submissions.map(submissionJson),
      user: user
        ? {
            id: user.id,
            email: user.email,
            email_confirmed_at: user.emailConfirmedAt,
            last_sign_in_at: user.lastSignInAt,
            user_metadata: user.userMetadata,
            created_at: user.createdAt,
            updated_at: user.updatedAt,
            sessions: user.sessions.map(sessionJson),
          }
        : null,
      sign_in_code: code
        ? { sent_at: code.sentAt, expires_at: code.expiresAt, usable: code.live && code.expiresAt > c.get("deps").now().toISOString() }
        : null,
    } satisfies PersonRecord);
  })

  .delete("/people/:email", async (c) => {
    const deps = c.get("deps");
    const email = personEmail(c);
    const counts = await deps.repo.admin.erasePerson(email, {
      operator: c.get("operator"),
      subjectHash: await subjectHash(jwtSecret(deps.config), email),
      now: deps.now(),
    });
    log("info", "admin.person_erased", { operator: c.get("operator"), ...counts });
    return c.json(counts satisfies ErasureCounts);
  });
