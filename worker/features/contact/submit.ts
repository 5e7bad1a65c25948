import type { Deps } from "../../deps";
import type { Stored } from "../../platform/http/submission";
import { type FormDefinition, formValues } from "../../shared/forms";
import { handOver } from "../mail-queue";
import { firstClaim } from "../notifications";
import { kickWebhooks } from "../webhooks";
import { mailboxKey } from "../waitlist";
import { canonicalEmail } from "../../shared/text";

/**
 * A generic form's submission (POST /api/forms/:form, routes.ts): stored with its notification
 * claimed and counted against the hour's single e-mails (one database call), and the team's
 * notification's job handed to the mail queue after the response (no database call: the queue's
 * consumer sends it, worker/features/mail-queue). A contact message (a form asking for an address
 * and a message) stores its contact.received webhook event in the same call, and the webhooks
 * queue is kicked after the response. Its 201 carries the stored time.
 */
export async function submitForm(deps: Deps, form: FormDefinition, input: Record<string, unknown>): Promise<Stored> {
  const claim = firstClaim(deps);
  const contact = isContactForm(form);
  const values = formValues(form, input);
  const event = contact ? { slug: form.slug, sender: await senderOf(deps, values.email) } : undefined;
  const { submission, budgetUsed } = await deps.repo.contact.insert(form.name, values, claim, event);
  const job = { type: "notification", kind: "form", id: submission.id, claim: submission.notifyClaim ?? "", budgetUsed } as const;
  return { at: claim.now, after: () => Promise.all([handOver(deps, [job]), ...(contact ? [kickWebhooks(deps)] : [])]) };
}

/** A form whose submissions are contact messages (contact.received): it asks for an address and a message. */
function isContactForm(form: FormDefinition): boolean {
  return (
    form.fields.some((field) => field.name === "email" && field.type === "email") && form.fields.some((field) => field.name === "message")
  );
}

/** A contact message's sender as the children's rule compares it (no database call): its canonical address and mailbox key. */
async function senderOf(deps: Deps, email: unknown): Promise<{ email: string; mailbox: string }> {
  const written = typeof email === "string" ? email : "";
  const canonical = canonicalEmail(written);
  if (canonical === null) return { email: written, mailbox: "" };
  return { email: canonical, mailbox: await mailboxKey(deps.config.auth.jwtSecret, canonical) };
}
