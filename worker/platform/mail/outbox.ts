import type { AppConfig } from "../config/config";
import type { MailMessage, SendReceipt } from "./transport";

/**
 * The outbox core the team's notifications and the joiner's mails share: a message is stored
 * first, claimed by the one request or cron run that sends it, then sent, and its outcome is
 * recorded: sent, or failed with when to try again. Nothing is ever given up, and nothing here
 * throws: an outcome that could not be recorded is taken up again once its claim's lease lapses.
 */

/** When to try again after `attempts` failed tries: exponential up to the cap, then the cap forever. */
export function nextAttemptAt(attempts: number, now: Date, notify: AppConfig["notify"]): Date {
  const seconds =
    attempts >= notify.maxAttempts
      ? notify.retryMaxSeconds
      : Math.min(notify.retryBaseSeconds * 2 ** Math.max(0, attempts - 1), notify.retryMaxSeconds);
  return new Date(now.getTime() + seconds * 1000);
}

/** How one outbox records an attempt, in its own table and log lines. */
export type OutboxRecord = {
  /** Delivered (or nothing left to send): recorded, with the transport's receipt (the dev mailbox's copy). */
  sent(receipt: SendReceipt): Promise<void>;
  /** The transport failed: logged, and recorded with the next attempt. */
  failed(error: unknown): Promise<void>;
  /** Composing the message or recording the outcome failed: logged only. */
  notRecorded(error: unknown): void;
};

/**
 * What a composed message must pass before it is sent (the joiner e-mails' daily budget):
 * `admit` says whether it may go now; if not, `held` puts it back to wait, neither sent nor failed.
 */
export type OutboxGate = { admit(): Promise<boolean>; held(): Promise<void> };

/**
 * One attempt of a claimed message: composes it (null: nothing left to say, recorded as done),
 * passes the gate if there is one, sends it, records the outcome. Never throws; resolves true
 * when it was sent.
 */
export async function sendRecorded(
  compose: () => Promise<MailMessage | null>,
  send: (message: MailMessage) => Promise<SendReceipt>,
  record: OutboxRecord,
  gate?: OutboxGate,
): Promise<boolean> {
  try {
    const message = await compose();
    if (!message) {
      await record.sent({});
      return false;
    }
    if (gate && !(await gate.admit())) {
      await gate.held();
      return false;
    }
    let receipt: SendReceipt;
    try {
      receipt = await send(message);
    } catch (error) {
      await record.failed(error);
      return false;
    }
    await record.sent(receipt);
    return true;
  } catch (error) {
    record.notRecorded(error);
    return false;
  }
}
