import { secretsEqual, signature } from "../../platform/crypto";
import type { Campaign } from "../../platform/db/schema";
import type { Deps } from "../../deps";
import { API_BODY_ERRORS, ApiError } from "../../platform/http/errors";
import { describeError, log } from "../../platform/log";
import { MailDeliveryError, type MailMessage } from "../../platform/mail/transport";
import type { CampaignPreview } from "../../shared/campaigns";
import { normalizeEmail } from "../../shared/text";
import { ADMIN_KEY_OPERATOR, type Operator } from "../operator";
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
/** Why the preview page shows no e-mail: its address is not one this site gave, has expired, or its campaign is gone. */
export type PreviewProblem = PreviewTokenProblem | "unknown";

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

/** The preview page's e-mail (its HTML) for a token of signPreview, or why there is none. */
export async function previewPage(deps: Deps, token: string, origin: string): Promise<{ html: string } | PreviewProblem> {
  const read = await readPreviewToken(deps.config.auth.jwtSecret, token, deps.now());
  if (typeof read === "string") return read;
  const campaign = await deps.repo.campaignDelivery.campaign(read.campaignId);
  if (!campaign) return "unknown";
  return { html: (await previewOf(deps, campaign, origin)).html };
}

const invalidTo = (message: string) => API_BODY_ERRORS.invalid({ to: message });

/**
 * Who a test e-mail may go to: `to`, or the operator's own address when `to` is empty; an
 * operator (OPERATOR_EMAILS) or the company (COMPANY_EMAIL) only, never a stranger (400).
 */
function testRecipient(deps: Deps, operator: Operator, to: string): string {
  const { config } = deps;
  const address = to || (operator.name === ADMIN_KEY_OPERATOR ? "" : operator.name);
  if (address === "") throw invalidTo("With the admin key, name the address to send the test to (an operator's or the company's).");
  if (!config.operatorEmails.has(address) && !config.companyEmails.some((company) => normalizeEmail(company) === address)) {
    throw invalidTo("A test goes only to an operator's address (OPERATOR_EMAILS) or the company's (COMPANY_EMAIL).");
  }
  return address;
}

/**
 * Sends the campaign as a test to `to` (testRecipient): "[Test] " before the subject, and the
 * footer, link and headers a recipient's e-mail has (the date: when the address joined the
 * waitlist, or today). Through the visitors' transport, as the campaign itself goes; the dev
 * mailbox keeps it locally. Answers the address it went to; 502 when the transport refused it.
 */
export async function sendTestEmail(deps: Deps, campaign: Campaign, operator: Operator, to: string, origin: string): Promise<string> {
  const address = testRecipient(deps, operator, to);
  const recipient = { email: address, joinedAt: (await deps.repo.campaigns.joinedAt(address)) ?? deps.now().toISOString() };
  const message = await campaignMessage(deps, campaign, recipient, { origin, test: true });
  try {
    const receipt = await deps.visitorTransport.send(message);
    if (receipt.devMail) await deps.repo.devMail.insert(receipt.devMail, deps.now());
  } catch (error) {
    if (!(error instanceof MailDeliveryError)) throw error;
    log("warn", "campaign.test_failed", { campaign_id: campaign.id, error: describeError(error) });
    throw new ApiError(502, "mail_not_sent", `The test e-mail was not sent: ${error.message}.`);
  }
  return address;
}
