import {
  ME_DATA_FILENAME,
  ME_ERRORS,
  ME_ROUTES,
  type MeAnswer,
  type MeErasure,
  type MeErasureRequest,
  type MeSubscriptionRequest,
} from "@shared/me";
import type { BirthAnswer } from "@shared/age";
import { retryAfterSeconds, tooManyAttempts } from "@shared/public-forms";
import type { TokenSource } from "../../admin/api";
import type { BirthField } from "../../components/AgeQuestion";
import { ME_TEXT } from "./content";

/**
 * The joiner's API (/api/me, worker/shared/me.ts) as "My place" calls it: every request with the
 * signed-in visitor's access token (a fresh one once, after a 401, as the console does), and
 * every failure turned into what the page acts on (MeApiError.failure).
 */

/** Why a call failed: the sign-in is no longer valid, a state the page shows, or a message to show. */
export type MeFailure =
  | { kind: "signedOut" }
  /** POST /api/me/confirmation when the entry no longer waits for one (confirmed meanwhile, or left). */
  | { kind: "notPending" }
  /** DELETE /api/me: the address typed is not the signed-in one. */
  | { kind: "mismatch" }
  /** POST /api/me/waitlist: the age question's answer refused (400 naming birth_month or birth_year), said at its select. */
  | { kind: "birth"; field: BirthField; message: string }
  /** POST /api/me/waitlist below the consent age (400 `parent_needed`): a parent or guardian decides first. */
  | { kind: "parentNeeded" }
  /**
   * The same answer with `signed_out: true`: the signed-in address was a child's, so the server
   * erased its sign-in (and anything else it held) and the page ends the session here too.
   */
  | { kind: "childErased" }
  | { kind: "error"; message: string };

/** Why the page's sign-in is gone: "Delete everything", or (issue 23) the join found a child's address and the server erased it. */
export type Erased = "self" | "child";

export class MeApiError extends Error {
  constructor(readonly failure: MeFailure) {
    super(failure.kind === "error" ? failure.message : failure.kind);
    this.name = "MeApiError";
  }
}

/** A file to save: its content and name. */
export type DataFile = { blob: Blob; fileName: string };

type Method = "GET" | "POST" | "DELETE";

export type MeApi = ReturnType<typeof createMeApi>;

export function createMeApi(tokens: TokenSource) {
  async function send(path: string, method: Method = "GET", body?: unknown): Promise<Response> {
    const attempt = async (token: string) => {
      try {
        return await fetch(path, {
          method,
          headers: {
            Accept: "application/json",
            Authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          // One person's data: never from or into the browser's cache (the API says no-store too).
          cache: "no-store",
        });
      } catch (error) {
        console.error(`${method} ${path}: no answer from the server.`, error);
        throw new MeApiError({ kind: "error", message: ME_TEXT.errors.network });
      }
    };
    const token = await tokens.token();
    if (!token) throw new MeApiError({ kind: "signedOut" });
    let response = await attempt(token);
    if (response.status === 401) {
      // The token may have expired or been replaced since it was read: one fresh try.
      const fresh = await tokens.refreshedToken();
      if (!fresh) throw new MeApiError({ kind: "signedOut" });
      response = await attempt(fresh);
    }
    if (response.ok) return response;
    throw await failureOf(response, `${method} ${path}`);
  }

  async function answer(path: string, method: Method = "GET", body?: unknown): Promise<MeAnswer> {
    const response = await send(path, method, body);
    try {
      const value: unknown = await response.json();
      if (isMeAnswer(value)) return value;
    } catch {
      // Not JSON: said below.
    }
    console.error(`${method} ${path}: an answer the page cannot read.`);
    throw new MeApiError({ kind: "error", message: ME_TEXT.errors.server });
  }

  return {
    me: () => answer(ME_ROUTES.me),
    /** The one-click join, with the age question's answer (issue 23). */
    join: (birth: BirthAnswer) => answer(ME_ROUTES.waitlist, "POST", { birth_month: birth.month, birth_year: birth.year }),
    leave: () => answer(ME_ROUTES.waitlist, "DELETE"),
    /** Campaign e-mail on (subscribe again) or off (unsubscribe). */
    setSubscribed: (subscribed: boolean) => answer(ME_ROUTES.subscription, "POST", { subscribed } satisfies MeSubscriptionRequest),
    resendConfirmation: async (): Promise<void> => {
      await send(ME_ROUTES.confirmation, "POST");
    },
    data: async (): Promise<DataFile> => {
      const response = await send(ME_ROUTES.data);
      // Saved byte for byte as the API sent it (indented, readable: worker/shared/my-data.ts), typed as JSON whatever the header said.
      const blob = new Blob([await response.arrayBuffer()], { type: "application/json" });
      return { blob, fileName: ME_DATA_FILENAME };
    },
    erase: async (confirm: string): Promise<MeErasure> => {
      const response = await send(ME_ROUTES.me, "DELETE", { confirm } satisfies MeErasureRequest);
      return (await response.json().catch(() => ({}))) as MeErasure;
    },
  };
}

/** The API's error shape {"error":{"code","message","field","retry_after"}}, turned into what the page does. */
async function failureOf(response: Response, call: string): Promise<MeApiError> {
  let code: string | undefined;
  let retryAfter: number | undefined;
  let field: unknown;
  let message: unknown;
  let signedOut = false;
  try {
    const body = (await response.json()) as {
      error?: { code?: unknown; retry_after?: unknown; field?: unknown; message?: unknown; signed_out?: unknown };
    };
    if (typeof body.error?.code === "string") code = body.error.code;
    if (typeof body.error?.retry_after === "number") retryAfter = body.error.retry_after;
    field = body.error?.field;
    message = body.error?.message;
    signedOut = body.error?.signed_out === true;
  } catch {
    // No JSON (a proxy's page, say): the status alone decides.
  }
  const { status } = response;
  if (status === 401 || code === ME_ERRORS.notSignedIn) return new MeApiError({ kind: "signedOut" });
  if (code === ME_ERRORS.notPending) return new MeApiError({ kind: "notPending" });
  if (code === ME_ERRORS.confirmMismatch) return new MeApiError({ kind: "mismatch" });
  if (status === 400 && code === "parent_needed") return new MeApiError({ kind: signedOut ? "childErased" : "parentNeeded" });
  if (status === 400 && (field === "birth_month" || field === "birth_year") && typeof message === "string" && message !== "")
    return new MeApiError({ kind: "birth", field, message });
  if (status === 429) {
    const wait = retryAfter ?? retryAfterSeconds(response.headers.get("Retry-After"), new Date());
    return new MeApiError({ kind: "error", message: tooManyAttempts(wait) });
  }
  console.error(`${call} failed: HTTP ${status}.`);
  return new MeApiError({ kind: "error", message: ME_TEXT.errors.server });
}

const STATUSES: ReadonlySet<unknown> = new Set(["none", "pending", "confirmed"]);

/** Enough of the answer's shape for the page to show it (a proxy's JSON, say, is not it). */
function isMeAnswer(value: unknown): value is MeAnswer {
  if (typeof value !== "object" || value === null) return false;
  const answer = value as Partial<Record<keyof MeAnswer, unknown>>;
  return typeof answer.email === "string" && STATUSES.has(answer.status);
}
