import type { SettingValues } from "./settings";

/** Launch day's settings (docs/configuration.md and docs/launch-day.md), from the parsed settings (settings.ts). */
export type CampaignConfig = {
  /**
   * Who sends the campaigns, as the bulk-mail laws ask: the company's name and postal address,
   * shown in every campaign e-mail's footer. Sending needs both (production's health names them
   * when missing; `npm start` writes local example values into .dev.vars).
   */
  senderName: string;
  senderPostalAddress: string;
  /**
   * The From address of visitor-facing e-mail sent through Cloudflare Email Service (the
   * `EMAIL` send_email binding), e.g. "Homework Helper <hello@homeworkhelper.app>". Email
   * Service is used only when this is set and the binding exists; otherwise the spec's provider.
   */
  emailFrom: string;
  /** Campaign e-mails per second across every consumer invocation (the provider's limit). */
  sendRatePerSecond: number;
  /** How long a sender keeps its claim on a recipient: longer than any send can take. */
  lockMs: number;
};

export function campaignSettings(values: SettingValues, lockMs: number): CampaignConfig {
  return {
    senderName: values.SENDER_NAME,
    senderPostalAddress: values.SENDER_POSTAL_ADDRESS,
    emailFrom: values.EMAIL_FROM,
    sendRatePerSecond: values.CAMPAIGN_SEND_RATE,
    lockMs,
  };
}

/** The sender settings a campaign cannot be sent without, by name (empty when both are set). */
export function missingSenderSettings(config: CampaignConfig): string[] {
  const missing: string[] = [];
  if (config.senderName === "") missing.push("SENDER_NAME");
  if (config.senderPostalAddress === "") missing.push("SENDER_POSTAL_ADDRESS");
  return missing;
}
