import type { Deps } from "../../deps";
import type { Stored } from "../../platform/http/submission";
import { type FormDefinition, formValues } from "../../shared/forms";
import { deliverNew, firstClaim } from "../notifications";

/**
 * A generic form's submission (POST /api/forms/:form, routes.ts): stored with its notification
 * claimed and counted against the hour's single e-mails (one database call), and the team's
 * notification sent after the response. Its 201 carries the stored time.
 */
export async function submitForm(deps: Deps, form: FormDefinition, input: Record<string, unknown>): Promise<Stored> {
  const claim = firstClaim(deps);
  const { submission, budgetUsed } = await deps.repo.contact.insert(form.name, formValues(form, input), claim);
  return { at: claim.now, after: () => deliverNew(deps, { kind: "form", record: submission }, budgetUsed) };
}
