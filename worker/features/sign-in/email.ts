import { escapeHtml } from "../../platform/html";
import type { MailContent } from "../../platform/mail/transport";
import { BRAND_NAME } from "../../shared/brand";

/**
 * The e-mail with a sign-in code, sent to the person signing in. The code is in the title too,
 * so it can be read from a notification without opening the message.
 */
export function signInCodeEmail(input: { code: string; validMinutes: number }): MailContent {
  const title = `${input.code} is your ${BRAND_NAME} sign-in code`;
  return {
    title,
    bodyHtml: [
      `<h2>Your ${escapeHtml(BRAND_NAME)} sign-in code</h2>`,
      `<p>Enter this code on the sign-in page:</p>`,
      `<p style="font-size:28px;font-weight:bold;letter-spacing:6px">${escapeHtml(input.code)}</p>`,
      `<p>It works once and expires in ${input.validMinutes} minutes.</p>`,
      `<p>If you did not ask to sign in, you can ignore this e-mail: nobody can sign in without the code.</p>`,
    ].join("\n"),
  };
}
