import type { ListFigures } from "./queries/deliveries";

/**
 * Slack's short texts (issue 25 §2): the deliveries of one Slack endpoint claimed in a run become
 * ONE message `{"text": ...}`, one line per kind of event, with no personal data (no address, no
 * name, no message text): counts, sources, a campaign's name and figures, the list's size and the
 * referrals confirmed today. Slack takes about one message a second; the consumer paces it.
 */

/** One claimed event, as the text needs it: its type and its stored JSON `data`. */
export type SlackEvent = { type: string; payload: string };

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

function parse(payload: string): Record<string, unknown> {
  try {
    const data = JSON.parse(payload) as unknown;
    return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * What a source may look like to be named in Slack: a short word of letters, digits, "-" and "_"
 * ("tiktok", "newsletter", "hero"). Anything else was typed by someone (a link's utm_source is
 * the visitor's to choose): a link, a mention, an address or a name never reaches the channel.
 */
const NAMEABLE_SOURCE = /^[a-z0-9][a-z0-9_-]{0,29}$/;

/** Where a sign-up came from, as a short label: its campaign source, its placement, "direct", or "another source". Never an address. */
export function sourceOf(data: Record<string, unknown>): string {
  for (const key of ["utm_source", "source"] as const) {
    const value = data[key];
    if (typeof value !== "string" || !value.trim()) continue;
    const label = value.trim().toLowerCase();
    return NAMEABLE_SOURCE.test(label) ? label : "another source";
  }
  return "direct";
}

/** The list's figures as the end of a sign-up line: "1,234 on the list, 3 confirmed referrals today". */
function figuresText(figures: ListFigures | null): string {
  if (!figures) return "";
  const referrals = `${count(figures.referralsToday)} confirmed ${plural(figures.referralsToday, "referral", "referrals")} today`;
  return `: ${count(figures.onTheList)} on the list, ${referrals}`;
}

function signUps(events: SlackEvent[], figures: ListFigures | null): string {
  const bySource = new Map<string, number>();
  for (const event of events) {
    const source = sourceOf(parse(event.payload));
    bySource.set(source, (bySource.get(source) ?? 0) + 1);
  }
  const sources = [...bySource].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (events.length === 1) return `New sign-up from ${sources[0]![0]}${figuresText(figures)}`;
  const split = sources.map(([source, n]) => `${source} ${count(n)}`).join(", ");
  return `${count(events.length)} new sign-ups (${split})${figuresText(figures)}`;
}

function campaignLine(event: SlackEvent): string {
  const data = parse(event.payload);
  const name = typeof data.name === "string" ? data.name.replace(/["\n\r]/g, "").slice(0, 80) : "";
  const figure = (key: string) => count(typeof data[key] === "number" ? (data[key] as number) : 0);
  return `Campaign "${name}" finished: ${figure("sent")} sent, ${figure("skipped")} skipped, ${figure("failed")} failed`;
}

/** The one message for a run's events of one Slack endpoint (in event order), e.g. "New sign-up from tiktok: 1,234 on the list, 3 confirmed referrals today". */
export function slackText(events: SlackEvent[], figures: ListFigures | null): string {
  const of = (type: string) => events.filter((event) => event.type === type);
  const lines: string[] = [];
  const joined = of("waitlist.joined");
  if (joined.length > 0) lines.push(signUps(joined, figures));
  const confirmed = of("waitlist.confirmed").length;
  if (confirmed > 0)
    lines.push(confirmed === 1 ? "A sign-up confirmed their address" : `${count(confirmed)} sign-ups confirmed their address`);
  const referrals = of("referral.confirmed").length;
  if (referrals > 0) {
    const today = figures ? ` (${count(figures.referralsToday)} today)` : "";
    lines.push(referrals === 1 ? `A referral was confirmed${today}` : `${count(referrals)} referrals were confirmed${today}`);
  }
  const messages = of("contact.received").length;
  if (messages > 0)
    lines.push(messages === 1 ? "New message through the contact form" : `${count(messages)} new messages through the contact form`);
  for (const campaign of of("campaign.finished")) lines.push(campaignLine(campaign));
  const erased = of("person.erased").length;
  if (erased > 0)
    lines.push(
      erased === 1
        ? "A person's data was erased; delete them from your tools too."
        : `${count(erased)} people's data was erased; delete them from your tools too.`,
    );
  return lines.length > 0 ? lines.join("\n") : "An event happened on the waitlist.";
}

/** The JSON body of a Slack incoming webhook's message. */
export const slackBody = (text: string) => JSON.stringify({ text });
