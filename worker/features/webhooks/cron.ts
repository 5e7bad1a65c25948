import type { Deps } from "../../deps";

/** CONTRACT PLACEHOLDER (replaced by the delivery engine): re-queues stuck deliveries. */
export async function runWebhookCron(_deps: Deps): Promise<void> {
  throw new Error("runWebhookCron is not built yet");
}
