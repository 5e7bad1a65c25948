import type { FormDefinition } from "@shared/forms";
import { HONEYPOT_FIELD, retryAfterSeconds, TURNSTILE_FIELD, tooManyAttempts } from "@shared/public-forms";
import { contactForm, waitlistForm } from "./form-content";

/** Where the waitlist forms post: the JSON call below, and the browser itself before the app runs. */
export const WAITLIST_ENDPOINT = "/api/waitlist";

/** Where a form of the shared definitions posts (JSON from the app, or the browser's own post). */
export function formEndpoint(form: Pick<FormDefinition, "slug">): string {
  return `/api/forms/${encodeURIComponent(form.slug)}`;
}

/**
 * What a waitlist join came to: joined, or known already (good news too); a parent must decide
 * first (400 `parent_needed`: the form asks for their address instead), or was asked (202
 * `parent_asked`); or the message to show, at `field` when the server named one the visitor can
 * correct (the e-mail, the birth month or year, the parent's address).
 */
export type WaitlistOutcome =
  | { kind: "joined" | "known" | "parentNeeded" | "parentAsked" }
  | { kind: "error"; message: string; field?: WaitlistField };

/** The fields of the waitlist form a 400 can name. */
export type WaitlistField = "email" | "birth_month" | "birth_year" | "parent_email";
const WAITLIST_FIELDS: readonly WaitlistField[] = ["birth_month", "birth_year", "parent_email", "email"];

/**
 * What the form sends besides the placement: the visitor's `email`, or, once a parent must
 * decide, only `parent_email` (the child's address is never sent again); and the age question's
 * answer (`birth_month`, `birth_year`).
 */
export type WaitlistJoin = Partial<Record<WaitlistField, string>>;

/**
 * What a form submission came to: sent, or what to show. `fieldErrors` holds the server's
 * message for each field it refused (a 400), to be shown at that field; `message` is for the
 * form as a whole.
 */
export type SubmitOutcome = { ok: true } | { ok: false; message: string; fieldErrors: Readonly<Record<string, string>> };

/**
 * What every public form sends besides its own fields (worker/shared/public-forms.ts): the
 * honeypot's value, "" from a person, and the Turnstile token when the page has the widget.
 */
export type PublicFormExtras = { honeypot: string; turnstileToken?: string };

/** The site's words for the Turnstile refusals any public form can get (form-content.ts); a 429 says its wait (tooManyAttempts). */
type RefusalMessages = { notVerified: string; verificationUnavailable: string };

/**
 * The API's error shape {"error":{"code","message","field","fields","retry_after"}}, as far as it
 * is there; `fields` holds each refused field's message (docs/api.md "Public API").
 */
type ApiErrorBody = { code?: string; message?: string; field?: string; fields: Readonly<Record<string, string>>; retryAfter?: number };

/**
 * POST /api/waitlist (docs/api.md "Public API"): 201 joined; 409 is the duplicate of spec §5, which means the
 * address is on the list: good news, not a failure; 202 `parent_asked` and 400 `parent_needed`
 * are the parent path (issue 23); another 400 carries the server's message for the field it
 * names; a refusal (too many attempts, Turnstile) gets its own words; anything else, or no
 * answer at all, is the generic failure of spec §8, logged for whoever looks at the console.
 */
export async function joinWaitlist(
  join: WaitlistJoin,
  source: string,
  extras: PublicFormExtras,
  attribution: Readonly<Record<string, string>> = {},
): Promise<WaitlistOutcome> {
  const messages = waitlistForm.messages;
  const failure: WaitlistOutcome = { kind: "error", message: messages.failure };
  let response: Response;
  try {
    response = await postJson(WAITLIST_ENDPOINT, { ...join, source, ...attribution, ...extraFields(extras) });
  } catch (error) {
    console.error("Joining the waitlist failed: no answer from the server.", error);
    return failure;
  }
  if (response.status === 202) return { kind: "parentAsked" };
  if (response.ok) return { kind: "joined" };
  if (response.status === 409) return { kind: "known" };
  const error = await errorBody(response);
  const refusal = refusalMessage(response, error, messages);
  if (refusal) return { kind: "error", message: refusal };
  if (response.status === 400 && error.code === PARENT_NEEDED) return { kind: "parentNeeded" };
  const field = WAITLIST_FIELDS.find((name) => error.fields[name]) ?? WAITLIST_FIELDS.find((name) => name === error.field);
  const message = (field && error.fields[field]) ?? error.message;
  if (response.status === 400 && message) return { kind: "error", message, ...(field ? { field } : {}) };
  console.error(`Joining the waitlist failed: HTTP ${response.status}.`, error.message);
  return failure;
}

/** The API's code for a join below the consent age without a parent's address (docs/api.md). */
const PARENT_NEEDED = "parent_needed";

/**
 * POST /api/forms/:form with the form's values. A 400 that names fields of this form gives
 * each its message, to be shown at the field; a refusal (too many attempts, Turnstile) gets its
 * own words; every other failure is spec §8's one message, logged.
 */
export async function submitForm(form: FormDefinition, values: Record<string, string>, extras: PublicFormExtras): Promise<SubmitOutcome> {
  const messages = contactForm.messages;
  const failed = (message: string, fieldErrors: Readonly<Record<string, string>> = {}): SubmitOutcome => ({
    ok: false,
    message,
    fieldErrors,
  });
  try {
    const response = await postJson(formEndpoint(form), { ...values, ...extraFields(extras) });
    if (response.ok) return { ok: true };
    const error = await errorBody(response);
    const refusal = refusalMessage(response, error, messages);
    if (refusal) return failed(refusal);
    // Only the fields the visitor can see and correct: anything else is the site's own mistake.
    const fieldErrors = Object.fromEntries(
      form.fields.flatMap((field) => {
        const text = error.fields[field.name];
        return text ? [[field.name, text]] : [];
      }),
    );
    if (response.status === 400 && Object.keys(fieldErrors).length > 0) return failed("", fieldErrors);
    console.error(`Sending the ${form.name} failed: HTTP ${response.status}.`, error.message);
  } catch (error) {
    console.error(`Sending the ${form.name} failed: no answer from the server.`, error);
  }
  return failed(messages.failure);
}

/**
 * The answers that are not failures of the site but refusals of this attempt, which the visitor
 * can do something about: wait (429, whatever its body: a limit in front of the worker answers
 * it too, perhaps with only a Retry-After header, perhaps with neither), saying how long; or try
 * again once Turnstile has checked them (403) or can be reached (503).
 */
function refusalMessage(response: Response, error: ApiErrorBody, messages: RefusalMessages): string | undefined {
  const { status } = response;
  if (status === 429) return tooManyAttempts(error.retryAfter ?? retryAfterSeconds(response.headers.get("Retry-After"), new Date()));
  if (status === 403 && error.code === "verification_failed") return messages.notVerified;
  if (status === 503 && error.code === "verification_unavailable") return messages.verificationUnavailable;
  return undefined;
}

/** The extras under the names the API reads; no token field at all when the page has no widget. */
function extraFields({ honeypot, turnstileToken }: PublicFormExtras): Record<string, string> {
  return turnstileToken ? { [HONEYPOT_FIELD]: honeypot, [TURNSTILE_FIELD]: turnstileToken } : { [HONEYPOT_FIELD]: honeypot };
}

function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
}

/** The code, message and field messages of the API's error shape, each kept only when it is a non-empty string. */
async function errorBody(response: Response): Promise<ApiErrorBody> {
  const none: ApiErrorBody = { fields: {} };
  try {
    const body: unknown = await response.json();
    if (!isRecord(body) || !isRecord(body.error)) return none;
    const { code, message, field, fields, retry_after } = body.error;
    return {
      code: nonEmpty(code),
      message: nonEmpty(message),
      field: nonEmpty(field),
      retryAfter: typeof retry_after === "number" && retry_after > 0 ? retry_after : undefined,
      fields: isRecord(fields)
        ? Object.fromEntries(
            Object.entries(fields).flatMap(([name, value]) => {
              const text = nonEmpty(value);
              return text ? [[name, text]] : [];
            }),
          )
        : {},
    };
  } catch {
    return none;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const nonEmpty = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
