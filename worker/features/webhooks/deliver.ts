import type { Deps } from "../../deps";
import { WEBHOOK_ANSWER_BYTES } from "../../shared/webhooks";
import { describeError } from "../../platform/log";
import { signatureHeader } from "./sign";
import { checkWebhookUrl } from "./url-guard";

/**
 * One call to a receiver (issue 25 §3): a POST of the body, signed to the Standard Webhooks
 * specification (a Slack endpoint gets the same POST of its `{"text": ...}` unsigned: its secret
 * is its address). The address is checked by url-guard.ts right before the call (a host that now
 * resolves to a private address is refused, and nothing is called); redirects are never followed
 * (a 3xx is a failure); the receiver has WEBHOOK_TIMEOUT_MS to answer, and at most
 * WEBHOOK_ANSWER_BYTES of its answer are read. Used by the consumer and the console's test event.
 */

/** Where and how to call: a Standard endpoint's URL and its secrets (the current first), or a Slack endpoint's whole URL. */
export type CallTarget = { url: string; kind: "standard" | "slack"; secrets: string[] };

/** What the call came to: ok for a 2xx; else the status (null: no answer) and why. */
export type CallOutcome = {
  ok: boolean;
  status: number | null;
  error: string | null;
  /** The first bytes of the answer (at most WEBHOOK_ANSWER_BYTES, decoded as UTF-8). */
  answer: string;
  /** A 429's Retry-After, in seconds from the attempt (null: none or unreadable). */
  retryAfterSeconds: number | null;
  tookMs: number;
};

/** Who calls: the product, as receivers' logs show it. */
export const WEBHOOK_USER_AGENT = "HomeworkHelper-Webhooks/1.0 (+https://www.standardwebhooks.com)";

/** A Retry-After header (seconds, or an HTTP date) as whole seconds after `from`; null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, from: Date): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number.parseInt(text, 10);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - from.getTime()) / 1000));
}

/** Reads at most `limit` bytes of a body and cancels the rest (a receiver answering gigabytes costs nothing). */
export async function readCapped(body: ReadableStream<Uint8Array> | null, limit = WEBHOOK_ANSWER_BYTES): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = value.subarray(0, limit - length);
      parts.push(part);
      length += part.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  // A multi-byte character cut at the cap decodes as a replacement character, never an error.
  return new TextDecoder().decode(bytes);
}

async function headersFor(target: CallTarget, message: { id: string; timestamp: Date; body: string }): Promise<Headers> {
  const headers = new Headers({ "Content-Type": "application/json", "User-Agent": WEBHOOK_USER_AGENT });
  if (target.kind === "standard") {
    const seconds = Math.floor(message.timestamp.getTime() / 1000);
    headers.set("webhook-id", message.id);
    headers.set("webhook-timestamp", String(seconds));
    headers.set("webhook-signature", await signatureHeader(target.secrets, message.id, seconds, message.body));
  }
  return headers;
}

/** Calls the receiver once; never throws (every failure is an outcome). */
export async function callEndpoint(
  deps: Pick<Deps, "config">,
  target: CallTarget,
  message: { id: string; timestamp: Date; body: string },
): Promise<CallOutcome> {
  const started = Date.now();
  const outcome = (fields: Partial<CallOutcome>): CallOutcome => ({
    ok: false,
    status: null,
    error: null,
    answer: "",
    retryAfterSeconds: null,
    ...fields,
    tookMs: Date.now() - started,
  });
  let headers: Headers;
  try {
    headers = await headersFor(target, message);
  } catch (error) {
    return outcome({ error: `not signed: ${error instanceof Error ? error.message : "the secret cannot be used"}` });
  }
  const verdict = await checkWebhookUrl(deps, target.url);
  if (!verdict.ok) return outcome({ error: `refused: ${verdict.reason}` });
  const timeoutMs = deps.config.webhooks.timeoutMs;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(verdict.url.toString(), { method: "POST", headers, body: message.body, redirect: "manual", signal });
    const answer = await readCapped(response.body);
    const status = response.status;
    if (status >= 200 && status < 300) return outcome({ ok: true, status, answer });
    if (status >= 300 && status < 400) return outcome({ status, answer, error: "redirect not followed" });
    const retryAfter = status === 429 ? retryAfterSeconds(response.headers.get("retry-after"), message.timestamp) : null;
    return outcome({ status, answer, error: `HTTP ${status}`, retryAfterSeconds: retryAfter });
  } catch (error) {
    if (signal.aborted) return outcome({ error: `timeout: no answer within ${timeoutMs / 1000} s` });
    // A runtime's error may quote the address, and a Slack address holds its token: never kept.
    return outcome({
      error: `no answer: ${describeError(error).replaceAll(target.url, "<the endpoint's address>").replaceAll(verdict.url.toString(), "<the endpoint's address>")}`,
    });
  }
}
