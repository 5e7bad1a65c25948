import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../deps";
import { type ApiError, errorBody } from "./errors";
import { type FormPage, formPageResponse, type Outcome } from "./form-page";

/**
 * The one place the API decides how to answer: as JSON, or, for a public form posted by a
 * browser without JavaScript, as that form's page (form-page.ts) with the same status and
 * headers. The pipeline of the public forms (public-submission.ts) marks such a request with its
 * page before anything can fail; every other request is answered in JSON.
 */

/** The API's env: the page a form post is answered with (unset for JSON and every other route). */
export type FormPostEnv = AppEnv & { Variables: { formPage?: FormPage } };

function answer(c: Context<FormPostEnv>, status: ContentfulStatusCode, json: unknown, outcome: (page: FormPage) => Outcome) {
  const page = c.get("formPage");
  return page ? formPageResponse(c, page, outcome(page), status) : c.json(json, status);
}

/** 201 for a stored (or quietly dropped) submission: the JSON body, or the form's success page. */
export function created(c: Context<FormPostEnv>, json: Record<string, unknown>): Response | Promise<Response> {
  return answer(c, 201, json, (page) => ({ kind: "success", lines: page.success }));
}

/** An API error as the client's answer: {"error":{"code","message",...details}} or the form's page, with its headers. */
export function errorResponse(c: Context<FormPostEnv>, error: ApiError): Response | Promise<Response> {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return answer(c, error.status as ContentfulStatusCode, errorBody(error.code, error.message, error.details), () => ({
    kind: "error",
    lines: errorLines(error),
  }));
}

/** On a page, a 400 names every field to fix (a person may have more than one); any other error says one thing. */
function errorLines(error: ApiError): string[] {
  const fields = error.details.fields;
  if (fields === null || typeof fields !== "object") return [error.message];
  return [...new Set(Object.values(fields).map(String))];
}
