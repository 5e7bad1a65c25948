import type { Deps } from "../../deps";
import type { Stored } from "../../platform/http/submission";
import { type FormDefinition, formValues } from "../../shared/forms";
import { handOver } from "../mail-queue";
import { firstClaim } from "../notifications";

/**
 * A generic form's submission (POST /api/forms/:form, routes.ts): stored with its notification
 * claimed and counted against the hour's single e-mails (one database call), and the team's
 * notification's job handed to the mail queue after the response (no database call: the queue's
 * consumer sends it, worker/features/mail-queue). Its 201 carries the stored time.
 */
export async function submitForm(deps: Deps, form: FormDefinition, input: Record<string, unknown>): Promise<Stored> {
  const claim = firstClaim(deps);
  const { submission, budgetUsed } = await deps.repo.contact.insert(form.name, formValues(form, input), claim);
  const job = { type: "notification", kind: "form", id: submission.id, claim: submission.notifyClaim ?? "", budgetUsed } as const;
  return { at: claim.now, after: () => handOver(deps, [job]) };
}
