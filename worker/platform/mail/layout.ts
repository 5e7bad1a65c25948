import { BRAND_NAME } from "../../shared/brand";
import { escapeHtml } from "../html";

/**
 * The one layout of the e-mails the worker writes to a person (the joiner's, the parent's): the
 * brand, a heading, paragraphs, one button-styled link, paragraphs after it. Inline styles only
 * (mail clients drop <style>), a single 100%-wide column that reads at 360 px. `lines` and
 * `after` are HTML the caller escaped.
 */

const FONT = "font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif";

export type MailLayout = { heading: string; lines: string[]; button: { label: string; href: string }; after?: string[] };

export function mailLayout(parts: MailLayout): string {
  const paragraph = (text: string) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;color:#1f2937">${text}</p>`;
  return [
    `<div style="${FONT};max-width:560px;margin:0 auto;padding:24px 16px;background:#ffffff">`,
    `<p style="margin:0 0 24px;font-size:18px;font-weight:700;color:#4f46e5">${escapeHtml(BRAND_NAME)}</p>`,
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#111827">${escapeHtml(parts.heading)}</h1>`,
    ...parts.lines.map(paragraph),
    `<p style="margin:24px 0"><a href="${escapeHtml(parts.button.href)}" style="display:inline-block;padding:14px 24px;border-radius:8px;background:#4f46e5;color:#ffffff;font-size:16px;font-weight:600;text-decoration:none">${escapeHtml(parts.button.label)}</a></p>`,
    ...(parts.after ?? []).map(paragraph),
    "</div>",
  ].join("\n");
}

/** A small grey note under the button (the links' fine print). */
export const mailNote = (html: string) => `<span style="font-size:14px;color:#4b5563">${html}</span>`;

/** A link inside a paragraph, in the brand's colour, wrapping anywhere (a long address on a phone). */
export const mailLink = (href: string, label: string) =>
  `<a href="${escapeHtml(href)}" style="color:#4f46e5;word-break:break-all">${escapeHtml(label)}</a>`;
