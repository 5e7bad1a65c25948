import { BRAND_NAME } from "../../shared/brand";
import { escapeHtml } from "../../platform/html";

/**
 * What the joiner e-mails say: the brand, one sentence on why this person gets it, one
 * button-styled link, and a plain-text alternative with the same words. Built when sent, from
 * the entry as it is then. Inline styles only (mail clients drop <style>), a single 100%-wide
 * column that reads at 360 px.
 */

export type JoinerContent = { title: string; bodyHtml: string; bodyText: string };

/** The link of the confirmation e-mail's button: the site's confirm page with the signed token. */
export function confirmLink(origin: string, token: string): string {
  return `${origin}/confirm?token=${encodeURIComponent(token)}`;
}

/** A referral link: the site's address with ?ref=CODE. */
export function referralLink(origin: string, code: string): string {
  return `${origin}/?ref=${encodeURIComponent(code)}`;
}

const FONT = "font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif";

function layout(parts: { heading: string; lines: string[]; button?: { label: string; href: string }; after?: string[] }): string {
  const paragraph = (text: string) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;color:#1f2937">${text}</p>`;
  return [
    `<div style="${FONT};max-width:560px;margin:0 auto;padding:24px 16px;background:#ffffff">`,
    `<p style="margin:0 0 24px;font-size:18px;font-weight:700;color:#4f46e5">${escapeHtml(BRAND_NAME)}</p>`,
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#111827">${escapeHtml(parts.heading)}</h1>`,
    ...parts.lines.map(paragraph),
    ...(parts.button
      ? [
          `<p style="margin:24px 0"><a href="${escapeHtml(parts.button.href)}" style="display:inline-block;padding:14px 24px;border-radius:8px;background:#4f46e5;color:#ffffff;font-size:16px;font-weight:600;text-decoration:none">${escapeHtml(parts.button.label)}</a></p>`,
        ]
      : []),
    ...(parts.after ?? []).map(paragraph),
    "</div>",
  ].join("\n");
}

/** The double opt-in e-mail: why it came, and the button to the confirm page. */
export function confirmationEmail(input: { link: string; validDays: number }): JoinerContent {
  const title = `Confirm your place on the ${BRAND_NAME} waitlist`;
  const why = `You get this e-mail because this address was just added to the ${BRAND_NAME} waitlist.`;
  const what = "Confirm it's you to get your place in line and your link to invite friends.";
  const ignore = `If you did not join, ignore this e-mail: nothing happens without the button. The link works for ${input.validDays} days.`;
  return {
    title,
    bodyHtml: layout({
      heading: "Confirm your place",
      lines: [escapeHtml(why), escapeHtml(what)],
      button: { label: "Confirm my place", href: input.link },
      after: [`<span style="font-size:14px;color:#4b5563">${escapeHtml(ignore)}</span>`],
    }),
    bodyText: [BRAND_NAME, "", "Confirm your place", "", why, what, "", `Confirm my place: ${input.link}`, "", ignore, ""].join("\n"),
  };
}

/** The welcome when double opt-in is off (or signing in proved the address): the place and the referral link. */
export function welcomeEmail(input: { place: number; link: string; boost: number }): JoinerContent {
  const title = `You're #${input.place} in line for ${BRAND_NAME}`;
  const why = `You get this e-mail because this address joined the ${BRAND_NAME} waitlist.`;
  // A minor's referrals move nobody (issue 23: MINOR_REFERRAL_REWARDS off): the link is still theirs to share.
  const rule =
    input.boost > 0
      ? `Each friend who joins with your link and confirms moves you up ${input.boost} places.`
      : "Share your link with friends who'd like a homework helper too.";
  return {
    title,
    bodyHtml: layout({
      heading: `You're #${input.place} in line`,
      lines: [escapeHtml(why), escapeHtml(rule)],
      button: { label: "Share your link", href: input.link },
      after: [`<span style="font-size:14px;color:#4b5563;word-break:break-all">Your link: ${escapeHtml(input.link)}</span>`],
    }),
    bodyText: [BRAND_NAME, "", `You're #${input.place} in line`, "", why, rule, "", `Your link: ${input.link}`, ""].join("\n"),
  };
}

/**
 * The welcome of a parent's or guardian's entry on behalf of a child (issue 23): the place, held
 * under the parent's address; no referral link (such an entry has none) and no button.
 */
export function onBehalfWelcomeEmail(input: { place: number }): JoinerContent {
  const title = `You're #${input.place} in line for ${BRAND_NAME}`;
  const why = `You get this e-mail because you agreed that your child may join the ${BRAND_NAME} waitlist.`;
  const what =
    "The place is held under your e-mail address, and we'll write to you when the product launches. We did not keep your child's e-mail address.";
  const leave = "You can take the place off the list at any time from My place on our site (sign in with this address).";
  return {
    title,
    bodyHtml: layout({ heading: `You're #${input.place} in line`, lines: [escapeHtml(why), escapeHtml(what), escapeHtml(leave)] }),
    bodyText: [BRAND_NAME, "", `You're #${input.place} in line`, "", why, what, leave, ""].join("\n"),
  };
}
