import { Hono, type Context } from "hono";
import type { ConsentSource } from "./queries";
import type { AppEnv, Deps } from "../../../deps";
import { fromThisOrigin } from "../../../platform/http/submission";
import { sitePageResponse } from "../../../platform/http/site-page";
import { describeError, log } from "../../../platform/log";
import { maskAddress, ONE_CLICK_BODY, verifyUnsubscribe } from "./token";
import { UNSUBSCRIBE_TEXT, unsubscribedPage, unsubscribeProblemPage, unsubscribePromptPage } from "./page";

/**
 * The unsubscribe link of every campaign e-mail, /unsubscribe?token=… (docs/api.md "Campaign e-mail
 * and unsubscribing"):
 *
 * - GET: a page with the "Unsubscribe" button (a form posting the token). Opening the link
 *   changes nothing: mail scanners and link previews open links.
 * - POST with the body `List-Unsubscribe=One-Click` (RFC 8058, as the List-Unsubscribe-Post
 *   header offers it): unsubscribes at once and answers 200 in plain text. A mail provider posts
 *   it from its own servers, so it needs no page, no sign-in and no origin: the signed token is
 *   the proof.
 * - POST from the page's own button (this site's origin only, like the public forms):
 *   unsubscribes and shows "You're unsubscribed". A browser's form says where it comes from
 *   (Origin, Sec-Fetch-Site); a POST with neither that is not exactly a one-click (a server
 *   posting a wrong body) is a 400 in plain text and changes nothing, so the consent trail never
 *   records a server's request as a person pressing the button.
 * - A mailbox the list does not know (no confirmed entry, no suppression, no consent trail: it
 *   was erased) is not written back: every answer says "not on our list" and nothing changes,
 *   so an erased person's old link cannot bring data about them back. A test e-mail's link
 *   (to an operator, who is not on the list) answers the same: its token cannot be told apart.
 *
 * A token that is not this server's (changed, cut short) is a 400 and changes nothing. The
 * link never expires, and unsubscribing twice is the same as once. Nothing is cached.
 */

/** The plain-text answers of this route's own (the page's words are unsubscribe-page.ts). */
const TEXT = {
  notOneClick: `A POST here must be the one-click body ${ONE_CLICK_BODY} (RFC 8058), or come from the unsubscribe page: nothing changed.`,
  notListed: "This address is not on our list: nothing changed.",
};

/** A one-click body is one short field; anything much longer is not one. */
const MAX_BODY_BYTES = 4096;

/** The posted fields (URL-encoded or multipart, both of which RFC 8058 allows); none when unreadable or too long. */
async function postedFields(c: Context<AppEnv>): Promise<URLSearchParams> {
  const fields = new URLSearchParams();
  try {
    const bytes = await bodyUpTo(c.req.raw, MAX_BODY_BYTES);
    if (!bytes || bytes.byteLength === 0) return fields;
    const type = c.req.header("content-type") ?? "";
    const form = await new Response(bytes, { headers: { "Content-Type": type } }).formData();
    for (const [name, value] of form) if (typeof value === "string") fields.append(name, value);
  } catch {
    // Not a form this server can read: no fields, so neither a one-click nor a button press.
  }
  return fields;
}

/** The body's bytes, read no further than `max` (a longer body is no form of ours: null, the rest never read). */
async function bodyUpTo(request: Request, max: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** Puts the token's mailbox on the suppression list; false when it was on it already. */
async function unsubscribe(deps: Deps, token: { campaignId: number; mailboxKey: string }, source: ConsentSource): Promise<boolean> {
  const added = await deps.repo.consent.suppress({
    mailboxKey: token.mailboxKey,
    reason: "unsubscribed",
    source,
    campaignId: token.campaignId,
    now: deps.now(),
  });
  // The log names the campaign, never the mailbox.
  log("info", "campaign.unsubscribed", { campaign_id: token.campaignId, source, changed: added });
  return added;
}

const verify = (deps: Deps, token: string) => verifyUnsubscribe(deps.config.auth.jwtSecret, token);

/** Whether the list knows the mailbox: a confirmed entry, or a suppression or consent trail of its own (an erased one has none). */
async function knownMailbox(deps: Deps, mailboxKey: string, address: string | null, onList: boolean): Promise<boolean> {
  if (address !== null || onList) return true;
  return (await deps.repo.consent.events(mailboxKey)).length > 0;
}

/** Neither header a browser's form sends: not a page's button. */
const noBrowserHeaders = (request: Request) => request.headers.get("origin") === null && request.headers.get("sec-fetch-site") === null;

/**
 * The pages name the link's mailbox, masked (the link may have been forwarded), so the owner of
 * two addresses knows which one it stops; null when no entry has it (a test e-mail to an operator).
 */
async function maskedAddressOf(deps: Deps, mailboxKey: string): Promise<string | null> {
  const address = await deps.repo.recipients.addressOfMailbox(mailboxKey);
  return address ? maskAddress(address) : null;
}

export const unsubscribeRoutes = new Hono<AppEnv>()
  .use("*", async (c, next) => {
    await next();
    c.header("Cache-Control", "no-store");
  })

  .get("/", async (c) => {
    const deps = c.get("deps");
    const token = c.req.query("token") ?? "";
    try {
      const valid = await verify(deps, token);
      if (!valid) return await sitePageResponse(c, unsubscribeProblemPage("invalid"), 400);
      const [status, address] = await Promise.all([deps.repo.consent.statusOf(valid.mailboxKey), maskedAddressOf(deps, valid.mailboxKey)]);
      if (!(await knownMailbox(deps, valid.mailboxKey, address, status !== null)))
        return await sitePageResponse(c, unsubscribeProblemPage("notListed"), 200);
      // Already off the list: say so (still changing nothing).
      if (status) return await sitePageResponse(c, unsubscribedPage(true, address), 200);
      return await sitePageResponse(c, unsubscribePromptPage(token, address), 200);
    } catch (error) {
      log("error", "unsubscribe.failed", { method: "GET", error: describeError(error) });
      return sitePageResponse(c, unsubscribeProblemPage("failed"), 500);
    }
  })

  .post("/", async (c) => {
    const deps = c.get("deps");
    const fields = await postedFields(c);
    const [name, value] = ONE_CLICK_BODY.split("=") as [string, string];
    const oneClick = fields.get(name) === value;
    const token = fields.get("token") ?? c.req.query("token") ?? "";
    try {
      if (oneClick) {
        const valid = await verify(deps, token);
        if (!valid) return c.text(UNSUBSCRIBE_TEXT.oneClickInvalid, 400);
        const [address, status] = await Promise.all([
          maskedAddressOf(deps, valid.mailboxKey),
          deps.repo.consent.statusOf(valid.mailboxKey),
        ]);
        if (!(await knownMailbox(deps, valid.mailboxKey, address, status !== null))) return c.text(TEXT.notListed, 200);
        await unsubscribe(deps, valid, "one-click");
        return c.text(UNSUBSCRIBE_TEXT.oneClickDone, 200);
      }
      if (noBrowserHeaders(c.req.raw)) return c.text(TEXT.notOneClick, 400);
      // The page's button: from this site's own page only (a cross-site form cannot press it).
      if (!fromThisOrigin(c.req.raw)) return await sitePageResponse(c, unsubscribeProblemPage("otherSite"), 403);
      const valid = await verify(deps, token);
      if (!valid) return await sitePageResponse(c, unsubscribeProblemPage("invalid"), 400);
      const [address, status] = await Promise.all([maskedAddressOf(deps, valid.mailboxKey), deps.repo.consent.statusOf(valid.mailboxKey)]);
      if (!(await knownMailbox(deps, valid.mailboxKey, address, status !== null)))
        return await sitePageResponse(c, unsubscribeProblemPage("notListed"), 200);
      const added = await unsubscribe(deps, valid, "page");
      return await sitePageResponse(c, unsubscribedPage(!added, address), 200);
    } catch (error) {
      log("error", "unsubscribe.failed", { method: "POST", one_click: oneClick, error: describeError(error) });
      return oneClick ? c.text(UNSUBSCRIBE_TEXT.oneClickFailed, 500) : sitePageResponse(c, unsubscribeProblemPage("failed"), 500);
    }
  });
