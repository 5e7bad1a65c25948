/**
 * What the notification e-mails say (spec §3): pure functions from a stored record to a
 * title and an HTML body. Every submitted value is HTML-escaped.
 */
import type { Notified } from "./queries";
import { escapeHtml } from "../../platform/html";
import type { MailContent } from "../../platform/mail/transport";

/** Spec §3: field names are shown with underscores as spaces. */
export function displayFieldName(name: string): string {
  return name.replace(/_/g, " ");
}

/** A submitted value as HTML: escaped, line breaks kept as <br>, objects as formatted JSON. */
function displayValue(value: unknown): string {
  if (value !== null && typeof value === "object") {
    return `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
  }
  return escapeHtml(String(value ?? "")).replace(/\r\n|\r|\n/g, "<br>\n");
}

function row(label: string, valueHtml: string): string {
  return `<p><strong>${escapeHtml(label)}:</strong> ${valueHtml}</p>`;
}

export const WAITLIST_FORM_TYPE = "Waitlist Signup";

export function waitlistNotification(entry: { email: string; createdAt: string }): MailContent {
  const title = "New Waitlist Submission";
  return {
    title,
    bodyHtml: [
      `<h2>${title}</h2>`,
      row("Email", escapeHtml(entry.email)),
      row("Form type", WAITLIST_FORM_TYPE),
      row("Submitted at", escapeHtml(entry.createdAt)),
    ].join("\n"),
  };
}

export function formNotification(submission: { formName: string; formData: Record<string, unknown>; createdAt: string }): MailContent {
  const title = `[${submission.formName}] New submission`;
  const fields = Object.entries(submission.formData).map(([name, value]) => row(displayFieldName(name), displayValue(value)));
  return {
    title,
    bodyHtml: [
      `<h2>New ${escapeHtml(submission.formName)} submission</h2>`,
      ...fields,
      row("Submitted at", escapeHtml(submission.createdAt)),
    ].join("\n"),
  };
}

/**
 * One e-mail for many notifications: sent by the cron once the hour's single e-mails
 * (NOTIFY_HOURLY_CAP) are used up. Lists every waitlist entry and every submission it carries,
 * each value escaped, oldest first.
 */
export function digestNotification(items: Notified[], hourlyCap: number): MailContent {
  const entries = items.flatMap((item) => (item.kind === "waitlist" ? [item.record] : []));
  const submissions = items.flatMap((item) => (item.kind === "form" ? [item.record] : []));
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const title = `Digest: ${count(entries.length, "waitlist signup", "waitlist signups")}, ${count(submissions.length, "form submission", "form submissions")}`;
  const parts = [
    `<h2>${escapeHtml(title)}</h2>`,
    `<p>More than ${hourlyCap} notifications this hour, so these come together in one e-mail.</p>`,
  ];
  if (entries.length > 0) {
    parts.push(`<h3>${WAITLIST_FORM_TYPE}</h3>`, "<ol>");
    for (const entry of entries) {
      const source = entry.source ? ` (${escapeHtml(entry.source)})` : "";
      parts.push(`<li>${escapeHtml(entry.email)}${source}, ${escapeHtml(entry.createdAt)}</li>`);
    }
    parts.push("</ol>");
  }
  for (const submission of submissions) {
    parts.push(
      `<h3>${escapeHtml(submission.formName)}, ${escapeHtml(submission.createdAt)}</h3>`,
      ...Object.entries(submission.formData).map(([name, value]) => row(displayFieldName(name), displayValue(value))),
    );
  }
  return { title, bodyHtml: parts.join("\n") };
}
