import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { SupportedStorage } from "@supabase/auth-js";
import type { Locator } from "playwright-core";

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

/** A birth month and year for the neutral age question (issue 23). */
export type BirthAnswer = { month: number; year: number };

/** An adult's answer (18 or over in every country): every join that is not about age gives it. */
export const ADULT: BirthAnswer = { month: 1, year: 1990 };

/** The API's fields of an answer, for joins sent without the page (POST /api/waitlist, /api/me/waitlist). */
export function birthFields(answer: BirthAnswer = ADULT): { birth_month: number; birth_year: number } {
  return { birth_month: answer.month, birth_year: answer.year };
}

/** The same as form fields (strings), for bodies posted as application/x-www-form-urlencoded. */
export function birthFormFields(answer: BirthAnswer = ADULT): { birth_month: string; birth_year: string } {
  return { birth_month: String(answer.month), birth_year: String(answer.year) };
}

/**
 * Answers the age question of a waitlist form (or of My place's join): `form` is the element
 * holding the question's selects (birth_month, birth_year), as a person would choose them; an
 * adult unless told otherwise. Works with JavaScript on and off (they are the page's own selects).
 */
export async function answerAge(form: Locator, answer: BirthAnswer = ADULT): Promise<void> {
  await form.locator('select[name="birth_month"]').selectOption(String(answer.month));
  await form.locator('select[name="birth_year"]').selectOption(String(answer.year));
}
