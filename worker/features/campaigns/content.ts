import { escapeHtml } from "../../platform/html";
import { BRAND_NAME } from "../../shared/brand";
import { longDate } from "../../shared/dates";
import { type LinkPiece, scanLine } from "./links";

/**
 * A campaign's e-mail (docs/api.md "Campaign e-mail and unsubscribing"): the operator's subject and
 * body rendered into one branded, accessible template with a plain-text alternative, and the
 * footer the bulk-mail laws and the mailbox providers ask for: why the recipient gets it, the
 * unsubscribe link, and who sends it (name and postal address).
 *
 * The body is plain text with two kinds of links: paragraphs are separated by a blank line, a
 * single newline is a line break, and a link is `[text](https://…)` or a bare https:// (or
 * http://) address. Every character the operator typed is escaped; a link's address is used only
 * when it is http(s), so no `javascript:` or `data:` link ever reaches a recipient.
 */

export type CampaignEmailInput = {
  subject: string;
  body: string;
  senderName: string;
  senderPostalAddress: string;
  /** When the recipient joined the waitlist (ISO 8601): the footer's reason. */
  joinedAt: string;
  /** The recipient's signed unsubscribe link (worker/features/campaigns/unsubscribe/token.ts). */
  unsubscribeUrl: string;
  /** A test e-mail to the team: the subject says so. */
  test?: boolean;
};

export type CampaignEmail = { title: string; bodyHtml: string; bodyText: string };

/** One line's text and links (worker/features/campaigns/links.ts, the reading the body check uses too). */
const piecesOf = (line: string): LinkPiece[] => scanLine(line).pieces;

/** The body's paragraphs, each a list of lines (blank lines separate paragraphs; trailing spaces dropped). */
function paragraphsOf(body: string): string[][] {
  return body
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((paragraph) =>
      paragraph
        .split("\n")
        .map((line) => line.trimEnd())
        .filter((line) => line.trim() !== ""),
    )
    .filter((lines) => lines.length > 0);
}

/**
 * Why a body cannot be sent, in words for the operator, or null: it must say something, and
 * every `[words](address)` must be a link as the e-mail renders it (links.ts): an http(s)
 * address, its parentheses closed; otherwise it would be sent as its raw text.
 */
export function campaignBodyProblem(body: string): string | null {
  if (body.trim() === "") return "Write the e-mail's text.";
  for (const line of body.replace(/\r\n?/g, "\n").split("\n")) {
    const [first] = scanLine(line).problems;
    if (first?.problem === "unclosed") return `The link "${first.words}" needs a ")" at the end of its address.`;
    if (first) return `The link "${first.words}" must go to an address starting with https:// (or http://).`;
  }
  return null;
}

/** The recipient's join date in words, e.g. "24 November 2026" (UTC, as stored). */
export function joinedOn(joinedAt: string): string {
  // The style /#/me and the unsubscribe page show dates in too (shared/dates.ts).
  return longDate(joinedAt);
}

const FONT = "font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
/** Contrast on white: text 14.7:1, muted 7.6:1, links 8.6:1, brand 6.3:1 (WCAG AA asks 4.5:1). */
const COLOR = { text: "#1f2937", muted: "#4b5563", link: "#3730a3", brand: "#4f46e5", line: "#e5e7eb", page: "#f3f4f6" };

function linkHtml(text: string, href: string, color = COLOR.link): string {
  return `<a href="${escapeHtml(href)}" style="color:${color};text-decoration:underline;word-break:break-word">${escapeHtml(text)}</a>`;
}

function lineHtml(line: string): string {
  return piecesOf(line)
    .map((piece) => ("href" in piece ? linkHtml(piece.text, piece.href) : escapeHtml(piece.text)))
    .join("");
}

function lineText(line: string): string {
  return piecesOf(line)
    .map((piece) => ("href" in piece && !piece.bare ? `${piece.text} (${piece.href})` : piece.text))
    .join("");
}

/** A subject as one header line: no line breaks (a transport puts it in the Subject header), spaces collapsed. */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

export function renderCampaignEmail(input: CampaignEmailInput): CampaignEmail {
  const subject = oneLine(input.subject);
  const title = input.test ? `[Test] ${subject}` : subject;
  const paragraphs = paragraphsOf(input.body);
  const why = `You're getting this because you joined the ${BRAND_NAME} waitlist on ${joinedOn(input.joinedAt)}.`;
  const unsubscribe = "Unsubscribe";
  const sender = [input.senderName, input.senderPostalAddress].map((part) => part.trim()).filter(Boolean);

  const paragraphHtml = paragraphs
    .map(
      (lines) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.6;color:${COLOR.text}">${lines.map(lineHtml).join("<br>\n")}</p>`,
    )
    .join("\n");
  const small = `margin:0 0 8px;font-size:14px;line-height:1.5;color:${COLOR.muted}`;
  const bodyHtml = `<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(title)}</title>
</head>
<body style="margin:0;padding:0;background:${COLOR.page}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${COLOR.page}">
<tr><td align="center" style="padding:24px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff;border-radius:8px;${FONT}">
<tr><td style="padding:24px 24px 0"><p style="margin:0;font-size:18px;font-weight:700;color:${COLOR.brand}">${escapeHtml(BRAND_NAME)}</p></td></tr>
<tr><td style="padding:16px 24px 0"><h1 style="margin:0 0 16px;font-size:24px;line-height:1.3;color:#111827">${escapeHtml(subject)}</h1></td></tr>
<tr><td style="padding:0 24px 8px">
${paragraphHtml}
</td></tr>
<tr><td style="padding:16px 24px 24px;border-top:1px solid ${COLOR.line}">
<p style="${small}">${escapeHtml(why)}</p>
<p style="${small}">${linkHtml(unsubscribe, input.unsubscribeUrl, COLOR.muted)}</p>
${sender.map((part) => `<p style="${small}">${escapeHtml(part)}</p>`).join("\n")}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;

  const bodyText = [
    BRAND_NAME,
    "",
    subject,
    "",
    ...paragraphs.flatMap((lines) => [...lines.map(lineText), ""]),
    "--",
    why,
    `${unsubscribe}: ${input.unsubscribeUrl}`,
    ...sender,
    "",
  ].join("\n");
  return { title, bodyHtml, bodyText };
}
