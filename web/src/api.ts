import type { FormDefinition } from "@shared/forms";
import { HONEYPOT_FIELD, TURNSTILE_FIELD } from "@shared/public-forms";
import { contactForm, waitlistForm } from "./content";

/** What a submission came to: done, or the message to show the visitor. */
export type SubmitOutcome = { ok: true } | { ok: false; message: string };

/**
 * What every public form sends besides its own fields (worker/shared/public-forms.ts): the
 * honeypot's value, "" from a person, and the Turnstile token when the page has the widget.
 */
export type PublicFormExtras = { honeypot: string; turnstileToken?: string };

/** The site's words for the refusals any public form can get (content.ts). */
type RefusalMessages = { rateLimited: string; notVerified: string; verificationUnavailable: string };

/** The API's error shape {"error":{"code","message"}}, as far as it is there. */
type ApiErrorBody = { code?: string; message?: string };

/**
 * POST /api/waitlist (README "API"): 201 joined; 400 carries the server's validation message;
 * 409 is the duplicate of spec §5; a refusal (too many attempts, Turnstile) gets its own words;
 * anything else, or no answer at all, is the generic failure of spec §8, logged for whoever
 * looks at the console.
 */
export async function joinWaitlist(email: string, source: string, extras: PublicFormExtras): Promise<SubmitOutcome> {
  const messages = waitlistForm.messages;
  let response: Response;
  try {
    response = await postJson("/api/waitlist", { email, source, ...extraFields(extras) });
  } catch (error) {
    console.error("Joining the waitlist failed: no answer from the server.", error);
    return { ok: false, message: messages.failure };
  }
  if (response.ok) return { ok: true };
  if (response.status === 409) return { ok: false, message: messages.duplicate };
  const error = await errorBody(response);
  const refusal = refusalMessage(response.status, error, messages);
  if (refusal) return { ok: false, message: refusal };
  if (response.status === 400 && error.message) return { ok: false, message: error.message };
  console.error(`Joining the waitlist failed: HTTP ${response.status}.`, error.message);
  return { ok: false, message: messages.failure };
}

/**
 * POST /api/forms/:form with the form's values. A refusal (too many attempts, Turnstile) gets
 * its own words; every other failure is spec §8's one message, logged.
 */
export async function submitForm(form: FormDefinition, values: Record<string, string>, extras: PublicFormExtras): Promise<SubmitOutcome> {
  const messages = contactForm.messages;
  try {
    const response = await postJson(`/api/forms/${encodeURIComponent(form.slug)}`, { ...values, ...extraFields(extras) });
    if (response.ok) return { ok: true };
    const error = await errorBody(response);
    const refusal = refusalMessage(response.status, error, messages);
    if (refusal) return { ok: false, message: refusal };
    console.error(`Sending the ${form.name} failed: HTTP ${response.status}.`, error.message);
  } catch (error) {
    console.error(`Sending the ${form.name} failed: no answer from the server.`, error);
  }
  return { ok: false, message: messages.failure };
}

/**
 * The answers that are not failures of the site but refusals of this attempt, which the visitor
 * can do something about: wait (429, whatever its body: a limit in front of the worker answers
 * it too), or try again once Turnstile has checked them (403) or can be reached (503).
 */
function refusalMessage(status: number, error: ApiErrorBody, messages: RefusalMessages): string | undefined {
  if (status === 429) return messages.rateLimited;
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

/** The code and message of the API's error shape, each when it is a non-empty string. */
async function errorBody(response: Response): Promise<ApiErrorBody> {
  try {
    const body: unknown = await response.json();
    if (typeof body !== "object" || body === null || !("error" in body)) return {};
    const { error } = body;
    if (typeof error !== "object" || error === null) return {};
    const text = (key: string) => {
      const value: unknown = (error as Record<string, unknown>)[key];
      return typeof value === "string" && value !== "" ? value : undefined;
    };
    return { code: text("code"), message: text("message") };
  } catch {
    return {};
  }
}
