import { Hono } from "hono";
import type { Deps } from "../../deps";
import type { FormPostEnv } from "../../platform/http/answer";
import { ApiError } from "../../platform/http/errors";
import { type PublicSubmission, submissionRoute } from "../../platform/http/submission";
import { FORM_PAGE_TEXT } from "../../shared/public-forms";
import { FORM_MESSAGES, FORMS, findForm, formSchema, type FormDefinition } from "../../shared/forms";
import { submitForm } from "./submit";

/**
 * POST /api/forms/:form: one route per form definition (shared with the web app, which renders
 * the same definitions), each a declaration of the public submission pipeline
 * (worker/platform/http/submission.ts), as JSON or as a browser's form post (answered with a page).
 * Per client network at most FORMS_LIMITER's submissions of a form a minute (wrangler.toml: 5).
 */
function formSubmission(form: FormDefinition): PublicSubmission<ReturnType<typeof formSchema>, Deps> {
  return {
    limiter: { binding: "FORMS_LIMITER", scope: `form-${form.slug}` },
    schema: formSchema(form),
    // Back to the home page's section of the form, which is named after its slug (#contact).
    page: {
      heading: form.name,
      back: `/#${form.slug}`,
      success: [FORM_MESSAGES.success],
      form: { kind: "fields", label: form.name, submit: FORM_PAGE_TEXT.contactSubmit, fields: form.fields },
    },
    failure: FORM_MESSAGES.failure,
    // No id: a sequential id would tell anyone how many messages the team has had.
    answer: (_input, at) => ({ form_name: form.name, created_at: at }),
    store: (deps, input) => submitForm(deps, form, input),
  };
}

export const formRoutes = new Hono<FormPostEnv>();

for (const form of FORMS) formRoutes.route(`/${form.slug}`, submissionRoute(formSubmission(form)));

// A form the site has goes on to the API's catch-all (a 405 for another method).
formRoutes.all("/:form", async (c, next) => {
  if (!findForm(c.req.param("form")))
    throw new ApiError(404, "form_not_found", `There is no form called "${c.req.param("form").slice(0, 40)}".`);
  await next();
});
