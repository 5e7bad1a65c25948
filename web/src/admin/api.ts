import {
  ADMIN_API,
  ADMIN_ENTRY,
  ADMIN_ERRORS,
  ADMIN_PEOPLE,
  type AdminListedEntry,
  type AdminPage,
  type AdminStats,
  type AdminSubmission,
  type EntryVoided,
  type ErasureCounts,
  type HoldRequest,
  type PersonRecord,
  type PersonRequest,
  type RetryResult,
  type VoidRequest,
} from "@shared/admin";
import {
  CAMPAIGNS_API,
  type AudienceSize,
  type CampaignAudience,
  type CampaignDraftInput,
  type CampaignJson,
  type CampaignList,
  type CampaignPreview,
  type CampaignSendInput,
  type CampaignTestResult,
  type DeadLetterList,
} from "@shared/campaigns";
import { ADMIN_JOINS, type JoinsReport, type JoinsRetried } from "@shared/joins";
import { admin } from "./content";
import { webhookCalls } from "./webhooks-api";
import { MAIL_DEAD_LETTERS_PATH, type MailDeadLetterList, type MailDeadLetterRetried, type MailDeadLetterRetry } from "@shared/mail-queue";

/**
 * The operator API (/api/admin, worker/shared/admin.ts) as the console calls it: every request
 * with the signed-in operator's access token, and every failure turned into one of three things
 * the console acts on (AdminApiError.failure).
 */

/** Why a call failed: nobody (validly) signed in, an account that is no operator, or a message to show. */
export type Failure = { kind: "signedOut" } | { kind: "notOperator" } | { kind: "error"; message: string };

export class AdminApiError extends Error {
  constructor(
    readonly failure: Failure,
    /** The HTTP status, or null when no answer came (network) or no request was made. */
    readonly status: number | null,
    /** The API's error code, when it gave one (e.g. campaign_wrong_status). */
    readonly code: string | null = null,
    /** The field a 400 names (e.g. "url"), and the server's own words for it. */
    readonly detail: { field: string | null; message: string | null } = { field: null, message: null },
  ) {
    super(failure.kind === "error" ? failure.message : failure.kind);
    this.name = "AdminApiError";
  }
}

/**
 * Where the access token comes from: the stored session (refreshed by auth-js when it is about to
 * expire), and a forced refresh for when the server refused the token (401) although it looked
 * valid here. Either gives null when nobody is signed in.
 */
export type TokenSource = {
  token: () => Promise<string | null>;
  refreshedToken: () => Promise<string | null>;
};

/** A CSV export: the file's content and the name to save it under. */
export type CsvFile = { blob: Blob; fileName: string };

/** What a call may add to its request (the method; headers besides Authorization; a body). */
export type Request = { method?: "GET" | "POST" | "PATCH" | "DELETE"; headers?: Record<string, string>; body?: string };

/** A POST of a JSON body. */
const postJson = (body: unknown): Request => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** What POST …/:id/preview answers: the e-mail, and a signed 10-minute address of a page that shows it (for the frames). */
export type CampaignPreviewAnswer = CampaignPreview & { preview_url: string };

/** The campaign routes' paths below the operator API (CAMPAIGNS_API is /api/admin/campaigns). */
const CAMPAIGNS = CAMPAIGNS_API.slice(ADMIN_API.length);

export type ListQuery = { q?: string; cursor?: string | null; limit?: number };

/** Rows per page of the waitlist and contact tables (the `limit` they ask for). */
export const PAGE_SIZE = 25;

export type AdminApi = ReturnType<typeof createAdminApi>;

export function createAdminApi(tokens: TokenSource) {
  async function send(path: string, init: Request = {}): Promise<Response> {
    const attempt = async (token: string) => {
      try {
        return await fetch(`${ADMIN_API}${path}`, {
          ...init,
          headers: { ...init.headers, Authorization: `Bearer ${token}` },
          // Operator data: never from or into the browser's cache (the API also says no-store).
          cache: "no-store",
        });
      } catch (error) {
        console.error(`${init.method ?? "GET"} ${ADMIN_API}${path}: no answer from the server.`, error);
        throw new AdminApiError({ kind: "error", message: admin.errors.network }, null);
      }
    };
    const token = await tokens.token();
    if (!token) throw new AdminApiError({ kind: "signedOut" }, null);
    let response = await attempt(token);
    if (response.status === 401) {
      // The token may have expired or been replaced since it was read: one fresh try.
      const fresh = await tokens.refreshedToken();
      if (!fresh) throw new AdminApiError({ kind: "signedOut" }, 401);
      response = await attempt(fresh);
    }
    if (response.ok) return response;
    throw await failureOf(response);
  }

  async function json<T>(path: string, init?: Request): Promise<T> {
    const response = await send(path, init);
    try {
      return (await response.json()) as T;
    } catch {
      throw new AdminApiError({ kind: "error", message: admin.errors.unexpected }, response.status);
    }
  }

  async function csv(path: string, fallbackName: string): Promise<CsvFile> {
    const response = await send(path, { headers: { Accept: "text/csv" } });
    const blob = await response.blob();
    return { blob, fileName: fileNameOf(response.headers.get("Content-Disposition")) ?? fallbackName };
  }

  return {
    stats: () => json<AdminStats>("/stats"),
    waitlist: (query: ListQuery) => json<AdminPage<AdminListedEntry>>(`/waitlist${searchOf(query)}`),
    hold: (id: number, held: boolean, reason: string) =>
      json<AdminListedEntry>(ADMIN_ENTRY.hold(id), postJson({ held, reason } satisfies HoldRequest)),
    voidReferral: (id: number, reason: string) =>
      json<EntryVoided>(ADMIN_ENTRY.voidReferral(id), postJson({ reason } satisfies VoidRequest)),
    waitlistCsv: () => csv("/waitlist.csv", admin.waitlist.csvName),
    submissions: (form: string, query: ListQuery) => json<AdminPage<AdminSubmission>>(`/submissions${searchOf({ form, ...query })}`),
    submissionsCsv: (form: string) => csv(`/submissions.csv${searchOf({ form })}`, admin.messages.csvName),
    retryNotifications: () => json<RetryResult>("/notifications/retry", { method: "POST" }),
    // The joins waiting for the database (issue 24 §3), and the dead ones put back on the queue (all when no ids).
    waitingJoins: () => json<JoinsReport>(ADMIN_JOINS.list.slice(ADMIN_API.length)),
    retryJoins: (ids?: string[]) => json<JoinsRetried>(ADMIN_JOINS.retry.slice(ADMIN_API.length), postJson(ids ? { ids } : {})),
    mailDeadLetters: () => json<MailDeadLetterList>(MAIL_DEAD_LETTERS_PATH),
    retryMailDeadLetters: (rows?: MailDeadLetterRetry["rows"]) =>
      json<MailDeadLetterRetried>(`${MAIL_DEAD_LETTERS_PATH}/retry`, postJson(rows ? { rows } : {})),
    // The address goes in the body, never in the address of the request (which servers log).
    person: (email: string) => json<PersonRecord>(ADMIN_PEOPLE.lookup, postJson({ email } satisfies PersonRequest)),
    erase: (email: string) => json<ErasureCounts>(ADMIN_PEOPLE.erase, postJson({ email } satisfies PersonRequest)),

    campaigns: () => json<CampaignList>(CAMPAIGNS),
    campaign: (id: number) => json<CampaignJson>(`${CAMPAIGNS}/${id}`),
    createCampaign: (draft: CampaignDraftInput) => json<CampaignJson>(CAMPAIGNS, postJson(draft)),
    updateCampaign: (id: number, draft: CampaignDraftInput) =>
      json<CampaignJson>(`${CAMPAIGNS}/${id}`, { ...postJson(draft), method: "PATCH" }),
    audienceSize: (audience: CampaignAudience) => json<AudienceSize>(`${CAMPAIGNS}/audience`, postJson({ audience })),
    previewCampaign: (id: number) => json<CampaignPreviewAnswer>(`${CAMPAIGNS}/${id}/preview`, { method: "POST" }),
    // The signed-in operator's own address: the server takes it from the token.
    testCampaign: (id: number) => json<CampaignTestResult>(`${CAMPAIGNS}/${id}/test`, postJson({})),
    sendCampaign: (id: number, input: CampaignSendInput) => json<CampaignJson>(`${CAMPAIGNS}/${id}/send`, postJson(input)),
    pauseCampaign: (id: number) => json<CampaignJson>(`${CAMPAIGNS}/${id}/pause`, { method: "POST" }),
    resumeCampaign: (id: number) => json<CampaignJson>(`${CAMPAIGNS}/${id}/resume`, { method: "POST" }),
    cancelCampaign: (id: number) => json<CampaignJson>(`${CAMPAIGNS}/${id}/cancel`, { method: "POST" }),
    recipientsCsv: (id: number) => csv(`${CAMPAIGNS}/${id}/recipients.csv`, admin.campaigns.report.csvName(id)),
    deadLetters: (id: number) => json<DeadLetterList>(`${CAMPAIGNS}/${id}/dead-letters`),
    retryDeadLetters: (id: number, recipientIds?: number[]) =>
      json<CampaignJson>(`${CAMPAIGNS}/${id}/dead-letters/retry`, postJson(recipientIds ? { recipient_ids: recipientIds } : {})),
    ...webhookCalls({ json, send }),
  };
}

/** "?form=contact&q=...&limit=...&cursor=..." with only the parameters that have a value. */
function searchOf(query: ListQuery & { form?: string }): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** The file name of a Content-Disposition header (RFC 6266: filename* first), without any path. */
function fileNameOf(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)?.[1];
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header)?.[1];
  let name: string | undefined;
  try {
    name = extended ? decodeURIComponent(extended.trim()) : plain?.trim();
  } catch {
    name = plain?.trim();
  }
  const base = name?.split(/[\\/]/).pop();
  return base ? base : null;
}

/** The API's error shape {"error":{"code","message"}}, as far as it is there. */
async function failureOf(response: Response): Promise<AdminApiError> {
  let code: string | undefined;
  let message: string | undefined;
  let field: string | null = null;
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown; field?: unknown } };
    if (typeof body.error?.code === "string") code = body.error.code;
    if (typeof body.error?.message === "string") message = body.error.message;
    if (typeof body.error?.field === "string") field = body.error.field;
  } catch {
    // No JSON (a proxy's page, say): the status alone decides.
  }
  const { status } = response;
  const error = (text: string) =>
    new AdminApiError({ kind: "error", message: text }, status, code ?? null, { field, message: message ?? null });
  if (status === 401 || code === ADMIN_ERRORS.notSignedIn) return new AdminApiError({ kind: "signedOut" }, status);
  if (status === 403 && code === ADMIN_ERRORS.notOperator) return new AdminApiError({ kind: "notOperator" }, status);
  if (status === 403) return error(admin.errors.forbidden);
  if (status === 429) return error(admin.errors.tooMany);
  if (status === 400 || status === 422)
    return error(message ? `${admin.errors.badRequest} ${admin.errors.serverSaid(message)}` : admin.errors.badRequest);
  if (status === 404) return error(admin.errors.notFound);
  // A campaign's action that does not apply now (its status changed, the sender is not set): the server's words say which.
  if (status === 409) return error(message ? `${admin.errors.conflict} ${admin.errors.serverSaid(message)}` : admin.errors.conflict);
  if (status === 503) return error(admin.errors.unavailable);
  // The mail transport refused (a test e-mail): its words say why (they never carry an address or the message).
  if (status === 502 && message) return error(`${admin.errors.server} ${admin.errors.serverSaid(message)}`);
  if (status >= 500) return error(admin.errors.server);
  return error(admin.errors.unexpected);
}

/** The message of any error a call threw (an AdminApiError's, or the network's for anything else). */
export function messageOf(error: unknown): string {
  if (error instanceof AdminApiError && error.failure.kind === "error") return error.failure.message;
  return admin.errors.unexpected;
}
