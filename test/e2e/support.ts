import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { SupportedStorage } from "@supabase/auth-js";

/** One message of GET /dev/mailbox?format=json. */
export type DevMail = {
  id: number;
  receivers: string[];
  title: string;
  body_html: string;
  /** The plain-text alternative (null for e-mails sent without one). */
  body_text: string | null;
  created_at: string;
};

const CODE_PATTERN = /\b(\d{6})\b/;
const POLL_INTERVAL_MS = 100;
const READ_TIMEOUT_MS = 15_000;

/** Every message of the dev mailbox, newest first. */
export async function listMailbox(baseUrl: string): Promise<DevMail[]> {
  const response = await fetch(`${baseUrl}/dev/mailbox?format=json`, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`GET /dev/mailbox answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { messages: DevMail[] };
  return body.messages;
}

/**
 * The id of the newest message in the dev mailbox (0 when it is empty). Take it before asking for
 * a code and pass it to readCode as `after`, so an earlier code to the same address is not read.
 */
export async function latestMailId(baseUrl: string): Promise<number> {
  const messages = await listMailbox(baseUrl);
  return messages.reduce((max, message) => Math.max(max, message.id), 0);
}

/**
 * The 6-digit code of the newest e-mail to `email` (with an id above `after`), waiting for it to
 * arrive: the worker may store the e-mail just after it has answered the request.
 */
export async function readCode(baseUrl: string, email: string, options: { after?: number; timeoutMs?: number } = {}): Promise<string> {
  const after = options.after ?? 0;
  const address = email.toLowerCase();
  const deadline = Date.now() + (options.timeoutMs ?? READ_TIMEOUT_MS);
  for (;;) {
    const newest = (await listMailbox(baseUrl)).find(
      (message) => message.id > after && message.receivers.some((receiver) => receiver.toLowerCase() === address),
    );
    if (newest) {
      const code = CODE_PATTERN.exec(newest.body_html)?.[1];
      if (!code) throw new Error(`The newest e-mail to ${email} ("${newest.title}") holds no 6-digit code: ${newest.body_html}`);
      return code;
    }
    if (Date.now() > deadline) throw new Error(`No e-mail to ${email} arrived in the dev mailbox.`);
    await sleep(POLL_INTERVAL_MS);
  }
}

/**
 * The newest dev-mailbox message that `matches`, waiting for it: the worker sends notifications
 * after it has answered (waitUntil), so a message may arrive a moment after the response.
 */
export async function waitForMail(
  baseUrl: string,
  matches: (message: DevMail) => boolean,
  options: { timeoutMs?: number; what?: string } = {},
): Promise<DevMail> {
  const deadline = Date.now() + (options.timeoutMs ?? READ_TIMEOUT_MS);
  for (;;) {
    const found = (await listMailbox(baseUrl)).find(matches);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No ${options.what ?? "matching e-mail"} arrived in the dev mailbox.`);
    await sleep(POLL_INTERVAL_MS);
  }
}

/** A new address for every call, so tests never share a user (the domain is reserved for tests). */
export function uniqueEmail(label = "user"): string {
  return `e2e-${label}-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}@example.test`;
}

/** A code of the right shape that differs from `code`, to be certain it is rejected. */
export function otherCode(code: string): string {
  return ((Number(code) + 1) % 1_000_000).toString().padStart(6, "0");
}

/** Storage for auth-js outside the browser: one instance per client, like one browser profile. */
export class MemoryStorage implements SupportedStorage {
  readonly #items = new Map<string, string>();

  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.#items.set(key, value);
  }

  removeItem(key: string): void {
    this.#items.delete(key);
  }
}
