/**
 * Launch day end to end (issue 17), in headless Chromium against the worker under wrangler dev
 * (its local queue, the dev mailbox as the transport): an operator signs in, composes a
 * campaign, previews it at phone and desktop width, sends a test to themself, sends an invite
 * wave of 3 to a seeded list of 4 (people who joined from one utm_source and confirmed) and
 * watches it finish; the fourth in line gets nothing. A recipient opens the unsubscribe link
 * from their e-mail in the dev mailbox (a page with a button: opening it changes nothing) and
 * unsubscribes; the next campaign to the same people leaves them out of its audience (not drawn,
 * no e-mail) and reaches the others.
 */
import { randomBytes } from "node:crypto";
import { afterEach, expect, inject, it } from "vitest";
import { admin } from "../../web/src/admin/content";
import type { CampaignJson } from "@shared/campaigns";
import { cspViolations, useBrowser } from "./browser";
import { signInToConsole } from "./console-sign-in";
import { listMailbox, uniqueEmail, waitForMail, type DevMail, birthFields } from "./support";

const baseUrl = inject("baseUrl");
const adminKey = inject("adminKey");
const { newContext, newTab, watches } = useBrowser(baseUrl);

/** This file's operator (OPERATOR_EMAILS in test/e2e/global-setup.ts: one per console file, each signing in within the code cooldown). */
const OPERATOR = "campaigns-operator@example.com";
const text = admin.campaigns;
/** Every step's bound; the whole test is bounded by the test's own timeout below. */
const STEP_MS = 30_000;

afterEach(() => {
  for (const watch of watches()) {
    expect(watch.errors, "uncaught errors in the page").toEqual([]);
    expect(watch.foreignRequests, "requests to other origins").toEqual([]);
    expect(cspViolations(watch), "Content-Security-Policy violations").toEqual([]);
  }
});

// ---------------------------------------------------------------------------------------------
// The seeded list and the mailbox

/** Joins with `utm_source` and confirms through the confirmation e-mail's link (the page's POST). */
async function joinAndConfirm(email: string, utmSource: string): Promise<void> {
  const joined = await fetch(`${baseUrl}/api/waitlist`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, ...birthFields(), utm_source: utmSource }),
  });
  expect(joined.status).toBe(201);
  const mail = await waitForMail(baseUrl, (m) => m.receivers.includes(email) && /\/confirm\?token=/.test(m.body_html), {
    what: `confirmation e-mail to ${email}`,
  });
  const token = new URL(/href="([^"]*\/confirm\?token=[^"]+)"/.exec(mail.body_html)![1]!.replace(/&amp;/g, "&")).searchParams.get("token")!;
  const confirmed = await fetch(`${baseUrl}/confirm`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
    body: new URLSearchParams({ token }),
  });
  expect(confirmed.status).toBe(200);
}

/** The campaign e-mails (subject `subject`) in the dev mailbox, by receiver. */
async function campaignMail(subject: string): Promise<Map<string, DevMail>> {
  const byReceiver = new Map<string, DevMail>();
  for (const message of await listMailbox(baseUrl))
    if (message.title === subject) for (const to of message.receivers) byReceiver.set(to, message);
  return byReceiver;
}

/** The e-mail's unsubscribe link: the footer's, the same as its List-Unsubscribe header. */
function unsubscribeLink(mail: DevMail): string {
  const href = /href="([^"]*\/unsubscribe\?token=[^"]+)"/.exec(mail.body_html)?.[1];
  if (!href) throw new Error(`The e-mail "${mail.title}" has no unsubscribe link: ${mail.body_html}`);
  const link = href.replace(/&amp;/g, "&");
  expect(link.startsWith(`${baseUrl}/unsubscribe?token=`)).toBe(true);
  const headers = (mail as DevMail & { headers?: Record<string, string> | null }).headers;
  expect(headers?.["List-Unsubscribe"], "the List-Unsubscribe header").toBe(`<${link}>`);
  expect(headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  return link;
}

// ---------------------------------------------------------------------------------------------
// The operator

/** The operator API with the admin key (the second campaign: the console was walked through with the first). */
async function api<T>(method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}/api/admin/campaigns${route}`, {
    method,
    headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.ok, `${method} ${route} answered ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

it("an operator composes, previews, tests and sends a wave of 3 that finishes; a recipient unsubscribes from the e-mail and the next campaign leaves them out", async () => {
  // A list of four who joined from one source (the shared e2e database holds others too).
  const source = `e2e-launch-${randomBytes(4).toString("hex")}`;
  const people = Array.from({ length: 4 }, (_, n) => uniqueEmail(`launch-${n}`));
  for (const email of people) await joinAndConfirm(email, source);
  const [first, second, third, fourth] = people as [string, string, string, string];

  // The operator composes an invite wave of 3 from that source and sees its size.
  const ctx = await newContext({ viewport: { width: 1280, height: 900 } });
  const { page } = await newTab(ctx);
  await signInToConsole(page, baseUrl, OPERATOR);
  const section = page.getByRole("region", { name: text.title, exact: true });
  await section.getByRole("button", { name: text.newCampaign }).click();
  const subject = `Your invite is here ${source}`;
  await section.getByLabel(text.composer.subject, { exact: true }).fill(subject);
  await section
    .getByLabel(text.composer.body, { exact: true })
    .fill("Homework Helper is open.\n\nStart at https://homeworkhelper.app/start");
  await section.getByLabel(text.audience.wave, { exact: true }).check();
  await section.getByLabel(text.audience.waveSize, { exact: true }).fill("3");
  await section.getByLabel(text.audience.utmSource, { exact: true }).fill(source);
  await section
    .getByRole("status")
    .filter({ hasText: text.audience.size(3) })
    .waitFor({ timeout: STEP_MS });

  // The preview at both widths: the worker's page in frames, the subject as the heading.
  await section.getByRole("button", { name: text.preview.show }).click();
  for (const width of [360, 640]) {
    const frame = section.frameLocator(`iframe[title="${text.preview.frameTitle(width)}"]`);
    await frame.getByRole("heading", { name: subject }).waitFor({ timeout: STEP_MS });
    await frame.getByText("Homework Helper is open.").waitFor();
  }

  // A test to the operator: "[Test] " before the subject, and only to them.
  await section.getByRole("button", { name: text.test.send }).click();
  await section.getByText(text.test.sent(OPERATOR)).waitFor({ timeout: STEP_MS });
  await waitForMail(baseUrl, (m) => m.title === `[Test] ${subject}` && m.receivers.join() === OPERATOR, { what: "the test e-mail" });
  expect((await campaignMail(subject)).size, "the test reached no recipient").toBe(0);

  // Send now: the console asks with the count, then sends; it finishes without a reload.
  await section.getByLabel(text.send.now, { exact: true }).check();
  await section.getByRole("button", { name: `${text.send.now}…` }).click();
  await section.getByText(text.send.confirmNow(3)).waitFor({ timeout: STEP_MS });
  await section.getByRole("button", { name: text.send.yes }).click();
  await section.getByText(text.progress.summary(3, 3)).waitFor({ timeout: STEP_MS });
  await section.getByText(text.status.sent!, { exact: true }).first().waitFor({ timeout: STEP_MS });

  // The first three in line got it, the fourth did not.
  const wave = await campaignMail(subject);
  expect([...wave.keys()].sort()).toEqual([first, second, third].sort());

  // The second recipient opens the link in their e-mail: a page with a button, nothing changed yet.
  const link = unsubscribeLink(wave.get(second)!);
  const recipient = await newContext({ viewport: { width: 360, height: 740 } });
  const { page: mailPage } = await newTab(recipient);
  const opened = await mailPage.goto(link);
  expect(opened?.status()).toBe(200);
  const button = mailPage.getByRole("button", { name: /unsubscribe/i });
  await button.waitFor();
  await button.click();
  await mailPage.getByRole("heading", { name: /you(?:'|’)re unsubscribed/i }).waitFor({ timeout: STEP_MS });

  // The next campaign to everyone from that source: the one who unsubscribed is not drawn (the
  // audience is who can receive it), so its size is three and all three get it.
  const nextSubject = `What's new ${source}`;
  const draft = await api<CampaignJson>("POST", "", { subject: nextSubject, body: "News.", audience: { kind: "all", utm_source: source } });
  expect(draft.audience_size).toBe(3);
  await api<CampaignJson>("POST", `/${draft.id}/send`, {});
  await expect.poll(async () => (await api<CampaignJson>("GET", `/${draft.id}`)).status, { timeout: STEP_MS, interval: 500 }).toBe("sent");
  const done = await api<CampaignJson>("GET", `/${draft.id}`);
  expect(done.progress.counts).toMatchObject({ sent: 3, skipped: 0, failed: 0, queued: 0, sending: 0 });
  const next = await campaignMail(nextSubject);
  expect([...next.keys()].sort()).toEqual([first, third, fourth].sort());
}, 180_000);

it("at 1280 px the composer's first of a wave fit their column, a flagged referrer's friends marked in full, and the line above counts them (issue 22 review)", async () => {
  const friend = (n: number, email: string) => ({
    id: 9000 + n,
    email,
    place: 32 + n,
    referral_code: null,
    referred_by: "P44ZX44M",
    referrals_confirmed: 0,
    flagged_from_one_network: null,
    referred_by_flagged: true,
  });
  // The reviewer's next wave: the ring's and the school's friends, their referrers invited before.
  const first = [1, 2, 3, 4, 5, 6, 7, 8]
    .map((n) => friend(n, `kid${n}@mailnest.example`))
    .concat(["lena.hoffmann", "mohammed.yilmaz"].map((name, n) => friend(9 + n, `${name}@schule-nord.example.de`)));
  const ctx = await newContext({ viewport: { width: 1280, height: 900 } });
  await ctx.route("**/api/admin/campaigns/audience", (route) =>
    route.fulfill({ json: { audience_size: 14, wave: { first, flagged: 0, flagged_friends: 14, held: 0 } } }),
  );
  const { page } = await newTab(ctx);
  await signInToConsole(page, baseUrl, OPERATOR);
  const section = page.getByRole("region", { name: text.title, exact: true });
  await section.getByRole("button", { name: text.newCampaign }).click();
  await section.getByLabel(text.audience.wave, { exact: true }).check();
  await section.getByLabel(text.audience.waveSize, { exact: true }).fill("20");
  const table = section.getByRole("table", { name: text.audience.first.caption(first.length) });
  await table.waitFor({ timeout: STEP_MS });
  await section.getByText(text.audience.first.flaggedInWave(0, 14)).waitFor();
  const box = section.getByRole("region", { name: text.audience.first.caption(first.length) });
  const sizes = await box.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(sizes.scroll, "the first of the wave scroll sideways").toBeLessThanOrEqual(sizes.client);
  const region = (await box.boundingBox())!;
  const badge = (await table.getByText(text.audience.first.flaggedFriend).first().boundingBox())!;
  expect(badge.x + badge.width).toBeLessThanOrEqual(region.x + region.width + 1);
  await ctx.close();
});
