import { Hono, type Context } from "hono";
import { subjectHash } from "../operator/audit";
import { jwtSecret } from "../sign-in";
import { personJson } from "../operator/json";
import { jsonBody } from "../../platform/http/body";
import { API_BODY_ERRORS, ApiError, tooManyRequests } from "../../platform/http/errors";
import { log } from "../../platform/log";
import { type MeEnv, signedInOnly } from "./signed-in";
import { JOURNEY_TEXT } from "../../shared/journey-text";
import {
  ME_DATA_FILENAME,
  ME_ERRORS,
  SELF_OPERATOR,
  type MeAnswer,
  type MeConfirmationSent,
  type MeData,
  type MeErasure,
} from "../../shared/me";
import { tooManyAttempts } from "../../shared/public-forms";
import { normalizeEmail } from "../../shared/text";
import { clientAddress, clientKey } from "../../platform/http/client";
import { WAITLIST_MESSAGES } from "../../shared/waitlist";
import { isDisposableAddress } from "../waitlist/disposable";
import { mailboxKey } from "../waitlist/keys";
import { joinConfirmed, journeyOf, leaveWaitlist, resendConfirmation } from "../waitlist/journey";
import { consentTrailOf, setSubscribed, subscriptionOf } from "./subscription";

/**
 * The signed-in joiner's own API, /api/me (docs/api.md "My place API"), behind the "My place" page
 * (/#/me). Every route needs the access token of a sign-in (worker/features/me/signed-in.ts: 401
 * not_signed_in otherwise) and acts on that token's address only. Answers are never stored (the
 * API's Cache-Control: no-store). The rules are the waitlist's (worker/features/waitlist/journey.ts); the
 * data download and the erasure are the operator's (worker/features/operator/json.ts, admin-repository.ts),
 * recorded in the audit trail with the operator "self".
 */

/** Where the request came from (the referral link's site when SITE_URL is unset), and how to finish work after the response. */
const requestContext = (c: Context<MeEnv>) => ({
  origin: new URL(c.req.url).origin,
  network: clientKey(clientAddress(c.req.raw.headers)),
  defer: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
});

/** GET /api/me's answer for the signed-in address, as it is now. */
async function meAnswer(c: Context<MeEnv>): Promise<MeAnswer> {
  const deps = c.get("deps");
  const email = c.get("user").email;
  const [journey, subscription] = await Promise.all([journeyOf(deps, email, new URL(c.req.url).origin), subscriptionOf(deps, email)]);
  const share = { text: JOURNEY_TEXT.shareText };
  return { email, ...journey, share, referral_boost: deps.config.waitlist.referralBoost, subscription };
}

/** POST /api/me/subscription's `subscribed`: a boolean, or a 400 naming the field. */
function wantsSubscribed(c: Context<MeEnv>): boolean {
  const subscribed = c.get("requestBody")?.subscribed;
  if (typeof subscribed === "boolean") return subscribed;
  const message = "Say true to get campaign e-mail, false to stop it.";
  throw new ApiError(400, "validation_failed", message, { field: "subscribed", fields: { subscribed: message } });
}

/** The audit record's who and whom for a person acting on their own data (never the address itself). */
async function selfAudit(c: Context<MeEnv>) {
  const deps = c.get("deps");
  return { operator: SELF_OPERATOR, subjectHash: await subjectHash(jwtSecret(deps.config), c.get("user").email), now: deps.now() };
}

/** DELETE /api/me's `confirm`: the address typed again, compared as addresses are stored. */
function confirmedAddress(c: Context<MeEnv>): void {
  const typed = c.get("requestBody")?.confirm;
  if (typeof typed !== "string") {
    const message = "Type your e-mail address to confirm.";
    throw new ApiError(400, "validation_failed", message, { field: "confirm", fields: { confirm: message } });
  }
  if (normalizeEmail(typed) !== c.get("user").email) {
    throw new ApiError(400, ME_ERRORS.confirmMismatch, "That is not your address: type it exactly as shown to delete everything.", {
      field: "confirm",
    });
  }
}

export const meRoutes = new Hono<MeEnv>()
  .use("*", signedInOnly)

  .get("/", async (c) => c.json(await meAnswer(c)))

  /** Join with one click: signing in proved the address, so the entry is confirmed at once. */
  .post("/waitlist", async (c) => {
    const email = c.get("user").email;
    // The same rule as the public join: signing in proves an address works, not that it lasts.
    if (isDisposableAddress(email)) throw API_BODY_ERRORS.invalid({ email: WAITLIST_MESSAGES.emailDisposable });
    await joinConfirmed(c.get("deps"), email, requestContext(c));
    return c.json(await meAnswer(c));
  })

  /** Leave the waitlist: the entry and its joiner e-mails are deleted; the sign-in stays. */
  .delete("/waitlist", async (c) => {
    await leaveWaitlist(c.get("deps"), c.get("user").email);
    return c.json(await meAnswer(c));
  })

  /** Send the confirmation e-mail again: only while pending, within the address's daily cap. */
  .post("/confirmation", async (c) => {
    const deps = c.get("deps");
    const email = c.get("user").email;
    const { status } = await journeyOf(deps, email, new URL(c.req.url).origin);
    if (status !== "pending") {
      const message = status === "none" ? "You are not on the waitlist." : "Your place is already confirmed.";
      throw new ApiError(409, ME_ERRORS.notPending, message);
    }
    const sent = await resendConfirmation(deps, email, requestContext(c));
    if (!sent.sent) {
      const wait = sent.retryAfterSeconds ?? 86_400;
      throw tooManyRequests(wait, tooManyAttempts(wait));
    }
    return c.json({ sent: true } satisfies MeConfirmationSent);
  })

  /** Unsubscribe from campaign e-mail (the suppression list, source "me"), or subscribe again. */
  .post("/subscription", jsonBody(API_BODY_ERRORS), async (c) => {
    await setSubscribed(c.get("deps"), c.get("user").email, wantsSubscribed(c));
    return c.json(await meAnswer(c));
  })

  /** Everything stored about the address, as the operator's data-access answer plus the consent trail, as a download. */
  .get("/data", async (c) => {
    const deps = c.get("deps");
    const email = c.get("user").email;
    const [found, consent] = await Promise.all([deps.repo.operator.person(email, await selfAudit(c)), consentTrailOf(deps, email)]);
    c.header("Content-Disposition", `attachment; filename="${ME_DATA_FILENAME}"`);
    return c.json({ ...personJson(email, found, deps.now()), consent } satisfies MeData);
  })

  /** Erase everything (the operator's erasure, audited as "self"): the session ends with the user. */
  .delete("/", jsonBody(API_BODY_ERRORS), async (c) => {
    confirmedAddress(c);
    const deps = c.get("deps");
    const email = c.get("user").email;
    const counts = await deps.repo.operator.erasePerson(email, await selfAudit(c), await mailboxKey(deps.config.auth.jwtSecret, email));
    // The log names the user by id: log lines carry no address.
    log("info", "me.erased", { user: c.get("user").id, ...counts });
    return c.json(counts satisfies MeErasure);
  });
