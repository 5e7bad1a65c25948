import { FORM_MESSAGES, type FormDefinition } from "@shared/forms";
import { WAITLIST_MESSAGES } from "@shared/waitlist";

/** What a submission came to: done, or the message to show the visitor. */
export type SubmitOutcome = { ok: true } | { ok: false; message: string };

/**
 * POST /api/waitlist (README "API"): 201 joined; 400 carries the server's validation message;
 * 409 is the duplicate of spec §5; anything else, or no answer at all, is the generic failure of
 * spec §8, logged for whoever looks at the console.
 */
export async function joinWaitlist(email: string, source: string): Promise<SubmitOutcome> {
  let response: Response;
  try {
    response = await postJson("/api/waitlist", { email, source });
  } catch (error) {
    console.error("Joining the waitlist failed: no answer from the server.", error);
    return { ok: false, message: WAITLIST_MESSAGES.failure };
  }
  if (response.ok) return { ok: true };
  if (response.status === 409) return { ok: false, message: WAITLIST_MESSAGES.duplicate };
  const message = await errorMessage(response);
  if (response.status === 400 && message) return { ok: false, message };
  console.error(`Joining the waitlist failed: HTTP ${response.status}.`, message);
  return { ok: false, message: WAITLIST_MESSAGES.failure };
}

/** POST /api/forms/:form with the form's values; every failure is spec §8's one message. */
export async function submitForm(form: FormDefinition, values: Record<string, string>): Promise<SubmitOutcome> {
  try {
    const response = await postJson(`/api/forms/${encodeURIComponent(form.slug)}`, values);
    if (response.ok) return { ok: true };
    console.error(`Sending the ${form.name} failed: HTTP ${response.status}.`, await errorMessage(response));
  } catch (error) {
    console.error(`Sending the ${form.name} failed: no answer from the server.`, error);
  }
  return { ok: false, message: FORM_MESSAGES.failure };
}

function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
}

/** The message of the API's error shape {"error":{"code","message"}}, when there is one. */
async function errorMessage(response: Response): Promise<string | undefined> {
  try {
    const body: unknown = await response.json();
    if (typeof body !== "object" || body === null || !("error" in body)) return undefined;
    const { error } = body;
    if (typeof error !== "object" || error === null || !("message" in error)) return undefined;
    return typeof error.message === "string" && error.message !== "" ? error.message : undefined;
  } catch {
    return undefined;
  }
}
