import type { Deps } from "../../deps";
import { describeError, log } from "../../platform/log";
import { WEBHOOKS_DLQ } from "./queue";
import { runWebhooks } from "./run";

/** The queue's delay before a batch whose database call failed is tried again: 10 s, doubling, at most 5 minutes. */
export const retryDelaySeconds = (attempts: number) => Math.min(10 * 2 ** Math.max(0, attempts - 1), 300);

/**
 * The webhooks queue's consumer (wrangler.toml `homework-helper-webhooks`; issue 25 §3). Its
 * messages are kicks (`{type:"due"}`, naming nothing): a batch, however many kicks it holds, is
 * ONE run (run.ts: one lane per endpoint, each claiming, calling and recording, then the next kick), and its messages are acked once the run
 * is recorded. When a database call fails, the messages are retried with a delay (after the
 * queue's retries they go to the dead-letter queue); the deliveries stay due in the database
 * whatever happens to the messages. A dead-letter batch is logged and acked: the cron's kick
 * (cron.ts) sends what it stood for.
 */
export async function consumeWebhookBatch(deps: Deps, batch: MessageBatch): Promise<void> {
  if (batch.queue === WEBHOOKS_DLQ) {
    log("warn", "webhooks.dead_lettered_kicks", { messages: batch.messages.length });
    for (const message of batch.messages) message.ack();
    return;
  }
  const attempts = Math.max(1, ...batch.messages.map((message) => message.attempts));
  try {
    const report = await runWebhooks(deps);
    for (const message of batch.messages) message.ack();
    // One line per run that claimed something: its lanes, deliveries, calls and database calls.
    if (report.failed > 0 || report.dead > 0 || report.held > 0) log("warn", "webhooks.run", { ...report });
    else if (report.claimed > 0) log("info", "webhooks.run", { ...report });
  } catch (error) {
    const delaySeconds = retryDelaySeconds(attempts);
    log("error", "webhooks.run_failed", {
      messages: batch.messages.length,
      attempts,
      delay_seconds: delaySeconds,
      error: describeError(error),
    });
    for (const message of batch.messages) message.retry({ delaySeconds });
  }
}
