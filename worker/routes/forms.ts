import { Hono } from "hono";
import { submissionBody, validJson } from "../http/body";
import { API_BODY_ERRORS, ApiError, publicFormLimitErrors } from "../http/errors";
import { created, type FormPage, type FormPostEnv } from "../http/form-page";
import { publicForm } from "../http/form-post";
import { limitPerClient } from "../http/rate-limit";
import { screenSubmission } from "../http/turnstile";
import { deliverNew, firstClaim } from "../mail/outbox";
import { FORM_MESSAGES, FORMS, findForm, formSchema, formValues, type FormDefinition } from "../shared/forms";

/**
 * The page a form posted without JavaScript is answered with: headed by the form's name, back
 * to the home page's section of the form, which is named after its slug (the contact form's is
 * #contact).
 */
function formPage(form: FormDefinition): FormPage {
  return { heading: form.name, back: `/#${form.slug}`, success: [FORM_MESSAGES.success] };
}

/**
 * POST /api/forms/:form: the generic submission handler, one route per form definition (shared
 * with the web app, which renders the same definitions), as JSON or as a browser's form post
 * (answered with a page). Per client at most FORMS_RATE_LIMIT submissions of a form per window;
 * a filled honeypot is answered as a success and dropped; Turnstile, when configured, is checked
 * before anything is stored. The submission is stored, then notified after the response.
 */
export const formRoutes = new Hono<FormPostEnv>();

for (const form of FORMS) {
  formRoutes.post(
    `/${form.slug}`,
    publicForm(formPage(form)),
    limitPerClient(
      (c) => ({ name: `form-${form.slug}`, ...c.get("deps").config.publicLimits.forms }),
      publicFormLimitErrors(FORM_MESSAGES.failure),
    ),
    submissionBody(API_BODY_ERRORS),
    validJson(formSchema(form), API_BODY_ERRORS),
    async (c) => {
      const input = c.req.valid("json");
      const deps = c.get("deps");
      const { repo, now } = deps;
      if ((await screenSubmission(c, input)) === "bot") return created(c, { form_name: form.name, created_at: now().toISOString() });

      let stored: Awaited<ReturnType<typeof repo.insertFormSubmission>>;
      try {
        stored = await repo.insertFormSubmission(form.name, formValues(form, input), firstClaim(deps));
      } catch (error) {
        throw new ApiError(500, "internal_error", FORM_MESSAGES.failure, {}, {}, { cause: error });
      }
      const { submission, budgetUsed } = stored;
      c.executionCtx.waitUntil(deliverNew(deps, { kind: "form", record: submission }, budgetUsed));
      return created(c, { form_name: submission.formName, created_at: submission.createdAt });
    },
  );
}

// A form the site has goes on to the API's catch-all (a 405 for another method).
formRoutes.all("/:form", async (c, next) => {
  if (!findForm(c.req.param("form")))
    throw new ApiError(404, "form_not_found", `There is no form called "${c.req.param("form").slice(0, 40)}".`);
  await next();
});
