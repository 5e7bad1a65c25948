import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../worker/platform/config/config";
import { createDeps } from "../../worker/deps";
import { emailServiceTransport, senderOf } from "../../worker/platform/mail/email-service";
import { MailDeliveryError, type MailMessage, providerTransport, rejectionOf } from "../../worker/platform/mail/transport";
import { PROVIDER_ENV } from "../support/fake-provider";

/**
 * Issue 17 §3: the transports of visitor e-mail. Cloudflare Email Service (the EMAIL send_email
 * binding) takes a message's own headers (never its idempotency key: it deduplicates by no
 * header, and recipients see headers), and says which refusals are
 * the recipient's for good; the spec's provider takes no headers but is sent the idempotency key
 * as the HTTP header Idempotency-Key. Deps picks Email Service for visitors once EMAIL_FROM is set.
 */

const MESSAGE: MailMessage = {
  receivers: ["student@example.com"],
  title: "We're open",
  bodyHtml: "<p>Hi</p>",
  bodyText: "Hi",
  headers: {
    "List-Unsubscribe": "<https://homeworkhelper.app/unsubscribe?token=t>",
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  },
  idempotencyKey: "campaign-4-recipient-9",
};

/** A stand-in for the binding: keeps what it was given, or throws `error`. */
function fakeBinding(error?: unknown) {
  const sent: unknown[] = [];
  const binding = {
    async send(message: unknown) {
      sent.push(message);
      if (error) throw error;
      return { messageId: "<id@example.com>" };
    },
  } as unknown as SendEmail;
  return { binding, sent };
}

/** An error as the binding throws it: a message (which may quote the address) and a string code. */
const bindingError = (code: string) => Object.assign(new Error(`refused student@example.com: ${code}`), { code });

describe("Email Service (the EMAIL send_email binding)", () => {
  it("sends the structured message: from, to, subject, html, text and the headers, never the idempotency key (recipients see headers)", async () => {
    const { binding, sent } = fakeBinding();
    const transport = emailServiceTransport(binding, "Homework Helper <hello@homeworkhelper.app>");
    expect(transport).toMatchObject({ name: "email-service", canSetHeaders: true });
    expect(await transport.send(MESSAGE)).toEqual({});
    expect(sent).toEqual([
      {
        from: { name: "Homework Helper", email: "hello@homeworkhelper.app" },
        to: ["student@example.com"],
        subject: "We're open",
        html: "<p>Hi</p>",
        text: "Hi",
        headers: MESSAGE.headers,
      },
    ]);
  });

  it("a message without headers, key or text sends none of them", async () => {
    const { binding, sent } = fakeBinding();
    await emailServiceTransport(binding, "hello@homeworkhelper.app").send({
      receivers: ["a@example.com"],
      title: "Code",
      bodyHtml: "<p>1</p>",
    });
    expect(sent).toEqual([{ from: "hello@homeworkhelper.app", to: ["a@example.com"], subject: "Code", html: "<p>1</p>" }]);
  });

  it("a campaign message's idempotency key alone adds no header: no X-Idempotency-Key reaches the recipient", async () => {
    const { binding, sent } = fakeBinding();
    await emailServiceTransport(binding, "hello@homeworkhelper.app").send({ ...MESSAGE, headers: undefined });
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toHaveProperty("headers");
    expect(JSON.stringify(sent[0])).not.toContain("campaign-4-recipient-9");
  });

  it("EMAIL_FROM as the binding takes it", () => {
    expect(senderOf("Homework Helper <hello@homeworkhelper.app>")).toEqual({ name: "Homework Helper", email: "hello@homeworkhelper.app" });
    expect(senderOf('"Homework Helper" <hello@homeworkhelper.app>')).toEqual({
      name: "Homework Helper",
      email: "hello@homeworkhelper.app",
    });
    expect(senderOf("<hello@homeworkhelper.app>")).toBe("hello@homeworkhelper.app");
    expect(senderOf(" hello@homeworkhelper.app ")).toBe("hello@homeworkhelper.app");
  });

  it("classifies a refusal by its code: a suppressed recipient is permanent (bounced); a rate limit or an unverified sender is not; the error never quotes the address", async () => {
    const cases: [unknown, string, "bounced" | "complained" | null][] = [
      [bindingError("E_RECIPIENT_SUPPRESSED"), "email service refused the message (E_RECIPIENT_SUPPRESSED)", "bounced"],
      [bindingError("E_RATE_LIMIT_EXCEEDED"), "email service refused the message (E_RATE_LIMIT_EXCEEDED)", null],
      [bindingError("E_SENDER_NOT_VERIFIED"), "email service refused the message (E_SENDER_NOT_VERIFIED)", null],
      [new Error("network lost to student@example.com"), "email service refused the message", null],
    ];
    for (const [thrown, message, rejection] of cases) {
      const error = await emailServiceTransport(fakeBinding(thrown).binding, "hello@homeworkhelper.app")
        .send(MESSAGE)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect((error as MailDeliveryError).message).toBe(message);
      expect((error as MailDeliveryError).rejection).toBe(rejection);
      expect((error as MailDeliveryError).cause).toBe(thrown);
    }
  });

  it("the local binding (wrangler's simulation) accepts the message as the transport builds it", async () => {
    const transport = emailServiceTransport(env.EMAIL, "Homework Helper <hello@homeworkhelper.app>");
    await expect(transport.send(MESSAGE)).resolves.toEqual({});
  });
});

describe("the spec's provider", () => {
  /** The provider transport with a fetch that keeps each request and answers `answer`. */
  function provider(answer: () => Response) {
    const requests: Request[] = [];
    const config = readConfig({ ...PROVIDER_ENV, ENVIRONMENT: "production" });
    const transport = providerTransport(config.mail, async (input, init) => {
      requests.push(new Request(input as RequestInfo, init));
      return answer();
    });
    return { transport, requests };
  }

  it("sends a message's idempotency key as the HTTP header Idempotency-Key (and none without one); it cannot set message headers", async () => {
    const { transport, requests } = provider(() => Response.json({ send_email_status: "success" }));
    expect(transport.canSetHeaders).toBe(false);
    await transport.send(MESSAGE);
    await transport.send({ ...MESSAGE, idempotencyKey: undefined });
    expect(requests.map((request) => request.headers.get("Idempotency-Key"))).toEqual(["campaign-4-recipient-9", null]);
    const inputs = ((await requests[0]!.json()) as { inputs: Record<string, unknown> }).inputs;
    expect(Object.keys(inputs).sort()).toEqual(["body_html", "body_text", "project_id", "receivers", "title"]);
  });

  it("an error code naming a bounce or a complaint is a permanent rejection; other codes are not", async () => {
    for (const [code, rejection] of [
      ["hard_bounce", "bounced"],
      ["spam_complaint", "complained"],
      ["invalid_request", null],
    ] as const) {
      const { transport } = provider(() => Response.json({ error: { code, message: "for student@example.com" } }));
      const error = (await transport.send(MESSAGE).catch((caught: unknown) => caught)) as MailDeliveryError;
      expect(error.message).toBe(`provider error (${code})`);
      expect(error.rejection, code).toBe(rejection);
    }
    expect(rejectionOf("E_RECIPIENT_SUPPRESSED")).toBe("bounced");
    expect(rejectionOf("timeout")).toBeNull();
    // A content filter's refusal is about the message, not the recipient: nobody is suppressed for it.
    expect(rejectionOf("message_flagged_as_spam")).toBeNull();
  });
});

describe("deps.visitorTransport", () => {
  it("is Email Service once EMAIL_FROM is set (and the binding exists); otherwise the company's transport", () => {
    const withFrom = createDeps({ ...env, EMAIL_FROM: "Homework Helper <hello@homeworkhelper.app>" } as Env);
    expect(withFrom.visitorTransport).toMatchObject({ name: "email-service", canSetHeaders: true });
    expect(withFrom.transport.name).toBe("dev-mailbox");

    const without = createDeps({ ...env, EMAIL_FROM: "" } as Env);
    expect(without.visitorTransport).toBe(without.transport);

    const noBinding = createDeps({ ...env, EMAIL_FROM: "hello@homeworkhelper.app", EMAIL: undefined } as unknown as Env);
    expect(noBinding.visitorTransport).toBe(noBinding.transport);
  });
});
