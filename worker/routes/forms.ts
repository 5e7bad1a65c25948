import { Hono } from "hono";
import type { AppEnv } from "../deps";
import { jsonBody, validJson } from "../http/body";
import { API_BODY_ERRORS, ApiError, methodNotAllowed, publicFormLimitErrors } from "../http/errors";
import { limitPerClient } from "../http/rate-limit";
import { screenSubmission } from "../http/turnstile";
import { deliverNew, firstClaim } from "../mail/outbox";
import { FORM_MESSAGES, FORMS, formSchema, formValues } from "../shared/forms";

/**
 * POST /api/forms/:form: the generic submission handler, one route per form definition (shared
 * with the web app, which renders the same definitions). Per client at most FORMS_RATE_LIMIT
 * submissions of a form per window; a filled honeypot is answered as a success and dropped;
 * Turnstile, when configured, is checked before anything is stored. The submission is stored,
 * then notified after the response.
 */
export const formRoutes = new Hono<AppEnv>();

for (const form of FORMS) {
  formRoutes
    .post(
      `/${form.slug}`,
      limitPerClient((c) => ({ name: `form-${form.slug}`, ...c.get("deps").config.publicLimits.forms }), publicFormLimitErrors(FORM_MESSAGES.failure)),
      jsonBody(API_BODY_ERRORS),
      validJson(formSchema(form), API_BODY_ERRORS),
      async (c) => {
        const input = c.req.valid("json");
        const deps = c.get("deps");
        const { repo, now } = deps;
        if ((await screenSubmission(c, input)) === "bot") return c.json({ form_name: form.name, created_at: now().toISOString() }, 201);

        let stored;
        try {
          stored = await repo.insertFormSubmission(form.name, formValues(form, input), firstClaim(deps));
        } catch (error) {
          throw new ApiError(500, "internal_error", FORM_MESSAGES.failure, {}, {}, { cause: error });
        }
        const { submission, budgetUsed } = stored;
        c.executionCtx.waitUntil(deliverNew(deps, { kind: "form", record: submission }, budgetUsed));
        return c.json({ form_name: submission.formName, created_at: submission.createdAt }, 201);
      },
    )
    .all(`/${form.slug}`, methodNotAllowed(["POST"]));
}

formRoutes.all("/:form", (c) => {
  throw new ApiError(404, "form_not_found", `There is no form called "${c.req.param("form").slice(0, 40)}".`);
});
