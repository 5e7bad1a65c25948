import type { Deps } from "../../deps";

/** CONTRACT PLACEHOLDER (replaced by the delivery engine): sends the deliveries that are due. */
export async function consumeWebhookBatch(_deps: Deps, _batch: MessageBatch): Promise<void> {
  throw new Error("consumeWebhookBatch is not built yet");
}
