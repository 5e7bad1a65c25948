import { vi } from "vitest";

/**
 * A fake of the AI provider's run endpoint. The worker runs in the same isolate as the tests,
 * so replacing global fetch intercepts its outbound call; other URLs are not expected.
 */
export type ProviderMode = "success" | "error-field" | "http-500" | "hang" | "unexpected-status" | "echo-error";

/** The provider's run request, as the transport sends it (worker/platform/mail/transport.ts). */
export type ProviderBody = {
  model: string;
  inputs: { title: string; body_html: string; receivers: string[]; template_id?: string; [field: string]: unknown };
};
export type ProviderCall = { url: string; method: string; headers: Headers; body: ProviderBody };

export const PROVIDER_URL = "https://provider.test/v1/run";

export function fakeProvider(initialMode: ProviderMode = "success") {
  let mode = initialMode;
  const calls: ProviderCall[] = [];
  /** The joiner e-mails (issue 16: the only ones with a plain-text body_text), kept apart so `calls` stays the company's and sign-in's. */
  const joinerCalls: ProviderCall[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    if (request.url !== PROVIDER_URL) throw new Error(`unexpected outbound request to ${request.url}`);
    const sent = { url: request.url, method: request.method, headers: request.headers, body: (await request.json()) as ProviderBody };
    (sent.body.inputs.body_text === undefined ? calls : joinerCalls).push(sent);
    switch (mode) {
      case "success":
        return Response.json({ send_email_status: "success" });
      case "error-field":
        return Response.json({ error: { message: "invalid receivers" } });
      case "unexpected-status":
        return Response.json({ send_email_status: "queued" });
      case "http-500":
        return new Response("internal error", { status: 500 });
      case "echo-error": {
        // A provider that quotes the message back in its error (receivers, text and all).
        const { inputs } = sent.body as { inputs: unknown };
        return Response.json({ error: { code: "invalid_request", message: `rejected ${JSON.stringify(inputs)}` } }, { status: 400 });
      }
      case "hang":
        // Never answers; only the transport's timeout (its abort signal) ends the wait.
        return new Promise<Response>((_, reject) => {
          const signal = init?.signal;
          signal?.addEventListener("abort", () => reject(signal.reason));
        });
    }
  });
  return {
    calls,
    joinerCalls,
    setMode(next: ProviderMode) {
      mode = next;
    },
  };
}

/** Env settings that make the worker use the provider transport with a short timeout. */
export const PROVIDER_ENV = {
  MAIL_PROVIDER_TOKEN: "test-provider-token",
  MAIL_API_URL: PROVIDER_URL,
  MAIL_MODEL: "email-model",
  MAIL_PROJECT_ID: "project-123",
  MAIL_TIMEOUT_MS: "100",
} as const;
