import { Hono } from "hono";
import { FORM_MESSAGES, findForm, validateSubmission } from "../shared/forms";
import { ApiError, methodNotAllowed } from "../http/errors";
import { readJsonObject } from "../http/json-body";
import { deliverClaimed } from "../mail/delivery";
import type { AppEnv } from "../services";

/**
 * POST /api/forms/:form: the generic submission handler. The form definition (shared with the
 * web app) decides what is valid; the submission is stored, then notified after the response.
 */
export const formRoutes = new Hono<AppEnv>().post("/:form", async (c) => {
  const slug = c.req.param("form");
  const form = findForm(slug);
  if (!form) throw new ApiError(404, "form_not_found", `There is no form called "${slug.slice(0, 40)}".`);

  const body = await readJsonObject(c.req.raw);
  const result = validateSubmission(form, body);
  if (!result.ok) {
    const [field, message] = Object.entries(result.fieldErrors)[0]!;
    throw new ApiError(400, "validation_failed", message, { field, fields: result.fieldErrors });
  }

  const { repo, delivery, config, now } = c.get("services");
  let submission;
  try {
    submission = await repo.insertFormSubmission(form.name, result.data, { now: now(), lockMs: config.notify.lockMs });
  } catch (error) {
    throw new ApiError(500, "internal_error", FORM_MESSAGES.failure, { cause: error });
  }
  c.executionCtx.waitUntil(deliverClaimed(delivery, "form", submission));
  return c.json({ id: submission.id, form_name: submission.formName, created_at: submission.createdAt }, 201);
}).all("/:form", methodNotAllowed(["POST"]));
