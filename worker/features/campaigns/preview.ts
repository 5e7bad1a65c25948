import { secretsEqual, signature } from "../../platform/crypto";
import type { Campaign } from "../../platform/db/schema";
import type { Deps } from "../../deps";
import type { MailMessage } from "../../platform/mail/transport";
import type { CampaignPreview } from "../../shared/campaigns";
import { mailboxKey } from "../waitlist";
import { renderCampaignEmail } from "./content";
import { unsubscribeHeaders, unsubscribeUrl } from "./unsubscribe/token";

/**
 * What the operator sees and tries before sending (docs/launch-day.md): the e-mail as a
 * recipient gets it (preview), a page of the worker that shows it in the console's frames
 * (/campaign-preview, opened by a signed 10-minute address: frames send no Authorization
 * header), and a test e-mail to the team.
 */

/** Where the preview page lives (wrangler.toml run_worker_first; worker/features/campaigns/preview-routes.ts). */
export const PREVIEW_PATH = "/campaign-preview";
/** How long a preview address works: long enough to look, short enough that a leaked one soon says nothing. */
export const PREVIEW_TTL_SECONDS = 10 * 60;

const PURPOSE = "campaign-preview";
/** `<campaignId>.<expiresUnix>.<43 base64url characters>`. */
const TOKEN_SHAPE = /^([1-9][0-9]{0,15})\.([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;

/** The address a preview stands for: no one's (a reserved domain); its unsubscribe link names no real mailbox. */
const SAMPLE_RECIPIENT = "recipient@example.com";

/** This token's signature of a payload (sign-in's HMAC under this purpose label). */
const sign = (secret: string, payload: string) => signature(secret, PURPOSE, payload);

/** The preview page's token of a campaign, working for PREVIEW_TTL_SECONDS from `now`. */
export async function signPreview(secret: string, campaignId: number, now: Date): Promise<string> {
  const payload = `${campaignId}.${Math.floor(now.getTime() / 1000) + PREVIEW_TTL_SECONDS}`;
  return `${payload}.${await sign(secret, payload)}`;
}

export type PreviewTokenProblem = "invalid" | "expired";

/** The campaign a token shows, or why it cannot be used (the signature is checked first: a forged expiry says nothing). */
export async function readPreviewToken(secret: string, token: string, now: Date): Promise<{ campaignId: number } | PreviewTokenProblem> {
  const match = TOKEN_SHAPE.exec(token);
  if (!match) return "invalid";
  // Compared as the one spelling this server writes (constant time), spare bits included.
  if (!(await secretsEqual(match[3]!, await sign(secret, `${match[1]}.${match[2]}`)))) return "invalid";
  if (Number(match[2]) * 1000 <= now.getTime()) return "expired";
  return { campaignId: Number(match[1]) };
}

/** The e-mail of `campaign` to `email` (who joined at `joinedAt`), with its unsubscribe link and headers. */
async function campaignMessage(
  deps: Deps,
  campaign: Campaign,
  recipient: { email: string; joinedAt: string },
  options: { origin: string; test: boolean },
): Promise<MailMessage> {
  const key = await mailboxKey(deps.config.auth.jwtSecret, recipient.email);
  const url = await unsubscribeUrl(deps, { campaignId: campaign.id, mailboxKey: key, origin: options.origin });
  const email = renderCampaignEmail({
    subject: campaign.subject,
    body: campaign.body,
    senderName: deps.config.campaigns.senderName,
    senderPostalAddress: deps.config.campaigns.senderPostalAddress,
    joinedAt: recipient.joinedAt,
    unsubscribeUrl: url,
    test: options.test,
  });
  return { receivers: [recipient.email], ...email, headers: unsubscribeHeaders(url) };
}

/** The e-mail as a recipient who joined today would get it (the preview's sample recipient). */
export async function previewOf(deps: Deps, campaign: Campaign, origin: string): Promise<CampaignPreview> {
  const recipient = { email: SAMPLE_RECIPIENT, joinedAt: deps.now().toISOString() };
  const message = await campaignMessage(deps, campaign, recipient, { origin, test: false });
  return { title: message.title, html: message.bodyHtml, text: message.bodyText ?? "", headers: message.headers ?? {} };
}

/**
 * Sends the campaign to `to` as a test: "[Test] " before the subject, and the footer, link and
 * headers a recipient's e-mail has (the date: when `to` joined the waitlist, or today). Through
 * the visitors' transport, as the campaign itself goes; the dev mailbox keeps it locally.
 */
export async function sendTestEmail(deps: Deps, campaign: Campaign, to: string, origin: string): Promise<void> {
  const recipient = { email: to, joinedAt: (await deps.repo.campaigns.joinedAt(to)) ?? deps.now().toISOString() };
  const message = await campaignMessage(deps, campaign, recipient, { origin, test: true });
  const receipt = await deps.visitorTransport.send(message);
  if (receipt.devMail) await deps.repo.devMail.insert(receipt.devMail, deps.now());
}
