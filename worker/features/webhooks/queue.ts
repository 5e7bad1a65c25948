/**
 * The webhooks queue (issue 25; wrangler.toml WEBHOOK_QUEUE): a message asks the consumer to send
 * what is due. It names nothing: the deliveries wait in the database (stored with the change that
 * caused their event, features/webhooks/record.ts), and the consumer claims the due ones there, so
 * a lost, repeated or late message sends nothing twice and loses nothing (the cron kicks too).
 */
export type WebhookJob = { type: "due" };

export const WEBHOOKS_QUEUE = "homework-helper-webhooks";
export const WEBHOOKS_DLQ = "homework-helper-webhooks-dlq";

/** Whether a batch comes from the webhooks queue or its dead-letter queue. */
export function isWebhookQueue(queue: string): boolean {
  return queue === WEBHOOKS_QUEUE || queue === WEBHOOKS_DLQ;
}

/** The webhooks queue as the features use it: "send what is due", now or after `delaySeconds` (Queues allows at most 12 hours). */
export type WebhookQueue = { kick(delaySeconds?: number): Promise<void> };

/** Queues' longest delay for a message (12 hours); a longer wait is the cron's. */
export const MAX_QUEUE_DELAY_SECONDS = 12 * 3600;

/** The producer binding as a WebhookQueue. */
export function webhookQueue(binding: Queue): WebhookQueue {
  return {
    async kick(delaySeconds = 0) {
      const delay = Math.min(Math.max(0, Math.ceil(delaySeconds)), MAX_QUEUE_DELAY_SECONDS);
      await binding.send({ type: "due" } satisfies WebhookJob, { contentType: "json", ...(delay > 0 ? { delaySeconds: delay } : {}) });
    },
  };
}
