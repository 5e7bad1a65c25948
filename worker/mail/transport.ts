import type { AppConfig } from "../config";
import type { DevMailInput } from "../db/repository";
import { log } from "../log";

/** One e-mail, ready to hand to a transport. */
export type MailMessage = {
  receivers: string[];
  title: string;
  bodyHtml: string;
  /** The plain-text alternative (the joiner e-mails have one). */
  bodyText?: string;
  /** The provider template for this kind of message, when configured. */
  templateId?: string;
};

export type TransportName = "provider" | "dev-mailbox" | "unconfigured";

/** What a successful send leaves to be stored with the delivery record. */
export type SendReceipt = {
  /** The dev mailbox keeps the message itself: written in the same batch as the sent flag. */
  devMail?: DevMailInput;
};

export interface MailTransport {
  readonly name: TransportName;
  /** Resolves when the message was accepted; throws MailDeliveryError otherwise. */
  send(message: MailMessage): Promise<SendReceipt>;
}

export class MailDeliveryError extends Error {
  override name = "MailDeliveryError";
}

/**
 * The AI provider's run endpoint with its e-mail model. Success is only an answer whose
 * send_email_status is 'success'; an `error` field, a non-2xx status, an unreadable answer or
 * no answer within the timeout are failures.
 */
export function providerTransport(mail: AppConfig["mail"], fetcher: typeof fetch = fetch): MailTransport {
  return {
    name: "provider",
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
        response = await fetcher(mail.apiUrl, {
          method: "POST",
          headers: { Authorization: `Bearer ${mail.token}`, "Content-Type": "application/json" },
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
        throw new MailDeliveryError(`provider error${errorCode(fields.error)}`);
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

/** A provider error's code or type, when it has a short one (never its free-text message). */
function errorCode(error: unknown): string {
  const code =
    typeof error === "object" && error !== null
      ? ((error as Record<string, unknown>).code ?? (error as Record<string, unknown>).type)
      : error;
  return typeof code === "string" && /^[\w.-]{1,60}$/.test(code) ? ` (${code})` : "";
}

/**
 * Development only: hands every e-mail back to be kept in the dev_mailbox table (shown at
 * /dev/mailbox) together with the record's sent flag. The log line says only that one was
 * kept: logs never carry addresses, message text or codes.
 */
export function devMailboxTransport(): MailTransport {
  return {
    name: "dev-mailbox",
    async send(message) {
      log("info", "mail.dev_mailbox", { receivers: message.receivers.length, see: "/dev/mailbox" });
      return {
        devMail: { receivers: message.receivers, title: message.title, bodyHtml: message.bodyHtml, bodyText: message.bodyText ?? null },
      };
    },
  };
}

/** Outside development without a token: every send fails, so records stay undelivered for the retry. */
export function unconfiguredTransport(): MailTransport {
  return {
    name: "unconfigured",
    async send() {
      throw new MailDeliveryError("MAIL_PROVIDER_TOKEN is not set in production: e-mail cannot be sent");
    },
  };
}

export function selectTransport(config: AppConfig): MailTransport {
  if (config.mail.token) return providerTransport(config.mail);
  return config.isDevelopment ? devMailboxTransport() : unconfiguredTransport();
}
