import type { AppConfig } from "../config/config";
import type { DevMailInput } from "../db/schema";
import { log } from "../log";

/** What an e-mail says: its title (the subject) and its HTML body. */
export type MailContent = { title: string; bodyHtml: string };

/** One e-mail, ready to hand to a transport. */
export type MailMessage = {
  receivers: string[];
  title: string;
  bodyHtml: string;
  /** The plain-text alternative (the joiner e-mails have one). */
  bodyText?: string;
  /** The provider template for this kind of message, when configured. */
  templateId?: string;
  /**
   * The message's own headers (a campaign's List-Unsubscribe and List-Unsubscribe-Post), set
   * by a transport that can (canSetHeaders); the others send the message without them.
   */
  headers?: Record<string, string>;
  /**
   * Names this message once, however often it is handed over ("campaign-<cid>-recipient-<rid>"):
   * a provider that honours it delivers a message sent twice (the worker died between the
   * provider's acceptance and writing "sent") only once. Only the provider's HTTP request
   * carries it (Idempotency-Key); it is never a header of the message, which recipients see.
   */
  idempotencyKey?: string;
};

export type TransportName = "provider" | "email-service" | "dev-mailbox" | "unconfigured";

/** What a successful send leaves to be stored with the delivery record. */
export type SendReceipt = {
  /** The dev mailbox keeps the message itself: written in the same batch as the sent flag. */
  devMail?: DevMailInput;
};

export interface MailTransport {
  readonly name: TransportName;
  /** Whether a message's `headers` reach the recipient (the spec's provider takes none: docs/api.md "Campaign e-mail and unsubscribing"). */
  readonly canSetHeaders: boolean;
  /** Resolves when the message was accepted; throws MailDeliveryError otherwise. */
  send(message: MailMessage): Promise<SendReceipt>;
}

/** What a transport reports about a recipient who will never take mail: a campaign suppresses the mailbox. */
export type PermanentRejection = "bounced" | "complained";

export class MailDeliveryError extends Error {
  override name = "MailDeliveryError";
  /** Set when the transport says the recipient refuses mail for good (not worth a retry); unset for anything that may pass later. */
  readonly rejection: PermanentRejection | null;

  constructor(message: string, options: ErrorOptions & { rejection?: PermanentRejection | null } = {}) {
    super(message, options);
    this.rejection = options.rejection ?? null;
  }
}

/**
 * A transport's error code read as a permanent rejection: bounces and complaints (spam reports)
 * by their usual names, and Email Service's E_RECIPIENT_SUPPRESSED (its own list of addresses
 * that bounced or reported spam; it does not say which, so it counts as a bounce). Anything else
 * (rate limits, a domain not yet verified, an outage) is not the recipient's doing: null.
 */
export function rejectionOf(code: string): PermanentRejection | null {
  // "complain" only: a code that merely says "spam" may be a content filter refusing the message,
  // which is no recipient's doing (taken as a complaint, it would suppress a whole campaign's list).
  if (/complain/i.test(code)) return "complained";
  if (/bounce|suppressed|mailbox_?(?:not_?found|unavailable)/i.test(code)) return "bounced";
  return null;
}

/**
 * The AI provider's run endpoint with its e-mail model. Success is only an answer whose
 * send_email_status is 'success'; an `error` field, a non-2xx status, an unreadable answer or
 * no answer within the timeout are failures.
 */
export function providerTransport(mail: AppConfig["mail"], fetcher: typeof fetch = fetch): MailTransport {
  return {
    name: "provider",
    // The spec's run endpoint takes receivers, title, body_html (and text): no headers.
    canSetHeaders: false,
    async send(message) {
      if (!mail.apiUrl) throw new MailDeliveryError("MAIL_API_URL is not set");
      const inputs: Record<string, unknown> = {
        receivers: message.receivers,
        title: message.title,
        body_html: message.bodyHtml,
        project_id: mail.projectId,
      };
      if (message.bodyText) inputs.body_text = message.bodyText;
      if (message.templateId) inputs.template_id = message.templateId;
      let response: Response;
      try {
        const headers: Record<string, string> = { Authorization: `Bearer ${mail.token}`, "Content-Type": "application/json" };
        // The HTTP convention for "this request once" (the IETF's Idempotency-Key header).
        if (message.idempotencyKey) headers["Idempotency-Key"] = message.idempotencyKey;
        response = await fetcher(mail.apiUrl, {
          method: "POST",
          headers,
          body: JSON.stringify({ model: mail.model, inputs }),
          signal: AbortSignal.timeout(mail.timeoutMs),
        });
      } catch (error) {
        const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
        throw new MailDeliveryError(timedOut ? `provider did not answer within ${mail.timeoutMs} ms` : "provider could not be reached", {
          cause: error,
        });
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        throw new MailDeliveryError("provider answer could not be read", { cause: error });
      }
      // The provider's answer may repeat the message's receivers or text: errors (which are
      // logged and stored) say what went wrong without quoting it.
      if (!response.ok) throw new MailDeliveryError(`provider answered HTTP ${response.status}`);
      let answer: unknown;
      try {
        answer = JSON.parse(text);
      } catch {
        throw new MailDeliveryError(`provider answer is not JSON (${text.length} characters)`);
      }
      const fields = (answer && typeof answer === "object" ? answer : {}) as Record<string, unknown>;
      if (fields.error !== undefined && fields.error !== null) {
        const code = errorCode(fields.error);
        throw new MailDeliveryError(`provider error${code ? ` (${code})` : ""}`, { rejection: code ? rejectionOf(code) : null });
      }
      if (fields.send_email_status !== "success") {
        const status =
          typeof fields.send_email_status === "string" ? fields.send_email_status.slice(0, 40) : typeof fields.send_email_status;
        throw new MailDeliveryError(`provider send_email_status is ${JSON.stringify(status)}`);
      }
      return {};
    },
  };
}

/** A provider error's code or type, when it has a short one (never its free-text message); "" otherwise. */
export function errorCode(error: unknown): string {
  const code =
    typeof error === "object" && error !== null
      ? ((error as Record<string, unknown>).code ?? (error as Record<string, unknown>).type)
      : error;
  return typeof code === "string" && /^[\w.-]{1,60}$/.test(code) ? code : "";
}

/**
 * Development only: hands every e-mail back to be kept in the dev_mailbox table (shown at
 * /dev/mailbox) together with the record's sent flag. The log line says only that one was
 * kept: logs never carry addresses, message text or codes.
 */
export function devMailboxTransport(): MailTransport {
  return {
    name: "dev-mailbox",
    // It keeps them, so /dev/mailbox shows what Email Service would send.
    canSetHeaders: true,
    async send(message) {
      log("info", "mail.dev_mailbox", { receivers: message.receivers.length, see: "/dev/mailbox" });
      // What Email Service would deliver: the message's headers, never its idempotencyKey.
      const headers = { ...message.headers };
      return {
        devMail: {
          receivers: message.receivers,
          title: message.title,
          bodyHtml: message.bodyHtml,
          bodyText: message.bodyText ?? null,
          headers: Object.keys(headers).length > 0 ? headers : null,
        },
      };
    },
  };
}

/** Outside development without a token: every send fails, so records stay undelivered for the retry. */
export function unconfiguredTransport(): MailTransport {
  return {
    name: "unconfigured",
    canSetHeaders: false,
    async send() {
      throw new MailDeliveryError("MAIL_PROVIDER_TOKEN is not set in production: e-mail cannot be sent");
    },
  };
}

/** The company's transport: notifications to COMPANY_EMAIL (docs/configuration.md). */
export function selectTransport(config: AppConfig): MailTransport {
  if (config.mail.token) return providerTransport(config.mail);
  return config.isDevelopment ? devMailboxTransport() : unconfiguredTransport();
}
