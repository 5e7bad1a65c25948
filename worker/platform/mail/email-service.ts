import { errorCode, MailDeliveryError, type MailTransport, rejectionOf } from "./transport";

/**
 * Cloudflare Email Service through the worker's `send_email` binding (EMAIL in wrangler.toml):
 * the structured send() of the runtime's types, which takes the message's own headers (a
 * campaign's List-Unsubscribe pair). Used for what visitors receive once the launch team has
 * onboarded the sending domain and set EMAIL_FROM (docs/launch-day.md); locally wrangler's
 * simulation only logs and keeps the message, so the dev mailbox stays the local transport.
 *
 * The binding throws an error with a string code (E_SENDER_NOT_VERIFIED, E_RATE_LIMIT_EXCEEDED,
 * E_RECIPIENT_SUPPRESSED, ...): the error stored and logged is that code, never the message,
 * which may quote the address; E_RECIPIENT_SUPPRESSED (Cloudflare's own list of addresses that
 * bounced or reported spam) is a permanent rejection.
 */
export function emailServiceTransport(binding: SendEmail, from: string): MailTransport {
  const sender = senderOf(from);
  return {
    name: "email-service",
    canSetHeaders: true,
    async send(message) {
      // The message's own headers only. Its idempotencyKey is not one of them: Email Service
      // deduplicates by no header, and a header would show the recipient internal ids.
      const headers: Record<string, string> = { ...message.headers };
      try {
        await binding.send({
          from: sender,
          to: message.receivers,
          subject: message.title,
          html: message.bodyHtml,
          ...(message.bodyText ? { text: message.bodyText } : {}),
          ...(Object.keys(headers).length > 0 ? { headers } : {}),
        });
      } catch (error) {
        const code = errorCode(error);
        throw new MailDeliveryError(`email service refused the message${code ? ` (${code})` : ""}`, {
          cause: error,
          rejection: code ? rejectionOf(code) : null,
        });
      }
      return {};
    },
  };
}

/** EMAIL_FROM as the binding takes it: "Name <address>" as a name and an address, a bare address as it is. */
export function senderOf(from: string): string | EmailAddress {
  const match = /^\s*"?([^"<]*?)"?\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(from);
  if (!match) return from.trim();
  return match[1] ? { name: match[1], email: match[2]! } : match[2]!;
}
