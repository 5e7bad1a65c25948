import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { readBodyObject } from "./body";
import type { PlatformDeps, PlatformEnv } from "./env";
import { API_BODY_ERRORS, type ApiError, errorBody } from "./errors";
import { type FormPage, formPageResponse, type Outcome } from "./form-page";

/**
 * The one place the API decides how to answer: as JSON, or, for a public form posted by a
 * browser without JavaScript, as that form's page (form-page.ts) with the same status and
 * headers. The pipeline of the public forms (submission.ts) marks such a request with its
 * page before anything can fail; every other request is answered in JSON.
 */

/**
 * The API's env (with the app's own dependencies, `D`): the page a form post is answered with
 * (unset for JSON and every other route), and the post's text fields once the pipeline has read
 * them ({} when they could not be read).
 */
export type FormPostEnv<D extends PlatformDeps = PlatformDeps> = PlatformEnv<D> & {
  Variables: { formPage?: FormPage; typed?: Record<string, string> };
};

function answer<E extends FormPostEnv>(
  c: Context<E>,
  status: ContentfulStatusCode,
  json: unknown,
  outcome: (page: FormPage) => Promise<Outcome>,
): Response | Promise<Response> {
  const page = c.get("formPage");
  return page ? outcome(page).then((said) => formPageResponse(c, page, said, status)) : c.json(json, status);
}

/** 201 for a stored (or quietly dropped) submission: the JSON body, or the form's success page. */
export function created<E extends FormPostEnv>(c: Context<E>, json: Record<string, unknown>): Response | Promise<Response> {
  return answer(c, 201, json, async (page) => ({ kind: "success", lines: page.success }));
}

/** 202 for a submission taken in another way than asked (a child's join that asked a parent): the JSON body, or the page with `lines`. */
export function accepted<E extends FormPostEnv>(c: Context<E>, json: Record<string, unknown>, lines: readonly string[]) {
  return answer(c, 202, json, async () => ({ kind: "success", lines, note: false }));
}

/** An API error as the client's answer: {"error":{"code","message",...details}} or the form's page, with its headers. */
export function errorResponse<E extends FormPostEnv>(c: Context<E>, error: ApiError): Response | Promise<Response> {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return answer(c, error.status as ContentfulStatusCode, errorBody(error.code, error.message, error.details), async (page) => ({
    kind: page.informational?.includes(error.code) ? "info" : "error",
    lines: errorLines(error),
    // A post made by another site's page gets nothing back: what it holds is that site's doing.
    refill: error.code === "cross_origin" ? undefined : { values: await typedFields(c), fieldErrors: fieldErrorsOf(error) },
  }));
}

/** The text fields of the refused post: as the pipeline read them, or, refused before it read them (too many attempts), read now. */
async function typedFields<E extends FormPostEnv>(c: Context<E>): Promise<Record<string, string>> {
  const typed = c.get("typed");
  if (typed) return typed;
  try {
    return textFields(await readBodyObject(c, "form", API_BODY_ERRORS));
  } catch {
    return {};
  }
}

/** A form body's fields that are text (all of them, as formFields reads a form post). */
export function textFields(body: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/** A 400's message for each field (validation_failed's `fields`), as text. */
function fieldErrorsOf(error: ApiError): Record<string, string> {
  const fields = error.details.fields;
  if (fields === null || typeof fields !== "object") return {};
  return Object.fromEntries(Object.entries(fields).map(([name, message]) => [name, String(message)]));
}

/** On a page, a 400 names every field to fix (a person may have more than one); any other error says one thing. */
function errorLines(error: ApiError): string[] {
  const fields = error.details.fields;
  if (fields === null || typeof fields !== "object") return [error.message];
  return [...new Set(Object.values(fields).map(String))];
}
