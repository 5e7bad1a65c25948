import type { SettingValues } from "./settings";

/** Signed webhooks and Slack (issue 25; worker/features/webhooks; docs/configuration.md). */
export type WebhooksConfig = {
  /** WEBHOOK_SECRETS_KEY: what the endpoints' secrets are encrypted under; "" = integrations cannot be used. */
  secretsKey: string;
  /** WEBHOOK_DNS_URL: DNS over HTTPS (JSON) where a receiver's host name is resolved before it is called. */
  dnsUrl: string;
  /** WEBHOOK_TIMEOUT_MS: how long a receiver has to answer (the 15 s). */
  timeoutMs: number;
  /** WEBHOOK_BATCH_SIZE: deliveries one claim takes (a run's first, across endpoints, then each endpoint's lane's). */
  batchSize: number;
  /** WEBHOOK_SLACK_INTERVAL_MS: the least time between two messages to one Slack endpoint. */
  slackIntervalMs: number;
  /** How long a claimed delivery is held by its sender: longer than any call can take. */
  lockMs: number;
};

/** The shortest WEBHOOK_SECRETS_KEY the worker accepts (a shorter one leaves integrations off). */
export const MIN_WEBHOOK_SECRETS_KEY_LENGTH = 32;

export function webhooksSettings(values: SettingValues): WebhooksConfig {
  const key = values.WEBHOOK_SECRETS_KEY;
  return {
    secretsKey: key.length >= MIN_WEBHOOK_SECRETS_KEY_LENGTH ? key : "",
    dnsUrl: values.WEBHOOK_DNS_URL,
    timeoutMs: values.WEBHOOK_TIMEOUT_MS,
    batchSize: values.WEBHOOK_BATCH_SIZE,
    slackIntervalMs: values.WEBHOOK_SLACK_INTERVAL_MS,
    lockMs: values.WEBHOOK_TIMEOUT_MS + 60_000,
  };
}
